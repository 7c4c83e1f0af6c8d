"""``vllm-lint check --fix`` / ``--diff``: apply fixes, write files safely, report.

Exit codes follow ruff: with ``--fix``, 0 when no finding remains and 1 when
some do (or a file could not be read, parsed or written); with ``--diff``, 1
when a file would change.  libcst is imported only when a Python file has a
finding with a fix.
"""

from __future__ import annotations

import errno
import os
import stat
from collections import Counter
from dataclasses import dataclass, field, replace

from vllm_lint.findings import Finding
from vllm_lint.fix.encoding import Encoded, _newline_of, decode_python, decode_text
from vllm_lint.settings import selector
from vllm_lint.fix.plan import DISABLE_REPLAY, REPLAY_CODES, command_line_fix, may_have_fix, result_offers

EXIT_CLEAN, EXIT_FINDINGS = 0, 1
UNUSED_NOQA = "VLM901"  # rules.unused_noqa.CODE, without loading the rules here


class FileChanged(Exception):
    """The file on disk is not the one that was linted."""


# ------------------------------------------------------------------ reading and writing


def write_atomically(path: str, data: bytes, expected: bytes) -> None:
    """Replace ``path`` with ``data`` via a temporary file and a rename.

    The file keeps its mode (and owner, where allowed); a symbolic link keeps
    pointing at the file it named.  A file with other hard links is written in
    place, so that every name still shows the same file.  A read-only file is
    left alone (as ruff does), even where the user could replace it.  Raises
    ``FileChanged`` when the file no longer holds ``expected``, ``OSError``
    when it cannot be written.
    """
    real = os.path.realpath(path)
    info = os.stat(real)
    if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(real, os.W_OK):
        raise PermissionError(errno.EACCES, "the file is read-only")
    if info.st_nlink > 1:
        _write_in_place(real, data, expected)
        return
    import tempfile  # only when a file is written: --fix on a clean tree stays as cheap as check

    directory = os.path.dirname(real) or "."
    fd, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(real)}.", suffix=".vllm-lint", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, stat.S_IMODE(info.st_mode))
        if hasattr(os, "chown") and (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
            try:
                os.chown(temporary, info.st_uid, info.st_gid)
            except OSError:
                pass
        with open(real, "rb") as handle:
            if handle.read() != expected:
                raise FileChanged(path)
        os.replace(temporary, real)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _write_in_place(real: str, data: bytes, expected: bytes) -> None:
    with open(real, "r+b") as handle:
        if handle.read() != expected:
            raise FileChanged(real)
        handle.seek(0)
        handle.write(data)
        handle.truncate()
        handle.flush()
        os.fsync(handle.fileno())


def unified_diff(path: str, old: str, new: str) -> str:
    import difflib

    def lines(text: str) -> list[str]:
        return text.splitlines(keepends=True) if "\n" in text else ([text] if text else [])

    diff = difflib.unified_diff(lines(old), lines(new), fromfile=path, tofile=path)
    text = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in diff)
    return text


# ------------------------------------------------------------------ one file


@dataclass
class FileFix:
    path: str
    old_text: str
    new_text: str
    fixed: list[Finding] = field(default_factory=list)
    remaining: list[Finding] = field(default_factory=list)
    encoded: Encoded | None = None
    data: bytes | None = None  # the bytes the fix started from (None: stdin)
    error: str | None = None
    converged: bool = True
    others: list = field(default_factory=list)  # crossfile.OtherFix: other files edited for these findings

    @property
    def changed(self) -> bool:
        return self.new_text != self.old_text or bool(self.others)


def keeper(settings, path: str):
    selected = selector(settings, path)
    return lambda finding: selected(finding.code)


def _read(result, stdin: bool) -> bytes | None:
    from vllm_lint.sources import read_file

    if stdin:
        return None
    return read_file(result.path)


def fix_python_result(
    result, version, settings, unsafe: bool, mode: str, stdin: bool = False, elsewhere=None, only=None
) -> FileFix:
    """``only``: a test of the findings whose fixes apply (``vllm-lint upgrade``: the renames); default all."""
    from vllm_lint.fix.python import fix_source

    data = _read(result, stdin)
    if data is None:
        text, encoded = result.source or "", Encoded("utf-8", _newline_of(result.source or ""))
    else:
        text, encoded = decode_python(data)
        if result.source is not None and text != result.source:
            raise FileChanged(result.path)
    keep = keeper(settings, result.path)
    if only is not None:
        keep = _both(keep, only)
    outcome = fix_source(
        text,
        result.path,
        version,
        unsafe=unsafe,
        mode=mode,
        keep=keep,
        findings=result.findings if only is None else [f for f in result.findings if only(f)],
        elsewhere=None if stdin else elsewhere,
    )
    return FileFix(
        result.path,
        text,
        outcome.source,
        outcome.fixed,
        outcome.remaining,
        encoded,
        data,
        outcome.error,
        outcome.converged,
        outcome.others,
    )


def _both(first, second):
    return lambda finding: first(finding) and second(finding)


def fix_text_result(result, version_for, settings, unsafe: bool, mode: str, stdin: bool = False, only=None) -> FileFix:
    """``only``: as for ``fix_python_result``."""
    from vllm_lint.fix.text import fix_text
    from vllm_lint.lint import file_kind

    data = _read(result, stdin)
    if data is None:
        text = result.source or ""
        encoded = Encoded("utf-8", _newline_of(text))
    else:
        text, encoded = decode_text(data)
        if result.source is not None and text != result.source:
            raise FileChanged(result.path)
    kind = result.kind or file_kind(result.path, data)
    keep = keeper(settings, result.path)
    if only is not None:
        keep = _both(keep, only)

    def relint(new_text: str) -> list[Finding]:
        from vllm_lint.commandline import lint_command_file

        linted = lint_command_file(result.path, new_text.encode(encoded.encoding), kind, version_for)
        return [f for f in linted.findings if keep(f)]

    findings = result.findings if only is None else [f for f in result.findings if only(f)]
    outcome = fix_text(text, findings, relint, unsafe=unsafe, newline=encoded.newline, fix_of=lambda finding: command_line_fix(finding, mode))
    return FileFix(
        result.path, text, outcome.text, outcome.fixed, outcome.remaining, encoded, data, outcome.error, outcome.converged
    )


def unfixed(result, stdin: bool = False) -> FileFix:
    """A file no rule fix changes, read as a fix would read it (another step may change it)."""
    data = _read(result, stdin)
    if data is None:
        text, encoded = result.source or "", Encoded("utf-8", _newline_of(result.source or ""))
    else:
        text, encoded = decode_python(data) if result.is_python else decode_text(data)
        if result.source is not None and text != result.source:
            raise FileChanged(result.path)
    return FileFix(result.path, text, text, [], list(result.findings), encoded, data)


def remove_unused_noqa(fixed: FileFix, result, version_for, settings) -> None:
    """Apply VLM901's fix to the (fixed) text: remove the noqa codes that silence nothing there."""
    from vllm_lint.fix.text import apply_edits
    from vllm_lint.lint import lint_bytes
    from vllm_lint.rules import RULES_BY_CODE, unused_noqa

    kind = result.kind or ("python" if result.is_python else None)
    relinted = lint_bytes(result.path, fixed.new_text.encode(fixed.encoded.encoding), version_for, kind)
    unused = list(unused_noqa.check(relinted, selector(settings, result.path), RULES_BY_CODE))
    if not unused:
        return
    new = apply_edits(fixed.new_text, [edit for finding in unused for edit in finding.fix.edits], fixed.encoded.newline)
    if new is None:
        fixed.remaining.extend(unused)
        return
    fixed.new_text = new
    fixed.fixed.extend(unused)
    # A comment at the end of a Dockerfile's exec form made it a shell command: without the
    # comment the instruction may start a server, and its findings are findings now.
    after = lint_bytes(result.path, new.encode(fixed.encoded.encoding), version_for, kind)
    keep = keeper(settings, result.path)
    fixed.remaining = [f for f in after.findings if keep(f)]


# ------------------------------------------------------------------ fixes in output


def attach_result_fixes(results, resolver, mode: str, elsewhere=None) -> None:
    """Fill ``finding.fix`` of Python findings that have a fix, for JSON and ``full`` output.

    ``elsewhere`` (``crossfile.OtherFiles``): fixes in other project files are shown too."""
    for result in results:
        if result.source is None or not result.findings:
            continue
        if not result.is_python:  # the other front ends build their fixes with the findings
            continue
        if not any(may_have_fix(f, mode) and f.fix is None for f in result.findings):
            continue
        from vllm_lint.fix.python import attach_fixes

        version, _ = resolver.for_path(result.path)
        try:
            attach_fixes(result.source, result.findings, version, mode, result.path, None if result.path == "-" else elsewhere)
        except Exception:  # a fix we cannot compute is a fix we do not show
            continue


# ------------------------------------------------------------------ the command


def _write_fixed(path: str, fixed: FileFix) -> None:
    """Write a fixed file and the other files its fixes edited, each atomically; none of them
    when one of them changed on disk since it was read (``FileChanged`` names it)."""
    from vllm_lint.python import project_modules

    writes = [(other.path, other.new_data, other.data) for other in fixed.others]
    if fixed.new_text != fixed.old_text:
        writes.append((path, fixed.new_text.encode(fixed.encoded.encoding), fixed.data))
    for target, _, expected in writes:
        with open(target, "rb") as handle:
            if handle.read() != expected:
                raise FileChanged(target)
    for target, data, expected in writes:
        write_atomically(target, data, expected)
        project_modules().replace_text(target, data)  # files importing it read the new text


def _relint(result, text: str, resolver, settings) -> None:
    """Another file's fix rewrote this one: its findings are those of the new text."""
    from vllm_lint.fix.python import lint_source

    version, _ = resolver.for_path(result.path)
    result.source = text
    result.findings = lint_source(text, result.path, version, keeper(settings, result.path))


def fix_results(results, args, settings, resolver, out, err, excludes=()) -> int:
    from vllm_lint import output
    from vllm_lint.fix.crossfile import display_path, other_files
    from vllm_lint.output import plural
    from vllm_lint.style import Style

    unsafe = bool(args.unsafe_fixes)
    mode = args.fix_mode
    diff_only = bool(args.diff)
    machine = args.output_format in output.MACHINE_FORMATS
    # Standard input is linted under --stdin-filename's name; its fixed text goes to stdout.
    stdin_name = (args.stdin_filename or "-") if "-" in (args.paths or []) else None
    stdin = stdin_name is not None
    # The report about fixes goes where it does not mix with machine-readable output.
    report = err if machine or diff_only or stdin else out
    fixed_files: list[FileFix] = []
    original_stdin: str | None = None
    failures: list[tuple[str, str]] = []
    diffs: list[str] = []
    # The results of files the run may rewrite for another file's findings, by absolute path.
    by_path = {os.path.abspath(r.path): r for r in results if r.path not in ("-", stdin_name) and r.source is not None}

    for result in results:
        from_stdin = stdin and result.path == stdin_name
        if from_stdin and not diff_only and result.source is not None:
            original_stdin = result.source
        if result.error is not None or not result.findings:
            continue
        if result.kind == "notebook":
            if not args.quiet:
                err.write(f"vllm-lint: warning: {result.path}: notebooks are not fixed; its findings are reported as they are\n")
            continue
        # Unused noqa directives are removed last, from the text the rules' fixes leave.
        unused_noqa = any(f.code == UNUSED_NOQA for f in result.findings)
        rules_only = replace(result, findings=[f for f in result.findings if f.code != UNUSED_NOQA])
        is_python = result.is_python
        rule_fix = any(may_have_fix(f, mode) for f in rules_only.findings) and (
            is_python or any(f.fix is not None for f in rules_only.findings)
        )
        if not rule_fix and not unused_noqa:
            continue
        elsewhere = other_files(excludes)
        try:
            if not rule_fix:
                fixed = unfixed(rules_only, from_stdin)
            elif is_python:
                version, _ = resolver.for_path(result.path)
                fixed = fix_python_result(rules_only, version, settings, unsafe, mode, from_stdin, elsewhere)
            else:
                fixed = fix_text_result(rules_only, resolver.for_path, settings, unsafe, mode, from_stdin)
            if unused_noqa and fixed.error is None:
                remove_unused_noqa(fixed, result, resolver.for_path, settings)
        except FileChanged:
            elsewhere.forget()
            failures.append((result.path, "changed on disk since it was read; not overwritten"))
            continue
        except (OSError, UnicodeError, SyntaxError, LookupError) as error:
            elsewhere.forget()
            failures.append((result.path, f"cannot fix: {error}"))
            continue
        if fixed.error is not None:
            failures.append((result.path, f"{fixed.error}; file left unchanged"))
            continue
        if not fixed.converged:
            err.write(f"vllm-lint: warning: {result.path}: fixes did not settle after the maximum number of passes\n")
        if not fixed.changed:
            continue
        if diff_only:
            if fixed.new_text != fixed.old_text:
                diffs.append(unified_diff(result.path, fixed.old_text, fixed.new_text))
            for other in fixed.others:
                diffs.append(unified_diff(display_path(other.path), other.old_text, other.new_text))
            elsewhere.forget()  # nothing is written: the next files are analysed as they are on disk
        elif from_stdin:
            original_stdin = fixed.new_text
        else:
            try:
                _write_fixed(result.path, fixed)
            except FileChanged as changed:
                elsewhere.forget()
                failures.append((str(changed), "changed on disk since it was read; not overwritten"))
                continue
            except OSError as error:
                elsewhere.forget()
                failures.append((result.path, f"cannot write: {error.strerror or error}"))
                continue
            for other in fixed.others:
                rewritten = by_path.get(other.path)
                if rewritten is not None:
                    _relint(rewritten, other.new_text, resolver, settings)
        # From here on the results describe the fixed text (with --diff: the text it would be).
        result.findings = fixed.remaining
        result.source = fixed.new_text
        fixed_files.append(fixed)

    for path, reason in failures:
        err.write(f"vllm-lint: error: {path}: {reason}\n")
    if original_stdin is not None:
        out.write(original_stdin)  # fixed or not, the text goes on, as a formatter's would

    fixed_count = sum(len(f.fixed) for f in fixed_files)
    written = {os.path.abspath(f.path) for f in fixed_files if f.new_text != f.old_text}
    written |= {other.path for f in fixed_files for other in f.others}
    fixes = output.Fixes(result_offers(results, resolver, mode, other_files(excludes)), unsafe)
    hidden = sum(1 for r in results for f in r.findings if fixes.hidden(f))
    if not args.quiet and mode == DISABLE_REPLAY and not unsafe:
        held_back = sum(1 for r in results for f in r.findings if f.code in REPLAY_CODES and fixes.hidden(f))
        if held_back:
            err.write(
                f"vllm-lint: warning: nothing {'would be' if diff_only else 'was'} removed for "
                f"{plural(held_back, 'finding')}: --fix-mode disable-replay removes return_sampling_mask, "
                "an unsafe fix; add --unsafe-fixes to apply it\n"
            )

    if diff_only:
        for text in diffs:
            out.write(text)
        if not args.quiet:
            message = f"Would fix {plural(fixed_count, 'error')}" if fixed_count else "No errors would be fixed"
            if hidden:
                message += f" ({plural(hidden, 'additional fix')} available with `--unsafe-fixes`)"
            err.write(message + ".\n")
        if getattr(args, "show_fixes", False) and not args.quiet:
            _show_fixes(fixed_files, err, "Would fix")
        if args.exit_zero:
            return EXIT_CLEAN
        return EXIT_FINDINGS if diffs or failures else EXIT_CLEAN

    if args.output_format in ("json", "json-lines"):  # JSON shows each remaining finding's fix, with its edits
        attach_result_fixes(results, resolver, mode, other_files(excludes))
    findings_out = err if stdin else out
    style = Style.for_stream(findings_out)
    if args.statistics:
        output.write_statistics(results, findings_out, args.output_format, fixes, style)
    else:
        output.write(results, args.output_format, findings_out, fixes, style)
    remaining = sum(len(r.findings) for r in results)
    unreadable = sum(1 for r in results if r.error is not None)
    if not args.quiet:
        if fixed_files:
            report.write(f"Fixed {plural(fixed_count, 'error')} in {plural(len(written), 'file')}:\n")
            for fixed in fixed_files:
                codes = Counter(f.code for f in fixed.fixed)
                detail = ", ".join(f"{count} × {code}" for code, count in sorted(codes.items()))
                left = f"; {len(fixed.remaining)} remaining" if fixed.remaining else ""
                report.write(f"  {fixed.path}: {detail}{left}\n")
                for other in fixed.others:
                    report.write(f"  {display_path(other.path)}: edited for the findings in {fixed.path}\n")
        if getattr(args, "show_fixes", False):
            _show_fixes(fixed_files, report, "Fixed")
        if fixed_count:
            report.write(f"Found {plural(fixed_count + remaining, 'error')} ({fixed_count} fixed, {remaining} remaining).\n")
            if unreadable:
                report.write(f"{plural(unreadable, 'file')} could not be parsed.\n")
            if hidden:
                report.write(f"{plural(hidden, 'hidden fix')} can be enabled with the `--unsafe-fixes` option.\n")
        else:
            report.write(output.summary(results, fixes, style if report is findings_out else Style.for_stream(report)) + "\n")
    if getattr(args, "exit_non_zero_on_fix", False) and fixed_count:
        return EXIT_FINDINGS  # as ruff: a fixed file fails the run (pre-commit, CI)
    if args.exit_zero:
        return EXIT_CLEAN
    return EXIT_FINDINGS if remaining or unreadable or failures else EXIT_CLEAN


def _show_fixes(fixed_files: list, stream, verb: str) -> None:
    """``--show-fixes``: each finding fixed, where it was before the fix, and what the fix did."""
    from vllm_lint.rules import RULES_BY_CODE

    findings = [(fixed.path, finding) for fixed in fixed_files for finding in fixed.fixed]
    if not findings:
        stream.write(f"{verb} nothing.\n")
        return
    stream.write(f"{verb}:\n")
    for path, finding in sorted(findings, key=lambda item: (item[0], item[1].span.line, item[1].span.col, item[1].code)):
        rule = RULES_BY_CODE.get(finding.code)
        name = f" ({rule.name})" if rule else ""
        stream.write(f"  {path}:{finding.span.line}:{finding.span.col + 1}: {finding.code}{name} {finding.message}\n")
