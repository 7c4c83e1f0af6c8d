"""Which files the command-line front end reads, decided cheaply.

By name first: ``*.sh``/``*.bash`` (shell), ``Dockerfile``, ``Containerfile``,
``*.Dockerfile``, ``Dockerfile.*`` (Dockerfile), ``*.yaml``/``*.yml`` (YAML).
Only a file without an extension is opened, and only its first bytes are
read, for a ``sh``/``bash`` shebang.
"""

from __future__ import annotations

import os
import re

SHELL_EXTENSIONS = (".sh", ".bash")
YAML_EXTENSIONS = (".yaml", ".yml")
_SHEBANG = re.compile(rb"^#![ \t]*(?:/usr)?(?:/local)?/bin/(?:env[ \t]+(?:-\S+[ \t]+)*)?(sh|bash|dash|ash|ksh)\b")
SHEBANG_BYTES = 128


def command_file_kind(path: str, data: bytes | None = None) -> str | None:
    """"shell", "dockerfile", "yaml", "toml" or None."""
    name = os.path.basename(path)
    lower = name.lower()
    if lower.endswith(YAML_EXTENSIONS):
        return "yaml"
    if lower.endswith(".toml") and lower != "pyproject.toml":
        return "toml"  # an RL framework's config (prime-rl); read only when a pack's markers match
    if lower.endswith(SHELL_EXTENSIONS):
        return "shell"
    if lower in ("dockerfile", "containerfile") or lower.endswith((".dockerfile", ".containerfile")):
        return "dockerfile"
    if lower.startswith(("dockerfile.", "containerfile.")) and not lower.endswith(".dockerignore"):
        return "dockerfile"
    if "." in name.lstrip("."):
        return None
    head = data[:SHEBANG_BYTES] if data is not None else _head(path)
    if head and _SHEBANG.match(head):
        return "shell"
    return None


def _head(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(SHEBANG_BYTES)
    except OSError:
        return b""
