"""``# noqa`` comments, with flake8's semantics.

``# noqa`` alone silences every code on its line; ``# noqa: VLM105,VLM2``
silences the listed codes (a prefix matches, as in flake8).  A comment on any
physical line of a multi-line statement covers the whole statement.
"""

from __future__ import annotations

import io
import re
import tokenize

NOQA_RE = re.compile(r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.I)
_SEPARATOR = re.compile(r"[,\s]+")
_MAY_HAVE_NOQA = re.compile(r"noqa", re.I)


def parse_noqa(comment_line: str) -> set[str] | None:
    """None: no noqa; empty set: every code; else the codes (prefixes) listed."""
    match = NOQA_RE.search(comment_line)
    if not match:
        return None
    codes = match.group("codes")
    if not codes:
        return set()
    return {code.upper() for code in _SEPARATOR.split(codes.strip()) if code}


def suppressed(code: str, noqa: set[str] | None) -> bool:
    if noqa is None:
        return False
    if not noqa:
        return True
    return any(code.startswith(prefix) for prefix in noqa)


def statement_ranges(source: str) -> dict[int, tuple[int, int]]:
    """Map each line of a multi-line statement (or string) to the statement's line range."""
    ranges: dict[int, tuple[int, int]] = {}
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return ranges
    start = None
    for token in tokens:
        if token.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING):
            if start is None:
                continue
        if start is None:
            start = token.start[0]
        if token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            end = token.end[0]
            if end > start:
                for line in range(start, end + 1):
                    ranges[line] = (start, end)
            start = None
    return ranges


def python_noqa_for(source: str, lines: list[str]):
    """A function line -> noqa codes for a Python file, statement-aware."""
    if not _MAY_HAVE_NOQA.search(source):  # no tokenizing files without any noqa comment
        return lambda line: None
    ranges = statement_ranges(source)

    def lookup(line: int) -> set[str] | None:
        first, last = ranges.get(line, (line, line))
        result: set[str] | None = None
        for number in range(first, last + 1):
            if 0 < number <= len(lines):
                found = parse_noqa(lines[number - 1])
                if found is not None:
                    if not found:
                        return set()
                    result = (result or set()) | found
        return result

    return lookup


def line_noqa_for(lines: list[str]):
    """A function line -> noqa codes for shell, YAML and Dockerfile sources (same line only)."""

    def lookup(line: int) -> set[str] | None:
        if 0 < line <= len(lines):
            return parse_noqa(lines[line - 1])
        return None

    return lookup
