"""Report findings: text (flake8/ruff style), concise, full, json (ruff's shape), github, sarif."""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Iterable, TextIO
from urllib.parse import quote

from vllm_lint import __version__
from vllm_lint.columns import char_column, source_lines
from vllm_lint.findings import FileError, Finding
from vllm_lint.sources import FileResult

FORMATS = ("text", "concise", "full", "json", "github", "sarif")


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


def text_line(finding: Finding, column: int | None = None) -> str:
    column = finding.span.col + 1 if column is None else column
    return f"{finding.path}:{finding.span.line}:{column}: {finding.text}"


def _lines_of(result: FileResult) -> list[str]:
    return source_lines(result.source) if result.source is not None else []


def error_line(error: FileError) -> str:
    return f"{error.path}: {error.text}"


def write_text(results: list[FileResult], out: TextIO, full: bool = False) -> None:
    for result in results:
        if result.error is not None:
            out.write(error_line(result.error) + "\n")
        lines = _lines_of(result) if result.findings else []
        for finding in result.findings:
            out.write(text_line(finding, display_columns(finding, lines)[0]) + "\n")
            if full and result.source is not None:
                out.write(_context(result.source, finding))


def _context(source: str, finding: Finding) -> str:
    lines = source_lines(source)
    number = finding.span.line
    if not 0 < number <= len(lines):
        return ""
    width = len(str(min(number + 1, len(lines))))
    text = []
    for index in range(max(1, number - 1), min(len(lines), number + 1) + 1):
        text.append(f"  {index:>{width}} | {lines[index - 1]}")
        if index == number:
            line = lines[index - 1]
            start = char_column(line, finding.span.col)
            end = (
                char_column(line, finding.span.end_col)
                if finding.span.end_line == number and finding.span.end_col
                else len(line.rstrip())
            )
            caret = "^" * max(1, end - start)
            text.append(f"  {'':>{width}} | {' ' * start}{caret} {finding.code}")
    fix = finding.fix
    if fix is not None:
        text.append(f"  = help: {fix.message} ({fix.applicability} fix)")
    return "\n".join(text) + "\n\n"


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
                    "noqa_row": None,
                    "url": None,
                }
            )
        lines = _lines_of(result) if result.findings else []
        for finding in result.findings:
            start_column, end_row, end_column = display_columns(finding, lines)
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
            records.append(
                {
                    "cell": None,
                    "code": finding.code,
                    "end_location": {"column": end_column, "row": end_row},
                    "filename": os.path.abspath(finding.path) if finding.path != "-" else "-",
                    "fix": fix,
                    "location": {"column": start_column, "row": finding.span.line},
                    "message": finding.message,
                    "noqa_row": finding.span.line,
                    "url": _rule_url(finding.code),
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
            start_column, end_row, end_column = display_columns(finding, lines)
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
            "help": {"text": rule.doc, "markdown": rule.doc},
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
            start_column, end_row, end_column = display_columns(finding, lines)
            sarif_results.append(
                {
                    "ruleId": finding.code,
                    "ruleIndex": index[finding.code],
                    "level": "error",
                    "message": {"text": finding.text},
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


def write_statistics(results: list[FileResult], out: TextIO) -> None:
    from vllm_lint.rules import RULES_BY_CODE

    counts = Counter(f.code for r in results for f in r.findings)
    errors = sum(1 for r in results if r.error is not None)
    for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        out.write(f"{count:5d}\t{code}\t{RULES_BY_CODE[code].name}\n")
    if errors:
        out.write(f"{errors:5d}\t\tfiles that cannot be parsed\n")


def write(results: list[FileResult], fmt: str, out: TextIO) -> None:
    if fmt in ("text", "concise"):
        write_text(results, out)
    elif fmt == "full":
        write_text(results, out, full=True)
    elif fmt == "json":
        write_json(results, out)
    elif fmt == "github":
        write_github(results, out)
    elif fmt == "sarif":
        write_sarif(results, out)
    else:  # pragma: no cover - argparse restricts the choices
        raise ValueError(fmt)


def summary(results: Iterable[FileResult]) -> str:
    results = list(results)
    findings = sum(len(r.findings) for r in results)
    errors = sum(1 for r in results if r.error is not None)
    parts = []
    if findings:
        parts.append(f"Found {findings} error{'s' if findings != 1 else ''}.")
    if errors:
        parts.append(f"{errors} file{'s' if errors != 1 else ''} could not be parsed.")
    return " ".join(parts) if parts else "All checks passed!"
