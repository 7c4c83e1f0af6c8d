"""What the language server knows about a document: its findings and the edits that fix them.

Nothing here imports pygls or lsprotocol: a document is linted from its
unsaved text as ``vllm-lint check --stdin-filename PATH -`` lints it, with the
settings ``check PATH`` would use (the nearest ``[tool.vllm-lint]``, then the
editor's options, as command-line options), and the fixes are computed by the
machinery of ``--fix`` and ``--add-noqa``.  Positions are converted to the
editor's units (UTF-16 code units unless it asks for another encoding) here,
so the protocol layer only translates plain data into messages.
"""

from __future__ import annotations

import bisect
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

SOURCE = "vllm-lint"
FIX_ALL_KIND = "source.fixAll.vllm-lint"
UNUSED_NOQA = "VLM901"  # rules.unused_noqa.CODE: its fix removes comments, it is never silenced by one
_LINE_BREAK = re.compile(r"\r\n|\r|\n")

# The editor's language of a document whose name does not tell its kind (an unsaved buffer).
LANGUAGE_KINDS = {
    "python": "python",
    "shellscript": "shell",
    "sh": "shell",
    "bash": "shell",
    "dockerfile": "dockerfile",
    "yaml": "yaml",
    "toml": "toml",
}


# ------------------------------------------------------------------ options


@dataclass
class Options:
    """The editor's settings (``initializationOptions``), named as the command-line options."""

    target_version: str | None = None
    select: list[str] = field(default_factory=list)
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    extend_ignore: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    force_exclude: bool = False
    config: str | None = None
    fix_mode: str = "keep-replay"
    debounce: float = 0.2  # seconds of quiet typing before a changed document is checked again

    @classmethod
    def from_client(cls, raw: object) -> Options:
        """Options from ``initializationOptions``; keys in camelCase (``targetVersion``) or
        as the command line spells them (``target-version``).  Unknown keys are ignored."""
        options = cls()
        if not isinstance(raw, dict):
            return options
        settings = raw.get("settings", raw) if isinstance(raw.get("settings"), dict) else raw
        values = {_key(name): value for name, value in settings.items()}

        def text(name: str) -> str | None:
            value = values.get(name)
            return value if isinstance(value, str) and value.strip() else None

        def codes(name: str) -> list[str]:
            value = values.get(name)
            if isinstance(value, str):
                return [value]
            return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []

        options.target_version = text("target_version")
        options.select = codes("select")
        options.extend_select = codes("extend_select")
        options.ignore = codes("ignore")
        options.extend_ignore = codes("extend_ignore")
        options.exclude = codes("exclude")
        options.force_exclude = values.get("force_exclude") is True
        options.config = text("config")
        if values.get("fix_mode") in ("keep-replay", "disable-replay"):
            options.fix_mode = values["fix_mode"]
        debounce = values.get("debounce_ms")
        if isinstance(debounce, (int, float)) and not isinstance(debounce, bool) and 0 <= debounce <= 10_000:
            options.debounce = debounce / 1000
        return options


def _key(name: str) -> str:
    """``targetVersion`` and ``target-version`` both become ``target_version``."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", str(name)).replace("-", "_").lower()


# ------------------------------------------------------------------ positions


class Lines:
    """Offsets into a text and the editor's (line, character) positions.

    Lines end at ``\\r\\n``, ``\\r`` or ``\\n``, as the protocol says; characters
    are counted in the code units of ``encoding`` (``utf-16``, ``utf-8`` or ``utf-32``).
    """

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.encoding = encoding
        self.starts = [0] + [match.end() for match in _LINE_BREAK.finditer(text)]

    def line_text(self, index: int) -> str:
        """The 0-based line ``index`` without its line break."""
        if not 0 <= index < len(self.starts):
            return ""
        end = self.starts[index + 1] if index + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[index] : end].rstrip("\r\n")

    def units(self, text: str) -> int:
        """How many code units of the editor's encoding ``text`` takes."""
        if self.encoding == "utf-8":
            return len(text.encode("utf-8", "surrogatepass"))
        if self.encoding == "utf-32" or text.isascii():
            return len(text)
        return len(text.encode("utf-16-le", "surrogatepass")) // 2

    def position(self, offset: int) -> tuple[int, int]:
        """The (line, character) of a character offset."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        return line, self.units(self.text[self.starts[line] : offset])

    def byte_column(self, line: int, byte_col: int) -> int:
        """The character offset of a 1-based line and a UTF-8 byte column (as ``ast`` counts)."""
        from vllm_lint.columns import char_column

        index = min(max(line - 1, 0), len(self.starts) - 1)
        text = self.line_text(index)
        return self.starts[index] + min(char_column(text, max(byte_col, 0)), len(text))

    def edit_offset(self, row: int, column: int) -> int:
        """The offset of an ``Edit`` position: 1-based row (rows end at ``\\n``) and character column."""
        start = 0
        for _ in range(row - 1):
            found = self.text.find("\n", start)
            if found == -1:
                return len(self.text)
            start = found + 1
        return min(start + column - 1, len(self.text))


Range = tuple[tuple[int, int], tuple[int, int]]  # ((line, character), (line, character)), 0-based


@dataclass
class TextEdit:
    range: Range
    new_text: str


@dataclass
class Diagnostic:
    range: Range
    message: str
    code: str | None = None
    href: str | None = None


@dataclass
class Action:
    """A code action: its title, kind, and the edits it makes, by file path."""

    title: str
    kind: str
    edits: dict[str, list[TextEdit]]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    preferred: bool = False


def edit_between(old: str, new: str, encoding: str) -> TextEdit:
    """The one edit that turns ``old`` into ``new`` (the differing middle), in editor positions."""
    from vllm_lint.fix.python import edit_between as middle

    edit = middle(old, new)
    lines = Lines(old, encoding)
    start = lines.edit_offset(*edit.start)
    end = lines.edit_offset(*edit.end)
    return TextEdit((lines.position(start), lines.position(end)), edit.content)


# ------------------------------------------------------------------ linting


class ConfigProblem(Exception):
    """The project's configuration cannot be read: the document gets one diagnostic saying so."""


@dataclass
class Context:
    """The settings for one document, as ``vllm-lint check PATH`` would read them."""

    settings: object  # config.Settings
    excludes: list[str]
    resolver: object  # config.VersionResolver
    options: Options

    @classmethod
    def for_path(cls, path: str | None, options: Options, workspace: str | None = None) -> Context:
        from vllm_lint.config import ConfigError
        from vllm_lint.settings import settings_for

        start = _existing(path) or workspace or "."
        try:
            settings, excludes, resolver = settings_for(
                [start],
                config=options.config,
                target_version=options.target_version,
                select=options.select or None,
                extend_select=options.extend_select,
                ignore=options.ignore,
                extend_ignore=options.extend_ignore,
                exclude=options.exclude,
            )
        except ConfigError as error:
            raise ConfigProblem(str(error)) from error
        return cls(settings, excludes, resolver, options)

    def excluded(self, path: str) -> bool:
        """Excluded as ``check --force-exclude`` would exclude the file named on its command line."""
        if not self.options.force_exclude:
            return False
        from vllm_lint.excludes import is_excluded

        relative = os.path.relpath(path, self.settings.root)
        return is_excluded(path if relative.startswith("..") else relative, self.excludes, real=path)


def _existing(path: str | None) -> str | None:
    """The file, or the nearest folder above it that exists (an unsaved new file has none)."""
    if path is None:
        return None
    candidate = Path(path)
    for place in [candidate, *candidate.parents]:
        if place.exists():
            return str(place)
    return None


def document_kind(path: str, data: bytes, language: str | None) -> str | None:
    """The front end for a document: by its name as ``check`` chooses; for a name that says
    nothing (an unsaved buffer, a script without an extension), by the editor's language."""
    from vllm_lint.lint import file_kind

    kind = file_kind(path, data)
    if kind is None and (path == "-" or "." not in os.path.basename(path).lstrip(".")):
        kind = LANGUAGE_KINDS.get((language or "").lower())
    return kind


@dataclass
class Linted:
    """A document's text and what the linter found in it."""

    path: str
    text: str
    kind: str | None
    result: object  # sources.FileResult, findings selected as ``check`` reports them
    context: Context | None
    problem: str | None = None  # a configuration error


def use_open_documents(others: dict[str, str]) -> None:
    """Start the analysis afresh, reading other project modules as the editor holds them.

    A module imported by the document may have changed on disk or in another
    editor tab since the last check: the cache of project modules starts empty
    and the unsaved text of the open Python documents stands in for their files."""
    from vllm_lint.frameworks.defaults import forget_tree_files
    from vllm_lint.python import forget_project_modules, project_modules

    forget_project_modules()
    forget_tree_files()
    project = project_modules()
    for path, text in others.items():
        if path.endswith((".py", ".pyi")):
            project.replace_text(path, text.encode("utf-8", "surrogatepass"))


def lint_document(path: str, text: str, language: str | None, options: Options, workspace: str | None = None) -> Linted:
    """Lint a document's unsaved text as ``check --stdin-filename PATH -`` lints it."""
    from vllm_lint.lint import lint_bytes
    from vllm_lint.settings import read_skipped_directives, select_findings
    from vllm_lint.sources import FileResult

    data = text.encode("utf-8", "surrogatepass")
    kind = document_kind(path, data, language)
    if kind is None:
        return Linted(path, text, None, FileResult(path), None)
    try:
        context = Context.for_path(None if path == "-" else path, options, workspace)
    except ConfigProblem as error:
        return Linted(path, text, kind, FileResult(path, kind=kind), None, str(error))
    if context.excluded(path):
        return Linted(path, text, kind, FileResult(path, kind=kind), context)
    result = lint_bytes(path, data, context.resolver.for_path, kind)
    result.kind = kind
    if result.source is None and result.error is None:
        result.source = text  # skipped unanalysed: the unused-noqa rule still reads its comments
    read_skipped_directives([result], context.settings)
    select_findings([result], context.settings)
    return Linted(path, text, kind, result, context)


def _finding_range(lines: Lines, finding) -> tuple[int, int]:
    """Start and end offsets of a finding (spans count UTF-8 bytes, as ``ast`` does)."""
    span = finding.span
    start = lines.byte_column(span.line, span.col)
    if span.end_line is not None and span.end_col is not None:
        end = lines.byte_column(span.end_line, span.end_col)
    else:
        end = start + 1
    return start, max(start, end)


def _rule_url(code: str) -> str | None:
    from vllm_lint.rules import RULES_BY_CODE

    rule = RULES_BY_CODE.get(code)
    return rule.url if rule is not None else None


def diagnostics(linted: Linted, encoding: str = "utf-16") -> list[Diagnostic]:
    """The document's diagnostics: its findings, or one for a file that cannot be parsed."""
    lines = Lines(linted.text, encoding)
    if linted.problem is not None:
        return [Diagnostic(((0, 0), (0, lines.units(lines.line_text(0)))), f"cannot read the configuration: {linted.problem}")]
    result = linted.result
    found: list[Diagnostic] = []
    if result.error is not None:
        error = result.error
        line = min(max(error.line - 1, 0), len(lines.starts) - 1)
        start = lines.starts[line] + min(max(error.col, 0), len(lines.line_text(line)))
        end = max(start, lines.starts[line] + len(lines.line_text(line)))
        found.append(Diagnostic((lines.position(start), lines.position(end)), error.text))
    found.extend(_finding_diagnostic(lines, finding) for finding in result.findings)
    return found


def _finding_diagnostic(lines: Lines, finding) -> Diagnostic:
    start, end = _finding_range(lines, finding)
    message = finding.message
    from vllm_lint.rules import explanation

    note = explanation(finding)
    if note:  # the error vLLM would raise, as ``--output-format full`` shows it
        message += f"\n{note}"
    return Diagnostic((lines.position(start), lines.position(end)), message, finding.code, _rule_url(finding.code))


# ------------------------------------------------------------------ code actions


def _overlaps(a: Range, b: Range) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def findings_in(linted: Linted, wanted: Range, encoding: str) -> list:
    """The findings whose range meets ``wanted``."""
    lines = Lines(linted.text, encoding)
    chosen = []
    for finding in linted.result.findings:
        start, end = _finding_range(lines, finding)
        if _overlaps((lines.position(start), lines.position(end)), wanted):
            chosen.append(finding)
    return chosen


def _diagnostic_of(linted: Linted, finding, encoding: str) -> Diagnostic:
    return _finding_diagnostic(Lines(linted.text, encoding), finding)


def _fix_of(linted: Linted, finding):
    """The fix ``--fix`` applies for a finding (``Fix``), or None."""
    from vllm_lint.fix.plan import command_line_fix

    if linted.result.is_python:
        return finding.fix
    return command_line_fix(finding, linted.context.options.fix_mode)


def _with_python_fixes(linted: Linted, findings: list) -> tuple[list, dict[str, str]]:
    """Copies of the findings, ``fix`` filled for those that have one, and the text of each
    other file the fixes edit, by path (the edits' positions are in that text).

    Copies: the check's own findings stay as linted, and each request computes its fixes
    from the files as they are then."""
    from vllm_lint.fix.crossfile import other_files
    from vllm_lint.fix.plan import may_have_fix
    from vllm_lint.fix.python import attach_fixes

    mode = linted.context.options.fix_mode
    findings = [replace(finding) for finding in findings]
    pending = [f for f in findings if f.fix is None and may_have_fix(f, mode)]
    texts: dict[str, str] = {}
    if not pending:
        return findings, texts
    version, _ = linted.context.resolver.for_path(linted.path)
    elsewhere = other_files(linted.context.excludes)
    try:
        attach_fixes(linted.text, pending, version, mode, linted.path, elsewhere)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return findings, texts  # a fix that cannot be computed is a fix not offered
    for finding in pending:
        if finding.fix is not None:
            for other in finding.fix.elsewhere:
                text = elsewhere.text(other)
                if text is not None:
                    texts[other] = text
    return findings, texts


def _edits_of(fix, path: str, text: str, others: dict[str, str], encoding: str) -> dict[str, list[TextEdit]] | None:
    """A fix's ``Edit``s as editor edits, by file; None when one does not fit its text."""
    edits: dict[str, list[TextEdit]] = {}
    for target, target_edits in [(path, fix.edits), *fix.elsewhere.items()]:
        if not target_edits:
            continue
        target_text = text if target == path else others.get(target)
        if target_text is None:
            return None
        lines = Lines(target_text, encoding)
        converted = []
        for edit in target_edits:
            start = lines.edit_offset(*edit.start)
            end = lines.edit_offset(*edit.end)
            if end < start:
                return None
            converted.append(TextEdit((lines.position(start), lines.position(end)), edit.content))
        edits[target] = converted
    return edits or None


def _python_bom(linted: Linted) -> str:
    """A byte order mark the editor kept at the start of a Python document ("" if none).
    ``check`` decodes it away, so the fixer's positions start after it."""
    return "\ufeff" if linted.result.is_python and linted.text.startswith("\ufeff") else ""


def _after_bom(edit: TextEdit, bom: str, encoding: str) -> TextEdit:
    """An edit of the text without its byte order mark, as an edit of the document."""
    width = Lines(bom, encoding).units(bom)
    (start, end) = edit.range

    def shifted(position):
        line, character = position
        return (line, character + width) if line == 0 else position

    return TextEdit((shifted(start), shifted(end)), edit.new_text)


def quick_fixes(linted: Linted, findings: list, encoding: str = "utf-16") -> list[Action]:
    """For each finding: its fix (as ``--fix`` makes it; unsafe ones say so), then a noqa comment."""
    if linted.context is None or not findings:
        return []
    others: dict[str, str] = {}
    bom = _python_bom(linted)
    bare = replace(linted, text=linted.text[len(bom) :])  # what the fixer reads, as ``check --fix`` decodes it
    if linted.result.is_python:
        findings, others = _with_python_fixes(bare, findings)
    actions: list[Action] = []
    for finding in findings:
        diagnostic = _diagnostic_of(linted, finding, encoding)
        fix = _fix_of(linted, finding)
        if fix is not None:
            edits = _edits_of(fix, linted.path, bare.text, others, encoding)
            if edits is not None and bom:
                edits[linted.path] = [_after_bom(edit, bom, encoding) for edit in edits.get(linted.path, [])]
            if edits is not None:
                unsafe = " (unsafe fix)" if fix.applicability == "unsafe" else ""
                title = f"{SOURCE} ({finding.code}): {fix.message}{unsafe}"
                actions.append(Action(title, "quickfix", edits, [diagnostic], preferred=not unsafe))
    for finding in findings:
        noqa = noqa_action(linted, finding, encoding)
        if noqa is not None:
            actions.append(noqa)
    return actions


def noqa_action(linted: Linted, finding, encoding: str = "utf-16") -> Action | None:
    """``Disable VLM105 for this line``: the comment ``--add-noqa`` would add for this finding alone."""
    from vllm_lint.add_noqa import silence
    from vllm_lint.lint import lint_bytes

    if finding.code == UNUSED_NOQA or linted.context is None:
        return None
    version_for = linted.context.resolver.for_path

    def relint(candidate: str):
        return lint_bytes(linted.path, candidate.encode("utf-8", "surrogatepass"), version_for, linted.kind)

    new, count, _ = silence(linted.path, linted.text, [finding], linted.result.is_python, relint)
    if not count or new == linted.text:
        return None
    edit = edit_between(linted.text, new, encoding)
    return Action(
        f"Disable {finding.code} for this line", "quickfix", {linted.path: [edit]}, [_diagnostic_of(linted, finding, encoding)]
    )


def fix_all(linted: Linted, encoding: str = "utf-16") -> Action | None:
    """``Fix all vllm-lint issues``: the safe fixes ``check --fix`` applies, in this text and
    in the other files they edit; None when there is nothing to fix."""
    from vllm_lint.fix.apply import Encoded, FileFix, _newline_of, fix_text_result, keeper, remove_unused_noqa, unfixed
    from vllm_lint.fix.crossfile import other_files
    from vllm_lint.fix.plan import may_have_fix
    from vllm_lint.fix.python import fix_source

    result = linted.result
    context = linted.context
    if context is None or result.error is not None or not result.findings or result.source is None:
        return None
    mode = context.options.fix_mode
    rules_only = replace(result, findings=[f for f in result.findings if f.code != UNUSED_NOQA])
    unused_noqa = len(rules_only.findings) != len(result.findings)
    rule_fix = any(may_have_fix(f, mode) for f in rules_only.findings) and (
        result.is_python or any(f.fix is not None for f in rules_only.findings)
    )
    if not rule_fix and not unused_noqa:
        return None
    elsewhere = other_files(context.excludes)
    if not rule_fix:
        fixed = unfixed(rules_only, stdin=True)
    elif result.is_python:
        version, _ = context.resolver.for_path(linted.path)
        bom = _python_bom(linted)
        outcome = fix_source(
            linted.text[len(bom) :],
            linted.path,
            version,
            unsafe=False,
            mode=mode,
            keep=keeper(context.settings, linted.path),
            findings=rules_only.findings,
            elsewhere=elsewhere,
        )
        encoded = Encoded("utf-8", _newline_of(linted.text))
        fixed = FileFix(
            linted.path, linted.text, bom + outcome.source, outcome.fixed, outcome.remaining, encoded, None, outcome.error,
            outcome.converged, outcome.others,
        )
    else:
        fixed = fix_text_result(rules_only, context.resolver.for_path, context.settings, False, mode, stdin=True)
    if unused_noqa and fixed.error is None:
        remove_unused_noqa(fixed, result, context.resolver.for_path, context.settings)
    if fixed.error is not None or not fixed.changed:
        return None
    edits: dict[str, list[TextEdit]] = {}
    if fixed.new_text != fixed.old_text:
        edits[linted.path] = [edit_between(fixed.old_text, fixed.new_text, encoding)]
    for other in fixed.others:
        edits[other.path] = [edit_between(other.old_text, other.new_text, encoding)]
    return Action("Fix all vllm-lint issues", FIX_ALL_KIND, edits)
