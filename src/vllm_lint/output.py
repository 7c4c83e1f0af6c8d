"""Report findings: text (flake8/ruff style), concise, full, json (ruff's shape), json-lines,
github, gitlab (Code Climate), junit, pylint, sarif."""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Iterable, TextIO
from urllib.parse import quote

from vllm_lint import __version__
from vllm_lint.columns import cell_width, char_column, source_lines
from vllm_lint.findings import FileError, Finding
from vllm_lint.sources import FileResult
from vllm_lint.style import BOLD, BRIGHT_BLUE, BRIGHT_CYAN, BRIGHT_RED, CYAN, PLAIN, RED, Style

FORMATS = ("text", "concise", "full", "json", "json-lines", "github", "gitlab", "junit", "pylint", "sarif")
# Formats a program reads: reports about fixes go to standard error, beside them.
MACHINE_FORMATS = frozenset({"json", "json-lines", "github", "gitlab", "junit", "pylint", "sarif"})
TAB_WIDTH = 4  # a tab in a source line shown with a caret under it


def _rule_url(code: str) -> str | None:
    from vllm_lint.rules import RULES_BY_CODE

    rule = RULES_BY_CODE.get(code)
    return rule.url if rule else None


def _end(finding: Finding) -> tuple[int, int]:
    span = finding.span
    if span.end_line is not None and span.end_col is not None:
        return span.end_line, span.end_col + 1
    return span.line, span.col + 1


def display_columns(finding: Finding, lines: list[str]) -> tuple[int, int, int]:
    """1-based start column, end row and end column in characters, as ruff reports them.

    Spans count UTF-8 bytes (as Python's ``ast`` does); ``lines`` are the file's lines."""
    span = finding.span
    end_row, end_column = _end(finding)
    start = span.col + 1
    if 0 < span.line <= len(lines):
        start = char_column(lines[span.line - 1], span.col) + 1
    if 0 < end_row <= len(lines):
        end_column = char_column(lines[end_row - 1], end_column - 1) + 1
    return start, end_row, end_column


class Fixes:
    """Which findings have a fix (``fix.plan.Offer`` by ``id`` of the finding), and whether
    unsafe ones apply: findings whose fix ``--fix`` applies are marked ``[*]``."""

    def __init__(self, offers: dict | None = None, unsafe: bool = False) -> None:
        self.offers = offers or {}
        self.unsafe = unsafe

    def offer(self, finding: Finding):
        return self.offers.get(id(finding))

    def applicable(self, finding: Finding) -> bool:
        offer = self.offer(finding)
        return offer is not None and (offer.applicability == "safe" or self.unsafe)

    def hidden(self, finding: Finding) -> bool:
        """The finding has a fix that needs ``--unsafe-fixes``."""
        offer = self.offer(finding)
        return offer is not None and offer.applicability == "unsafe" and not self.unsafe


NO_FIXES = Fixes()


def text_line(finding: Finding, column: int | None = None, fixable: bool = False, style: Style = PLAIN) -> str:
    """``path:row:col: CODE [*] message`` (``[*]``: ``--fix`` fixes it), as ruff's concise output."""
    column = finding.span.col + 1 if column is None else column
    colon = style(":", CYAN)
    mark = f" [{style('*', CYAN)}]" if fixable else ""
    return (
        f"{style(display_path(finding), BOLD)}{colon}{finding.span.line}{colon}{column}{colon} "
        f"{style(finding.code, BOLD, RED)}{mark} {finding.message}"
    )


def _lines_of(result: FileResult) -> list[str]:
    return source_lines(result.source) if result.source is not None else []


def _lines_for(result: FileResult, finding: Finding, lines: list[str]) -> list[str]:
    """The lines a finding's span counts in: its notebook cell's, else the file's (``lines``)."""
    if finding.cell is not None and result.cells:
        return result.cells.get(finding.cell, [])
    return lines


def display_path(finding: Finding) -> str:
    """The finding's file, and in a notebook its cell (``demo.ipynb:cell 3``), as ruff shows them."""
    return f"{finding.path}:cell {finding.cell}" if finding.cell is not None else finding.path


def error_line(error: FileError, style: Style = PLAIN) -> str:
    return f"{style(error.path, BOLD)}{style(':', CYAN)} {error.text}"


def write_text(
    results: list[FileResult], out: TextIO, fmt: str = "text", fixes: Fixes = NO_FIXES, style: Style = PLAIN
) -> None:
    """``concise``: one line per finding; ``text``: with the source and a caret under the
    finding, and its fix; ``full``: also the error vLLM would raise."""
    for result in results:
        if result.error is not None:
            out.write(error_line(result.error, style) + "\n")
        lines = _lines_of(result) if result.findings else []
        for finding in result.findings:
            here = _lines_for(result, finding, lines)
            column = display_columns(finding, here)[0]
            out.write(text_line(finding, column, fixes.applicable(finding), style) + "\n")
            if fmt != "concise":
                out.write(_context(here, finding, fixes, style, explain=fmt == "full"))


def _printable(line: str) -> str:
    """A source line as the terminal should show it: tabs expanded, control characters replaced."""
    line = line.expandtabs(TAB_WIDTH)
    if line.isprintable():
        return line
    return "".join(char if char.isprintable() else "\ufffd" for char in line)


def _context(lines: list[str], finding: Finding, fixes: Fixes, style: Style, explain: bool) -> str:
    """The finding's line between its neighbours, a caret under the finding, the fix, and
    (``explain``) vLLM's error."""
    number = finding.span.line
    text = []
    if 0 < number <= len(lines):
        width = len(str(min(number + 1, len(lines))))
        bar = style("|", BOLD, BRIGHT_BLUE)
        for index in range(max(1, number - 1), min(len(lines), number + 1) + 1):
            line = lines[index - 1]
            text.append(f"  {style(f'{index:>{width}}', BOLD, BRIGHT_BLUE)} {bar} {_printable(line)}".rstrip())
            if index == number:
                start = char_column(line, finding.span.col)
                if finding.span.end_line == number and finding.span.end_col:
                    end = char_column(line, finding.span.end_col)
                else:  # the finding goes on below: underline to the end of this line
                    end = len(line.rstrip())
                pad = cell_width(_printable(line[:start]))
                caret = "^" * max(1, cell_width(_printable(line[:end])) - pad)
                text.append(f"  {'':>{width}} {bar} {' ' * pad}{style(caret + ' ' + finding.code, BOLD, BRIGHT_RED)}")
    note = None
    if explain:
        from vllm_lint.rules import explanation

        note = explanation(finding)
    if note:
        text.append(f"  = {style('note', BOLD)}: {note}")
    offer = finding.fix if finding.fix is not None else fixes.offer(finding)
    if offer is not None:
        text.append(f"  = {style('help', BOLD, BRIGHT_CYAN)}: {offer.message} ({offer.applicability} fix)")
    return "\n".join(text) + "\n\n" if text else ""


def json_records(results: list[FileResult]) -> list[dict]:
    records = []
    for result in results:
        if result.error is not None:
            error = result.error
            records.append(
                {
                    "cell": None,
                    "code": None,
                    "end_location": {"column": error.col + 1, "row": error.line},
                    "filename": os.path.abspath(error.path) if error.path != "-" else "-",
                    "fix": None,
                    "location": {"column": error.col + 1, "row": error.line},
                    "message": error.text,
                    "name": None,
                    "noqa_row": None,
                    "severity": "error",
                    "target_version": None,
                    "target_version_from": None,
                    "url": None,
                    "vllm_error": None,
                }
            )
        lines = _lines_of(result) if result.findings else []
        for finding in result.findings:
            start_column, end_row, end_column = display_columns(finding, _lines_for(result, finding, lines))
            fix = None
            if finding.fix is not None:
                fix = {
                    "applicability": finding.fix.applicability,
                    "message": finding.fix.message,
                    "edits": [
                        {
                            "content": edit.content,
                            "location": {"row": edit.start[0], "column": edit.start[1]},
                            "end_location": {"row": edit.end[0], "column": edit.end[1]},
                        }
                        for edit in finding.fix.edits
                    ],
                }
                if finding.fix.elsewhere:
                    # ruff's edits have no file: edits in another file stay out of "edits"
                    # (a tool would apply them to this one) and are listed with their file here.
                    fix["edits_elsewhere"] = [
                        {
                            "filename": os.path.abspath(path),
                            "content": edit.content,
                            "location": {"row": edit.start[0], "column": edit.start[1]},
                            "end_location": {"row": edit.end[0], "column": edit.end[1]},
                        }
                        for path, edits in finding.fix.elsewhere.items()
                        for edit in edits
                    ]
            records.append(
                {
                    "cell": finding.cell,
                    "code": finding.code,
                    "end_location": {"column": end_column, "row": end_row},
                    "filename": os.path.abspath(finding.path) if finding.path != "-" else "-",
                    "fix": fix,
                    "location": {"column": start_column, "row": finding.span.line},
                    "message": finding.message,
                    "name": finding.name,
                    "noqa_row": finding.span.line,
                    "severity": "error",
                    # Not in ruff's shape: the release checked against and where it is written
                    # ("" when nothing names it: the newest release stood in).
                    "target_version": finding.target_version or None,
                    "target_version_from": finding.target_version_from or None,
                    "url": _rule_url(finding.code),
                    # Not in ruff's shape: the error vLLM would raise, verbatim.
                    "vllm_error": finding.vllm_error,
                }
            )
    return records


def write_json(results: list[FileResult], out: TextIO) -> None:
    json.dump(json_records(results), out, indent=2, sort_keys=True)
    out.write("\n")


def _github_escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    return _github_escape(text).replace(":", "%3A").replace(",", "%2C")


def write_github(results: list[FileResult], out: TextIO) -> None:
    for result in results:
        if result.error is not None:
            error = result.error
            out.write(
                f"::error title=vllm-lint,file={_github_property(error.path)},line={error.line},"
                f"col={error.col + 1}::{_github_escape(error_line(error))}\n"
            )
        lines = _lines_of(result) if result.findings else []
        for finding in result.findings:
            start_column, end_row, end_column = display_columns(finding, _lines_for(result, finding, lines))
            out.write(
                f"::error title=vllm-lint ({finding.code}),file={_github_property(finding.path)},"
                f"line={finding.span.line},col={start_column},endLine={end_row},endColumn={end_column}"
                f"::{_github_escape(text_line(finding, start_column))}\n"
            )


def sarif_document(results: list[FileResult]) -> dict:
    from vllm_lint.rules import ALL_RULES

    rules = [
        {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.section("What it does")},
            "help": {"text": rule.documentation, "markdown": rule.documentation},
            "helpUri": rule.url,
            "properties": {"vLLM versions": str(rule.versions)},
        }
        for rule in ALL_RULES
    ]
    index = {rule.code: i for i, rule in enumerate(ALL_RULES)}
    sarif_results = []
    notifications = []
    for result in results:
        uri = quote(result.path.replace(os.sep, "/"))
        lines = source_lines(result.source) if result.source is not None else []
        if result.error is not None:
            notifications.append(
                {
                    "level": "error",
                    "message": {"text": result.error.text},
                    "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri}}}],
                }
            )
        for finding in result.findings:
            start_column, end_row, end_column = display_columns(finding, _lines_for(result, finding, lines))
            sarif_results.append(
                {
                    "ruleId": finding.code,
                    "ruleIndex": index[finding.code],
                    "level": "error",
                    "message": {"text": finding.text},
                    "properties": {"target_version": finding.target_version, "target_version_from": finding.target_version_from},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {"uri": uri},
                                "region": {
                                    "startLine": finding.span.line,
                                    "startColumn": start_column,
                                    "endLine": end_row,
                                    "endColumn": end_column,
                                },
                            }
                        }
                    ],
                }
            )
    run = {
        "tool": {
            "driver": {
                "name": "vllm-lint",
                "version": __version__,
                "informationUri": "https://github.com/vllm-lint/vllm-lint",
                "rules": rules,
            }
        },
        "results": sarif_results,
        "columnKind": "unicodeCodePoints",
    }
    if notifications:
        run["invocations"] = [{"executionSuccessful": True, "toolExecutionNotifications": notifications}]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }


def write_sarif(results: list[FileResult], out: TextIO) -> None:
    json.dump(sarif_document(results), out, indent=2)
    out.write("\n")


def statistics(results: list[FileResult], fixes: Fixes = NO_FIXES) -> list[dict]:
    """Findings counted per rule, most frequent first, in ruff's shape; files that cannot be
    parsed count as one row without a code."""
    from vllm_lint.rules import RULES_BY_CODE

    counts: Counter = Counter()
    fixable: Counter = Counter()
    for result in results:
        for finding in result.findings:
            counts[finding.code] += 1
            fixable[finding.code] += fixes.applicable(finding)
    rows = [
        {
            "code": code,
            "name": RULES_BY_CODE[code].name if code in RULES_BY_CODE else code,
            "count": count,
            "fixable": fixable[code] > 0,
            "fixable_count": fixable[code],
        }
        for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    ]
    errors = sum(1 for r in results if r.error is not None)
    if errors:
        rows.append({"code": None, "name": "cannot-parse", "count": errors, "fixable": False, "fixable_count": 0})
    return rows


def write_statistics(results: list[FileResult], out: TextIO, fmt: str = "text", fixes: Fixes = NO_FIXES, style: Style = PLAIN) -> None:
    """``--statistics``: JSON for ``json``, a table otherwise (``count  code  [*] name``)."""
    rows = statistics(results, fixes)
    if fmt == "json":
        json.dump(rows, out, indent=2)
        out.write("\n")
        return
    if not rows:
        return
    count_width = max(len(str(row["count"])) for row in rows)
    code_width = max(len(row["code"] or "") for row in rows)
    for row in rows:
        mark = f"[{style('*', CYAN)}]" if row["fixable"] else "[ ]"
        code = style(f"{row['code'] or '':<{code_width}}", BOLD, RED)
        out.write(f"{row['count']:>{count_width}}\t{code}\t{mark} {row['name']}\n")


def write_json_lines(results: list[FileResult], out: TextIO) -> None:
    """One JSON object a line, the records of ``json`` (ruff's ``json-lines``)."""
    for record in json_records(results):
        out.write(json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n")


def write_pylint(results: list[FileResult], out: TextIO) -> None:
    """``path:line: [CODE] message``, as pylint's ``parseable`` output (and ruff's ``pylint``),
    which CI parsers of pylint reports read."""
    for result in results:
        if result.error is not None:
            out.write(f"{result.error.path}:{result.error.line}: [cannot-parse] {result.error.text}\n")
        for finding in result.findings:
            out.write(f"{display_path(finding)}:{finding.span.line}: [{finding.code}] {finding.message}\n")


def gitlab_records(results: list[FileResult], project_dir: str | None = None) -> list[dict]:
    """GitLab's code quality report (the Code Climate subset GitLab reads): paths relative to the
    project (``CI_PROJECT_DIR``, else the working directory), a fingerprint that stays the same
    while the finding does (its code, file, message and source line, not its line number)."""
    import hashlib

    base = os.path.realpath(project_dir or os.environ.get("CI_PROJECT_DIR") or os.getcwd())
    records: list[dict] = []
    seen: Counter = Counter()

    def relative(path: str) -> str:
        if path == "-":
            return path
        real = os.path.realpath(path)
        inside = os.path.commonpath([base, real]) == base if os.path.isabs(real) else False
        return (os.path.relpath(real, base) if inside else real).replace(os.sep, "/")

    def fingerprint(*parts: str) -> str:
        key = "\0".join(parts)
        seen[key] += 1  # identical findings in one file stay distinct
        return hashlib.md5(f"{key}\0{seen[key]}".encode("utf-8"), usedforsecurity=False).hexdigest()

    for result in results:
        path = relative(result.path)
        if result.error is not None:
            error = result.error
            records.append(
                {
                    "check_name": "cannot-parse",
                    "description": error.text,
                    "fingerprint": fingerprint("cannot-parse", path, error.text),
                    "severity": "critical",
                    "location": {"path": path, "lines": {"begin": error.line, "end": error.line}},
                }
            )
        lines = _lines_of(result) if result.findings else []
        for finding in result.findings:
            start_column, end_row, end_column = display_columns(finding, _lines_for(result, finding, lines))
            here = _lines_for(result, finding, lines)
            line_text = here[finding.span.line - 1].strip() if 0 < finding.span.line <= len(here) else ""
            records.append(
                {
                    "check_name": finding.code,
                    "description": f"{finding.code}: {finding.message}",
                    "fingerprint": fingerprint(finding.code, path, finding.message, line_text),
                    "severity": "major",
                    "location": {
                        "path": path,
                        "positions": {
                            "begin": {"line": finding.span.line, "column": start_column},
                            "end": {"line": end_row, "column": end_column},
                        },
                    },
                }
            )
    return records


def write_gitlab(results: list[FileResult], out: TextIO) -> None:
    json.dump(gitlab_records(results), out, indent=2, ensure_ascii=False)
    out.write("\n")


def junit_document(results: list[FileResult]) -> str:
    """JUnit XML, as CI systems read test reports: one test suite a file with findings, one
    failing test case a finding (an unreadable file: a test case with an error); a run with
    nothing found is one passing test case."""
    from xml.etree import ElementTree

    suites = ElementTree.Element("testsuites", name="vllm-lint")
    total = failures = errors = 0
    for result in results:
        if result.error is None and not result.findings:
            continue
        suite = ElementTree.SubElement(suites, "testsuite", name=result.path, package="vllm-lint")
        cases = 0
        if result.error is not None:
            error = result.error
            case = ElementTree.SubElement(suite, "testcase", name="cannot-parse", classname=result.path, line=str(error.line))
            element = ElementTree.SubElement(case, "error", message=error.text)
            element.text = f"line {error.line}, col {error.col + 1}, {error.text}"
            cases += 1
            errors += 1
        lines = _lines_of(result) if result.findings else []
        for finding in result.findings:
            column = display_columns(finding, _lines_for(result, finding, lines))[0]
            case = ElementTree.SubElement(
                suite,
                "testcase",
                name=f"vllm-lint.{finding.code}",
                classname=result.path,
                line=str(finding.span.line),
                column=str(column),
            )
            element = ElementTree.SubElement(case, "failure", message=finding.message, type=finding.code)
            element.text = f"line {finding.span.line}, col {column}, {finding.code} {finding.message}"
            cases += 1
            failures += 1
        suite.set("tests", str(cases))
        suite.set("failures", str(cases - (result.error is not None)))
        suite.set("errors", str(int(result.error is not None)))
        total += cases
    if total == 0:
        suite = ElementTree.SubElement(suites, "testsuite", name="vllm-lint", tests="1", failures="0", errors="0")
        ElementTree.SubElement(suite, "testcase", name="No errors found", classname="vllm-lint")
        total = 1
    suites.set("tests", str(total))
    suites.set("failures", str(failures))
    suites.set("errors", str(errors))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(suites, encoding="unicode")


def write_junit(results: list[FileResult], out: TextIO) -> None:
    out.write(junit_document(results) + "\n")


def write(results: list[FileResult], fmt: str, out: TextIO, fixes: Fixes = NO_FIXES, style: Style = PLAIN) -> None:
    if fmt in ("text", "concise", "full"):
        write_text(results, out, fmt, fixes, style)
        return
    writers = {
        "json": write_json,
        "json-lines": write_json_lines,
        "github": write_github,
        "gitlab": write_gitlab,
        "junit": write_junit,
        "pylint": write_pylint,
        "sarif": write_sarif,
    }
    if fmt not in writers:  # pragma: no cover - argparse restricts the choices
        raise ValueError(fmt)
    writers[fmt](results, out)


def plural(count: int, word: str) -> str:
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word}es" if word.endswith(("x", "s")) else f"{count} {word}s"


def summary(results: Iterable[FileResult], fixes: Fixes = NO_FIXES, style: Style = PLAIN) -> str:
    """What was found, and what ``--fix`` (and ``--unsafe-fixes``) would fix, in ruff's words."""
    results = list(results)
    findings = [f for r in results for f in r.findings]
    errors = sum(1 for r in results if r.error is not None)
    parts = []
    if findings:
        parts.append(f"Found {plural(len(findings), 'error')}.")
    if errors:
        parts.append(f"{plural(errors, 'file')} could not be parsed.")
    text = " ".join(parts) if parts else "All checks passed!"
    return text + fix_summary(findings, fixes, style)


def fix_summary(findings: list[Finding], fixes: Fixes, style: Style = PLAIN) -> str:
    """``[*] N fixable with the `--fix` option (M hidden fixes ...)`` on a line of its own, or nothing."""
    fixable = sum(1 for f in findings if fixes.applicable(f))
    hidden = sum(1 for f in findings if fixes.hidden(f))
    unsafe = f"{plural(hidden, 'hidden fix')} can be enabled with the `--unsafe-fixes` option"
    if fixable:
        line = f"[{style('*', CYAN)}] {fixable} fixable with the `--fix` option"
        return f"\n{line} ({unsafe})." if hidden else f"\n{line}."
    if hidden:
        return f"\nNo fixes available ({unsafe})."
    return ""
