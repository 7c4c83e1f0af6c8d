"""Lint one file: read it, pick its front end, analyse, apply ``# noqa``.

Nothing here imports libcst, astroid or YAML: those load only when a file
needs them.
"""

from __future__ import annotations

import ast

from vllm_lint.checker import describe_release
from vllm_lint.facts import reading
from vllm_lint.findings import FileError, Finding
from vllm_lint.noqa import NoqaReport, may_have_directives
from vllm_lint.sources import FileResult, decode_python, not_analysable, read_file
from vllm_lint.versions import Version


def python_kind(path: str) -> bool:
    return path.endswith((".py", ".pyi"))


def _describe_decode_error(error: Exception) -> str:
    if isinstance(error, UnicodeDecodeError):
        return f"invalid {error.encoding} bytes at offset {error.start}"
    return str(error)


def parse_python(source: str, path: str) -> ast.Module:
    return ast.parse(source, filename=path)


def analyze_python_source(source: str, path: str, version: Version, version_source: str = "") -> list[Finding]:
    """Findings of a decoded Python source, before ``# noqa`` and selection."""
    from vllm_lint.python import analyze_tree, could_find

    tree = parse_python(source, path)
    if not could_find(tree, path, source):
        return []  # nothing in the module reaches an engine, a request or a launch
    return analyze_tree(tree, version, path, version_source)


def syntax_error_reason(error: SyntaxError) -> str:
    where = f" (line {error.lineno})" if error.lineno else ""
    return f"syntax error: {error.msg}{where}"


def lint_python_bytes(path: str, data: bytes, version_for, noqa: bool = True, size_limit: bool = True) -> FileResult:
    """``size_limit=False``: analyse a file of any size (a host that has parsed it already)."""
    from vllm_lint.python import needs_analysis

    result = FileResult(path, kind="python")
    if not needs_analysis(data, path):
        return result
    result.error = not_analysable(path, data, size_limit)
    if result.error is not None:
        return result
    try:
        source = decode_python(data)
    except (UnicodeDecodeError, SyntaxError, LookupError) as error:
        result.error = FileError(path, _describe_decode_error(error))
        return result
    return _lint_python_text(result, source, version_for, noqa)


def lint_python_source(path: str, source: str, version_for) -> FileResult:
    """Lint Python text that is not a file of its own (a notebook's code cells), prefilter first."""
    from vllm_lint.python import needs_analysis

    result = FileResult(path, kind="python")
    data = source.encode("utf-8")
    if not needs_analysis(data, path):
        return result
    result.error = not_analysable(path, data)
    if result.error is not None:
        return result
    return _lint_python_text(result, source, version_for, True)


def _lint_python_text(result: FileResult, source: str, version_for, noqa: bool) -> FileResult:
    path = result.path
    result.source = source
    result.newline = "\r\n" if "\r\n" in source[:10000] else "\n"
    from vllm_lint.python.built_images import with_built_images

    target = with_built_images(version_for(path), source, path)
    version, version_source = target
    try:
        with reading(target):
            findings = analyze_python_source(source, path, version, version_source)
    except SyntaxError as error:
        result.error = FileError(path, syntax_error_reason(error), error.lineno or 1, max((error.offset or 1) - 1, 0))
        return result
    except (RecursionError, MemoryError):
        result.error = FileError(path, "too deeply nested to analyse")
        return result
    except ValueError as error:  # e.g. NUL bytes after decoding
        result.error = FileError(path, str(error))
        return result
    for finding in findings:
        finding.path = path
    describe_release(findings, version, getattr(target, "origin", ""), path, say=not getattr(target, "explicit", False))
    if noqa and (findings or may_have_directives(source)):
        findings, result.noqa = python_noqa(findings, source)
    result.findings = findings
    return result


def python_noqa(findings: list[Finding], source: str) -> tuple[list[Finding], NoqaReport]:
    """The findings no directive silences, and a report of the directives."""
    from vllm_lint.noqa import python_suppressions

    return python_suppressions(source).split(findings)


def apply_python_noqa(findings: list[Finding], source: str) -> list[Finding]:
    return python_noqa(findings, source)[0]


def read_directives(result: FileResult) -> None:
    """Read the noqa directives of a file the linter skipped unanalysed (no finding can be
    in it), for the unused-noqa rule: they may all be unused."""
    if result.error is not None or result.noqa is not None or result.kind in (None, "notebook"):
        return
    if result.source is not None:
        source = result.source
    else:
        try:
            data = read_file(result.path)
        except (OSError, MemoryError):
            return
        if not may_have_directives(data) or b"\0" in data:
            return
        try:
            source = decode_python(data) if result.kind == "python" else data.decode("utf-8").removeprefix("\ufeff")
        except (UnicodeDecodeError, SyntaxError, LookupError):
            return
    if not may_have_directives(source):
        return
    from vllm_lint.noqa import line_suppressions, python_suppressions

    suppressions = python_suppressions(source) if result.kind == "python" else line_suppressions(source.splitlines())
    _, report = suppressions.split([])
    if report.directives:
        result.source, result.noqa = source, report


def lint_file(path: str, version_for, kind: str | None = None) -> FileResult:
    """Lint one file of any kind the linter reads."""
    try:
        data = read_file(path)
    except (OSError, MemoryError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        return FileResult(path, error=FileError(path, f"cannot read: {reason}"))
    return lint_bytes(path, data, version_for, kind or file_kind(path, data))


def lint_bytes(path: str, data: bytes, version_for, kind: str | None) -> FileResult:
    """Lint the contents of a file with the front end of ``kind``."""
    if kind == "python":
        return lint_python_bytes(path, data, version_for)
    if kind == "notebook":
        return lint_notebook_bytes(path, data, version_for)
    if kind is None:
        return FileResult(path)
    from vllm_lint.commandline import lint_command_file

    return lint_command_file(path, data, kind, version_for)


def lint_notebook_bytes(path: str, data: bytes, version_for) -> FileResult:
    """Lint a notebook's code cells; findings carry their cell and are placed within it."""
    from dataclasses import replace

    from vllm_lint.notebook import NotebookError, cell_position, read_cells

    try:
        cells = read_cells(data)
    except NotebookError as error:
        return FileResult(path, error=FileError(path, str(error)), kind="notebook")
    result = lint_python_source(path, cells.source, version_for)
    result.kind = "notebook"
    result.cells = cells.texts
    if result.error is not None and result.error.line:
        error = result.error
        if error.reason.startswith("syntax error") and cells.starts:
            number, line = cell_position(cells, error.line)
            error.reason = error.reason.replace(f"(line {error.line})", f"(cell {number}, line {line})")
            error.line = line
    placed = []
    for finding in result.findings:
        span = finding.span
        number, line = cell_position(cells, span.line)
        shift = line - span.line
        end_line = span.end_line + shift if span.end_line is not None else None
        placed.append(replace(finding, span=replace(span, line=line, end_line=end_line), cell=number, fix_action=None, fix_safety=None, fix=None))
    result.findings = placed
    result.noqa = None  # unused-noqa findings would be placed in the joined module: not reported in notebooks
    return result


def file_kind(path: str, data: bytes | None = None) -> str | None:
    """Which front end reads a file, or None."""
    if python_kind(path):
        return "python"
    if path.endswith(".ipynb"):
        return "notebook"
    try:
        from vllm_lint.commandline.kinds import command_file_kind
    except ImportError:
        return None
    return command_file_kind(path, data)
