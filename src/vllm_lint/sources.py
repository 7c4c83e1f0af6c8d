"""Reading linted files: their bytes, their decoded text, and the result of linting one.

Both front ends and the project-module reader use this; it imports neither.
"""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vllm_lint.findings import FileError, Finding

if TYPE_CHECKING:
    from vllm_lint.noqa import NoqaReport

# Larger files are reported, not read.
MAX_FILE_BYTES = 64 * 1024 * 1024
# Larger files that may hold a finding are reported, not parsed: parsing and analysing
# dense code takes a few hundred bytes of memory per byte of source.
MAX_ANALYSED_BYTES = 4 * 1024 * 1024
# The bytes of a Python name (an ASCII one: any other byte is taken to end it), for the byte
# tests run before a file is parsed.
NAME_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def too_large_to_analyse(path: str, size: int) -> FileError:
    return FileError(path, f"file too large to analyse ({size} bytes; limit {MAX_ANALYSED_BYTES // 2**20} MiB)")


def not_analysable(path: str, data: bytes, size_limit: bool = True) -> FileError | None:
    """The one diagnostic for bytes no front end reads: too large to analyse, or binary."""
    if size_limit and len(data) > MAX_ANALYSED_BYTES:
        return too_large_to_analyse(path, len(data))
    if b"\0" in data:
        return FileError(path, "binary file (contains NUL bytes)")
    return None


@dataclass
class FileResult:
    path: str
    findings: list[Finding] = field(default_factory=list)
    error: FileError | None = None
    source: str | None = None  # decoded text, kept for output with context and for fixing
    newline: str = "\n"
    kind: str | None = None  # the front end that read it: "python", "shell", "dockerfile", "yaml", "toml"
    noqa: NoqaReport | None = None  # its noqa directives, and what they silenced
    # The RL framework packs that applied to the file, and why (``--show-settings``).
    frameworks: list = field(default_factory=list)
    # A notebook: each code cell's lines by cell number (findings are placed within their cell).
    cells: dict | None = None

    @property
    def is_python(self) -> bool:
        if self.kind is not None:
            return self.kind == "python"  # a notebook is not: its fixes are not applied
        return self.path == "-" or self.path.endswith((".py", ".pyi"))


def decode_python(data: bytes) -> str:
    """Decode Python source as the interpreter would (PEP 263 cookie, BOM)."""
    import io
    import tokenize

    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def read_file(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):  # a FIFO or a device would block or never end
        raise OSError("not a regular file")
    size = info.st_size
    if size > MAX_FILE_BYTES:
        raise OSError(f"file too large ({size} bytes; limit {MAX_FILE_BYTES})")
    with open(path, "rb", buffering=0) as handle:  # one read of the whole file: no buffer to fill first
        return handle.read()
