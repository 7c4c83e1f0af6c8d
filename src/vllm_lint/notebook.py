"""Jupyter notebooks (``.ipynb``): their code cells checked as one Python module.

The code cells are joined in order, as the kernel runs them top to bottom;
IPython's own syntax (``%magic``, ``!shell``, ``x = !cmd``, ``obj?``) becomes a
blank line, and a cell that starts with a cell magic other than ``%%time``,
``%%timeit`` or ``%%capture`` (``%%bash``, ``%%writefile``) is left out whole,
so line numbers inside each cell are kept.  Findings are reported at their
cell (the notebook's Nth cell, markdown cells counted, as editors number them)
and line within it.  Fixes are not applied to notebooks.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

# Cell magics whose body is Python.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun"})
_IPYTHON_LINE = re.compile(r"^\s*(?:[%!]|[A-Za-z_][\w.]*\s*=\s*[%!])|\?\s*$")


class NotebookError(ValueError):
    """Not a notebook vllm-lint can read."""


@dataclass
class Cells:
    source: str  # the code cells joined, as one module
    starts: list[tuple[int, int]]  # (cell number, the module's line where its first line is), in order
    texts: dict[int, list[str]]  # each code cell's lines, as written


def read_cells(data: bytes) -> Cells:
    """The code cells of a notebook's JSON; ``NotebookError`` when it is not one."""
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise NotebookError(f"invalid notebook: {error}") from error
    cells = document.get("cells") if isinstance(document, dict) else None
    if not isinstance(cells, list):
        # nbformat 3 kept cells in worksheets; older files are not read.
        worksheets = document.get("worksheets") if isinstance(document, dict) else None
        if isinstance(worksheets, list) and worksheets and isinstance(worksheets[0], dict):
            cells = worksheets[0].get("cells")
        if not isinstance(cells, list):
            raise NotebookError("invalid notebook: no list of cells")
    lines: list[str] = []
    starts: list[tuple[int, int]] = []
    texts: dict[int, list[str]] = {}
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        text = cell.get("source", cell.get("input", ""))
        if isinstance(text, list):
            text = "".join(part for part in text if isinstance(part, str))
        if not isinstance(text, str):
            continue
        cell_lines = text.splitlines() or [""]
        texts[number] = cell_lines
        starts.append((number, len(lines) + 1))
        lines.extend(_python_lines(cell_lines))
    return Cells("\n".join(lines) + "\n" if lines else "", starts, texts)


def _python_lines(cell_lines: list[str]) -> list[str]:
    first = cell_lines[0].lstrip()
    if first.startswith("%%"):
        magic = first[2:].split(None, 1)[0] if first[2:].strip() else ""
        if magic not in PYTHON_CELL_MAGICS:
            return [""] * len(cell_lines)  # another language (%%bash) or a file's text (%%writefile)
        return [""] + [_python_line(line) for line in cell_lines[1:]]
    return [_python_line(line) for line in cell_lines]


def _python_line(line: str) -> str:
    return "" if _IPYTHON_LINE.search(line) else line


def cell_position(cells: Cells, line: int) -> tuple[int, int]:
    """(cell number, line within the cell) of a line of the joined module."""
    found = cells.starts[0] if cells.starts else (1, 1)
    for number, start in cells.starts:
        if start > line:
            break
        found = (number, start)
    return found[0], line - found[1] + 1
