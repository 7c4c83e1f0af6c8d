"""Fixes for files other front ends read (shell scripts, Dockerfiles, YAML).

Those front ends compute ``finding.fix`` themselves: text ``Edit``s between
1-based (row, column) positions.  Here they are applied as plain text, in
passes like the Python fixes, keeping the file's line endings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from vllm_lint.findings import Edit, Finding, Fix

MAX_PASSES = 8


def applicable(safety: str | None, unsafe: bool) -> bool:
    """A fix of this safety is applied: safe ones always, unsafe ones with ``--unsafe-fixes``."""
    return safety == "safe" or (safety == "unsafe" and unsafe)


def _line_starts(text: str) -> list[int]:
    starts = [0]
    index = text.find("\n")
    while index != -1:
        starts.append(index + 1)
        index = text.find("\n", index + 1)
    return starts


def _offset(starts: list[int], text: str, row: int, column: int) -> int | None:
    if not 1 <= row <= len(starts) or column < 1:
        return None
    start = starts[row - 1]
    end = starts[row] - 1 if row < len(starts) else len(text)  # the line's "\n"
    offset = start + column - 1
    return offset if offset <= end else None


def apply_edits(text: str, edits: list[Edit], newline: str = "\n") -> str | None:
    """``text`` with the (non-overlapping) edits applied; None if one does not fit the text."""
    starts = _line_starts(text)
    ranges = []
    for edit in edits:
        start = _offset(starts, text, *edit.start)
        end = _offset(starts, text, *edit.end)
        if start is None or end is None or end < start:
            return None
        content = edit.content
        if newline != "\n":
            content = content.replace("\r\n", "\n").replace("\n", newline)
        ranges.append((start, end, content))
    ranges.sort(key=lambda item: (item[0], item[1]))
    for (_, first_end, _), (second_start, _, _) in zip(ranges, ranges[1:]):
        if second_start < first_end:
            return None
    pieces = []
    position = 0
    for start, end, content in ranges:
        pieces.append(text[position:start])
        pieces.append(content)
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _overlaps(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> bool:
    return any(x_start < y_end and y_start < x_end or x_start == y_start for x_start, x_end in a for y_start, y_end in b)


@dataclass
class TextOutcome:
    text: str
    fixed: list[Finding] = field(default_factory=list)
    remaining: list[Finding] = field(default_factory=list)
    error: str | None = None
    converged: bool = True


def fix_text(
    text: str,
    findings: list[Finding],
    relint: Callable[[str], list[Finding]],
    *,
    unsafe: bool = False,
    newline: str = "\n",
    max_passes: int = MAX_PASSES,
    fix_of: Callable[[Finding], Fix | None] | None = None,
) -> TextOutcome:
    """Apply the findings' own fixes; ``relint`` lints a new text and returns its findings.

    ``fix_of`` picks the fix to apply for a finding (default: ``finding.fix``).
    """
    current = text
    fixed: list[Finding] = []
    converged = False
    for _ in range(max_passes):
        starts = _line_starts(current)
        chosen: list[tuple[Finding, Fix]] = []
        taken: list[tuple[int, int]] = []
        for finding in findings:
            fix = fix_of(finding) if fix_of is not None else finding.fix
            if fix is None or not fix.edits or not applicable(fix.applicability, unsafe):
                continue
            spans = []
            for edit in fix.edits:
                start = _offset(starts, current, *edit.start)
                end = _offset(starts, current, *edit.end)
                if start is None or end is None:
                    spans = []
                    break
                spans.append((start, end))
            if not spans or _overlaps(spans, taken):
                continue  # a later pass applies it, if it is still wanted
            chosen.append((finding, fix))
            taken.extend(spans)
        if not chosen:
            converged = True
            break
        new = apply_edits(current, [edit for _, fix in chosen for edit in fix.edits], newline)
        if new is None or new == current:
            converged = True
            break
        fixed.extend(finding for finding, _ in chosen)
        current = new
        findings = relint(current)
    return TextOutcome(current, fixed, findings, None, converged)
