"""``vllm-lint check --add-noqa``: silence every current finding with a ``# noqa`` comment, as ruff does.

A code joins the ``# noqa: ...`` list already on the line, or a new comment
goes at the end of the line.  The line is one where a comment can end it: in
Python not inside a string or after a backslash (the statement's next such
line otherwise, which covers the statement too); in shell scripts and
Dockerfiles not a line continued with a backslash (the command's last line
covers the command).  Each file is linted again before it is written: the
comments must silence the findings and change nothing else (a comment after
a Dockerfile's exec-form ``CMD [...]`` would make it a shell command).  A
finding that no comment can silence that way is left, with a warning.
"""

from __future__ import annotations

import io
import re
import tokenize

from vllm_lint.noqa import NOQA_RE, _scan_python

UNUSED_NOQA = "VLM901"  # silencing the unused-noqa rule with noqa comments would be circular
MAX_CONTINUATION = 200  # lines a command may be continued over before its last line


def _continued(line: str) -> bool:
    """The line ends with an unescaped backslash: shell and Dockerfile continue the command."""
    stripped = line.rstrip("\r\n")
    return (len(stripped) - len(stripped.rstrip("\\"))) % 2 == 1


def _python_comment_lines(source: str) -> set[int]:
    """Lines a comment may end: not inside a string, not continued with a backslash."""
    lines: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in (tokenize.NL, tokenize.NEWLINE):
                lines.add(token.start[0])
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return lines


def target_lines(source: str, findings: list, python: bool) -> dict[int, list]:
    """The line each finding's noqa comment goes on, and the findings for each line."""
    lines = source.splitlines()
    targets: dict[int, list] = {}
    if python:
        ranges, _ = _scan_python(source)
        allowed = _python_comment_lines(source)
    for finding in findings:
        line = finding.span.line
        if python:
            last = ranges.get(line, (line, line))[1]
            line = next((n for n in range(line, last + 1) if n in allowed), None)
        else:
            limit = min(len(lines), line + MAX_CONTINUATION)
            while line < limit and _continued(lines[line - 1]):
                line += 1
        if line is not None and 0 < line <= len(lines):
            targets.setdefault(line, []).append(finding)
    return targets


def with_codes(line: str, codes: list[str]) -> str | None:
    """``line`` (without its line break) with ``codes`` added to its noqa comment; None if none is missing."""
    match = NOQA_RE.search(line)
    if match is not None:
        if match.group("codes") is None:
            return None  # a bare noqa silences every code already
        present = {code.upper() for code in re.split(r"[,\s]+", match.group("codes")) if code}
        missing = [code for code in codes if not any(code.startswith(prefix) for prefix in present)]
        if not missing:
            return None
        return line[: match.end("codes")] + "".join(f", {code}" for code in missing) + line[match.end("codes") :]
    stripped = line.rstrip()
    return f"{stripped}  # noqa: {', '.join(codes)}{line[len(stripped):]}"


def insert(source: str, targets: dict[int, list]) -> tuple[str, int]:
    """``source`` with the comments of ``targets``, and how many comments were added or extended."""
    lines = source.splitlines(keepends=True)
    changed = 0
    for number, findings in targets.items():
        text = lines[number - 1]
        body = text.rstrip("\r\n")
        codes = sorted({finding.code for finding in findings})
        new = with_codes(body, codes)
        if new is not None:
            lines[number - 1] = new + text[len(body) :]
            changed += 1
    return "".join(lines), changed


def _raw(result) -> set[tuple]:
    """Every finding of a linted file, silenced or not."""
    found = {(f.code, f.span.line, f.span.col) for f in result.findings}
    if result.noqa is not None:
        found |= {(f.code, f.span.line, f.span.col) for f, _ in result.noqa.suppressed}
    return found


def silence(path: str, source: str, findings: list, python: bool, relint) -> tuple[str, int, list]:
    """(new source, comments added, findings left); ``relint(text)`` lints a text as this file."""
    before = _raw(relint(source))
    targets = target_lines(source, findings, python)
    placed = {id(f) for group in targets.values() for f in group}
    left = [f for f in findings if id(f) not in placed]

    def verified(text: str, silenced: list) -> bool:
        after = relint(text)
        if after.error is not None or _raw(after) != before:
            return False
        remaining = {(f.code, f.span.line, f.span.col) for f in after.findings}
        return not any((f.code, f.span.line, f.span.col) in remaining for f in silenced)

    new, count = insert(source, targets)
    if count and verified(new, [f for group in targets.values() for f in group]):
        return new, count, left
    # One line at a time: keep each comment that silences its findings and changes nothing else.
    current, count = source, 0
    for number in sorted(targets):
        candidate, added = insert(current, {number: targets[number]})
        if added and verified(candidate, targets[number]):
            current, count = candidate, count + added
        elif added:
            left.extend(targets[number])
    return current, count, left


def add_noqa(results, version_for, err) -> int:
    """Add the comments to every file with findings; the number of files that failed."""
    from vllm_lint.fix.apply import FileChanged, decode_python, decode_text, write_atomically
    from vllm_lint.lint import lint_bytes
    from vllm_lint.output import plural
    from vllm_lint.sources import read_file

    added = 0
    failed = 0
    for result in results:
        findings = [f for f in result.findings if f.code != UNUSED_NOQA]
        if not findings or result.source is None or result.error is not None:
            continue
        if result.kind == "notebook":
            err.write(f"vllm-lint: warning: {result.path}: notebooks are not edited; add `# noqa: CODE` in the cell\n")
            continue
        kind = result.kind or ("python" if result.is_python else None)
        try:
            data = read_file(result.path)
            text, encoded = decode_python(data) if result.is_python else decode_text(data)
            if text != result.source:
                raise FileChanged(result.path)

            def relint(candidate: str):
                return lint_bytes(result.path, candidate.encode(encoded.encoding), version_for, kind)

            new, count, left = silence(result.path, text, findings, result.is_python, relint)
            if count:
                write_atomically(result.path, new.encode(encoded.encoding), data)
                added += count
        except FileChanged:
            err.write(f"vllm-lint: error: {result.path}: changed on disk since it was read; not overwritten\n")
            failed += 1
            continue
        except (OSError, UnicodeError, SyntaxError, LookupError) as error:
            err.write(f"vllm-lint: error: {result.path}: cannot add noqa comments: {error}\n")
            failed += 1
            continue
        for finding in left:
            err.write(
                f"vllm-lint: warning: {result.path}:{finding.span.line}: no noqa comment can silence {finding.code} "
                f"on that line; add `# vllm-lint: noqa: {finding.code}` on a line of its own\n"
            )
    err.write(f"Added {plural(added, 'noqa directive')}.\n")
    return failed
