"""``vllm-lint explain PATH[:LINE]``: the configuration each engine in a file gets, and where each value comes from.

For every engine construction (Python), server launch (shell script, Dockerfile,
YAML, vLLM ``--config`` file) or RL framework config, and the target release
chosen as ``check`` chooses it, it lists every replay-relevant setting and every
argument written anywhere, each in one of three states:

* ``known``: the value, where it was written, and the way it travelled
  (``dict entry at train.py:3, splatted at train.py:4``);
* ``default``: nothing sets it; vLLM's default for the release (or the
  framework's, for a framework config), or a plain "not known" where the
  default is not known to vllm-lint;
* ``unknown``: why (``from a parameter of make_engine``, ``unresolved **kwargs``,
  ``runtime data: args.x``).

A value that differs between the paths the code can take is a ``choice`` of
its alternatives.  Each engine also shows the model runner vLLM would pick and
the findings ``check`` reports on it.

The resolvers record the way a value travels only while this command runs
(``facts.Trace``); ``check`` never loads this module.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from vllm_lint.explain.report import EngineReport, Where, render
from vllm_lint.facts import Trace

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class ExplainError(Exception):
    """A usage error: one line, exit code 2."""


@dataclass
class Target:
    path: str
    line: int | None = None


def parse_target(text: str) -> Target:
    """``PATH`` or ``PATH:LINE`` (a file whose own name ends in ``:N`` wins)."""
    if os.path.exists(text):
        return Target(text)
    head, sep, tail = text.rpartition(":")
    if sep and head and tail.isdigit():
        line = int(tail)
        if line < 1:
            raise ExplainError(f"line numbers start at 1, got {text!r}")
        return Target(head, line)
    return Target(text)



# ------------------------------------------------------------ one file


def explain_file(target: Target, resolver, settings) -> tuple[list[EngineReport], object]:
    """The reports of a file's engines, and the lint result ``check`` gets for it."""
    from vllm_lint.lint import file_kind, lint_file
    from vllm_lint.settings import select_findings

    path = target.path
    result = lint_file(path, resolver.for_path)
    select_findings([result], settings)
    if result.error is not None:
        return [], result
    kind = result.kind or file_kind(path)
    reported = {(f.code, f.span.line, f.span.col) for f in result.findings}
    version, why = resolver.for_path(path)
    where = Where(path)
    if kind == "python":
        from vllm_lint.explain.python import python_reports
        from vllm_lint.facts import reading
        from vllm_lint.python.built_images import target_of_file

        target_of_path = target_of_file(resolver.for_path, path)
        version, why = target_of_path
        with reading(target_of_path):
            reports = python_reports(path, result, version, where, reported, why)
        _character_columns(reports, path, result.source)
    elif kind is not None:
        from vllm_lint.explain.commands import command_reports

        reports = command_reports(path, kind, result, resolver, where, reported)
    else:
        reports = []
    for report in reports:
        if not report.target_version_from:
            report.target_version_from = why
    return reports, result




def _character_columns(reports: list[EngineReport], path: str, source: str | None) -> None:
    """Python positions count UTF-8 bytes (as ``ast`` does); the report counts characters, as
    ``check`` prints them.  Positions in other kinds of file already count characters."""
    from vllm_lint.columns import char_column, source_lines

    texts: dict[str, list[str] | None] = {}

    def lines_of(file: str) -> list[str] | None:
        if file not in texts:
            text = source if os.path.abspath(file) == os.path.abspath(path) else None
            if text is None:
                try:
                    with open(file, encoding="utf-8-sig") as handle:
                        text = handle.read()
                except (OSError, UnicodeDecodeError):
                    text = None
            texts[file] = source_lines(text) if text is not None else None
        return texts[file]

    def convert(value) -> None:
        if isinstance(value, dict):
            where, line, col = value.get("path"), value.get("line"), value.get("col")
            if isinstance(where, str) and where.endswith(".py") and isinstance(line, int) and isinstance(col, int):
                lines = lines_of(where)
                if lines is not None and 0 < line <= len(lines):
                    value["col"] = char_column(lines[line - 1], col - 1) + 1
            for item in value.values():
                convert(item)
        elif isinstance(value, list):
            for item in value:
                convert(item)

    for report in reports:
        for part in (report.settings, report.env, report.requests, report.built_at, report.called_from):
            convert(part)


# ------------------------------------------------------------------- command


def run_explain(args, out, err) -> int:
    from vllm_lint.config import ConfigError
    from vllm_lint.output import error_line
    from vllm_lint.settings import settings_for

    try:
        target = parse_target(args.target)
    except ExplainError as error:
        err.write(f"vllm-lint: error: {error}\n")
        return EXIT_ERROR
    if os.path.isdir(target.path):
        err.write(f"vllm-lint: error: {target.path}: explain reads one file, not a folder\n")
        return EXIT_ERROR
    try:
        settings, _excludes, resolver = settings_for([target.path], config=args.config, target_version=args.target_version)
    except ConfigError as error:
        err.write(f"vllm-lint: error: {error}\n")
        return EXIT_ERROR
    def cannot_read(error) -> int:
        """One diagnostic on standard error; JSON output still gets its object, with no engine."""
        line = error_line(error)
        err.write(line + "\n")
        if args.output_format == "json":
            out.write(json.dumps({"engines": [], "message": line}, indent=2, ensure_ascii=False) + "\n")
        return EXIT_FINDINGS

    from vllm_lint.findings import FileError

    if not (os.path.exists(target.path) or os.path.islink(target.path)):
        return cannot_read(FileError(target.path, "cannot read: no such file or directory"))
    previous = Trace.active
    Trace.active = True
    try:
        reports, result = explain_file(target, resolver, settings)
    except (RecursionError, MemoryError):
        return cannot_read(FileError(target.path, "too deeply nested to analyse"))
    finally:
        Trace.active = previous
    if result.error is not None:
        return cannot_read(result.error)
    if target.line is not None:
        reports = [r for r in reports if r.covers(target.line)]
        if not reports:
            message = f"{target.path}:{target.line}: no engine is constructed or launched on this line"
            if args.output_format == "json":
                out.write(json.dumps({"engines": [], "message": message}, indent=2) + "\n")
            else:
                out.write(message + "\n")
            return EXIT_FINDINGS
    if args.output_format == "json":
        out.write(json.dumps({"engines": [r.as_json() for r in reports]}, indent=2, ensure_ascii=False) + "\n")
    elif not reports:
        out.write(f"{target.path}: no vLLM engine is constructed or launched in this file\n")
    else:
        out.write("\n".join(render(report) for report in reports))
    return EXIT_CLEAN

