"""``# noqa`` comments, with flake8's semantics, and file-level directives, as ruff's.

``# noqa`` alone silences every code on its line; ``# noqa: VLM105,VLM2``
silences the listed codes (a prefix matches, as in flake8).  In Python a
comment on any physical line of a multi-line statement covers the whole
statement; in shell scripts, Dockerfiles and YAML a comment covers its line,
and the last line of a command split over lines covers the whole command.

``# vllm-lint: noqa`` on a line of its own silences the whole file;
``# vllm-lint: noqa: VLM105`` silences the listed codes in the whole file.
It works in every kind of file, and it is the way to silence a finding in a
Dockerfile's exec form (``CMD ["vllm", "serve", ...]``), where a comment at
the end of the line would turn the JSON array into a shell command.

Each directive remembers the findings it silenced, so that unused ones can be
reported (``rules.unused_noqa``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_CODE = r"[A-Z]+[0-9]+"
NOQA_RE = re.compile(rf"#\s*noqa(?::[\s]?(?P<codes>{_CODE}(?:[,\s]+{_CODE})*))?", re.I)
FILE_NOQA_RE = re.compile(rf"^[ \t]*#[ \t]*vllm-lint:[ \t]*noqa(?::[ \t]*(?P<codes>{_CODE}(?:[ \t]*,[ \t]*{_CODE}|[ \t]+{_CODE})*))?", re.I)
_CODE_RE = re.compile(_CODE, re.I)
_SEPARATOR = re.compile(r"[,\s]+")
_MAY_HAVE_NOQA = re.compile(r"noqa", re.I)
_MAY_HAVE_FILE_NOQA = re.compile(r"vllm-lint:[ \t]*noqa", re.I)


@dataclass(frozen=True)
class Directive:
    """One ``# noqa`` comment (or file-level ``# vllm-lint: noqa``) and where it is written."""

    line: int
    start: int  # 0-based character columns of the directive in its line
    end: int
    codes: tuple[str, ...] | None  # None: every code
    code_spans: tuple[tuple[int, int], ...] = ()  # the columns of each code, in order
    file_level: bool = False

    def covers(self, code: str) -> bool:
        return self.codes is None or any(code.startswith(prefix) for prefix in self.codes)


@dataclass
class NoqaReport:
    """The directives of a file, and the findings each silenced."""

    directives: list[Directive] = field(default_factory=list)
    suppressed: list[tuple[object, tuple[Directive, ...]]] = field(default_factory=list)  # (Finding, directives)


def _directive(match: re.Match, line: int, file_level: bool = False) -> Directive:
    if match.group("codes") is None:
        return Directive(line, match.start(), match.end(), None, (), file_level)
    offset = match.start("codes")
    spans = tuple((offset + m.start(), offset + m.end()) for m in _CODE_RE.finditer(match.group("codes")))
    codes = tuple(match.group("codes")[s - offset : e - offset].upper() for s, e in spans)
    return Directive(line, match.start(), match.end(), codes, spans, file_level)


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
    ranges, _ = _scan_python(source)
    return ranges


def _scan_python(source: str) -> tuple[dict[int, tuple[int, int]], set[tuple[int, int]]]:
    """Statement ranges, and the (line, column) of every comment that stands on its own line."""
    import io
    import tokenize

    ranges: dict[int, tuple[int, int]] = {}
    own_line_comments: set[tuple[int, int]] = set()
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return ranges, own_line_comments
    start = None
    for token in tokens:
        if token.type == tokenize.COMMENT and not token.line[: token.start[1]].strip():
            own_line_comments.add(token.start)
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
    return ranges, own_line_comments


class Suppressions:
    """The directives of one file: which silence a finding."""

    def __init__(self, directives: list[Directive], ranges: dict[int, tuple[int, int]] | None = None) -> None:
        self.directives = directives
        self.by_line = {d.line: d for d in directives if not d.file_level}
        self.file_level = [d for d in directives if d.file_level]
        self.ranges = ranges or {}

    def matching(self, code: str, line: int, also: int | None = None) -> tuple[Directive, ...]:
        """The directives that silence ``code`` reported at ``line`` (``also``: another line that covers it)."""
        first, last = self.ranges.get(line, (line, line))
        numbers = list(range(first, last + 1))
        if also is not None and also not in numbers:
            numbers.append(also)
        found = [d for n in numbers if (d := self.by_line.get(n)) is not None and d.covers(code)]
        found.extend(d for d in self.file_level if d.covers(code))
        return tuple(found)

    def split(self, findings: list, also=lambda finding: None) -> tuple[list, NoqaReport]:
        """(findings kept, a report of the directives and what they silenced)."""
        kept = []
        report = NoqaReport(list(self.directives))
        for finding in findings:
            matched = self.matching(finding.code, finding.span.line, also(finding))
            if matched:
                report.suppressed.append((finding, matched))
            else:
                kept.append(finding)
        return kept, report


def python_suppressions(source: str, lines: list[str] | None = None) -> Suppressions:
    """The directives of a Python source, statement-aware."""
    if not _MAY_HAVE_NOQA.search(source):  # no tokenizing files without any noqa comment
        return Suppressions([])
    lines = source.splitlines() if lines is None else lines
    ranges, own_line = _scan_python(source)
    # A file-level directive must be a comment, not text in a string.
    return Suppressions(_directives(lines, lambda number, text: (number, text.index("#")) in own_line), ranges)


def line_suppressions(lines: list[str]) -> Suppressions:
    """The directives of a shell script, Dockerfile or YAML file: ``#`` comments, line by line."""
    return Suppressions(_directives(lines, lambda number, text: True))


def _directives(lines: list[str], file_directive_allowed) -> list:
    """Each line's noqa directive; a file-level one only where ``file_directive_allowed(number, text)``."""
    directives = []
    for number, text in enumerate(lines, 1):
        if "noqa" not in text.lower():
            continue
        file_match = FILE_NOQA_RE.match(text)
        if file_match is not None:
            if file_directive_allowed(number, text):
                directives.append(_directive(file_match, number, file_level=True))
            continue
        match = NOQA_RE.search(text)
        if match is not None:
            directives.append(_directive(match, number))
    return directives


def may_have_directives(data: bytes | str) -> bool:
    """A cheap test for a noqa comment that names a vllm-lint code, or a file-level directive."""
    if isinstance(data, bytes):
        # Plain substring tests first: most files with a noqa comment name other tools' codes.
        if b"noqa" not in data and b"NOQA" not in data:
            return False
        if b"VLM" not in data and b"vlm" not in data and b"vllm-lint" not in data:
            return False
        text = data.decode("utf-8", "replace")
    else:
        text = data
    return bool(_MAY_HAVE_FILE_NOQA.search(text)) or any(
        match.group("codes") and "VLM" in match.group("codes").upper() for match in NOQA_RE.finditer(text)
    )
