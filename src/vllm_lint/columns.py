"""Columns: spans count UTF-8 bytes (as Python's ``ast`` does); people and tools count characters.

Text, JSON, SARIF and GitHub output and the pylint plugin report character
columns, as ruff and pylint do; ``full`` output also needs the width a line
takes on a terminal, where East Asian wide characters take two cells.
"""

from __future__ import annotations

import re
import unicodedata

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def source_lines(source: str) -> list[str]:
    """The source's lines as Python numbers them (a form feed does not end a line)."""
    lines = _LINE_BREAK.split(source)
    if lines and not lines[-1]:
        lines.pop()
    return lines


def char_column(line: str, byte_col: int) -> int:
    """A 0-based column in UTF-8 bytes of ``line`` as a count of its characters."""
    if line.isascii():
        return byte_col
    return len(line.encode("utf-8", "surrogatepass")[:byte_col].decode("utf-8", "ignore"))


def byte_column(line: str, char_col: int) -> int:
    """A 0-based column counted in characters of ``line`` as a count of UTF-8 bytes."""
    if line.isascii():
        return char_col
    return len(line[:char_col].encode("utf-8", "surrogatepass"))


def cell_width(text: str) -> int:
    """The number of terminal cells ``text`` takes (wide characters two, combining marks none)."""
    if text.isascii():
        return len(text)
    width = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width
