"""``vllm-lint``: the command line.

    vllm-lint check [PATH ...]      lint files and folders (default: .)
    vllm-lint rule VLM105           print a rule's documentation
    vllm-lint rule                  a table of the rules
    vllm-lint rule --all            every rule's documentation
    vllm-lint server                a language server for editors (LSP over stdio)
    vllm-lint explain PATH[:LINE]   each engine's configuration, and where each value comes from
    vllm-lint upgrade --to X.Y      rewrite renamed engine arguments for a vLLM release; list the rest

Exit codes: 0 nothing found, 1 findings (or unreadable files), 2 usage or
internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import contextmanager

from vllm_lint import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

DESCRIPTION = (
    "Static checks and fixes for code and launch files that configure vLLM engines (Python, shell scripts, "
    "Dockerfiles, Kubernetes/compose/Helm YAML, vLLM --config files, notebooks, RL framework configs): every "
    "engine argument against the vLLM release each file runs on (unknown, removed or renamed arguments, invalid "
    "choices and bounds), the start-up checks vLLM makes between arguments, and sampling distribution replay's "
    "requirements. No GPU and no vLLM needed."
)
# --output-format's choices (output.FORMATS, not imported here: the parser is built before any check).
OUTPUT_FORMATS = ("text", "concise", "full", "json", "json-lines", "github", "gitlab", "junit", "pylint", "sarif")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number of processes, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vllm-lint",
        description=DESCRIPTION,
        epilog="`vllm-lint COMMAND --help` describes a command's options; docs/usage.md has them all.",
    )
    parser.add_argument("--version", action="version", version=f"vllm-lint {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    parser.commands = commands.choices  # name -> the command's parser, for its usage errors

    check = commands.add_parser(
        "check",
        help="lint files and folders: engine arguments per release, start-up checks, replay",
        description="Check every engine construction and vLLM launch in the files: arguments the release does not "
        "have (with documented renames), values outside their choices or bounds, the checks vLLM makes between "
        "arguments at start-up, and sampling distribution replay's requirements. Folders are walked, skipping "
        "what .gitignore and the excludes name.",
    )
    check.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: .); - reads stdin")
    check.add_argument("--target-version", metavar="X.Y[.Z]", help="vLLM release to check against (e.g. 0.33)")
    check.add_argument("--select", action="append", metavar="CODES", help="codes or prefixes to report (comma-separated)")
    check.add_argument("--ignore", action="append", metavar="CODES", help="codes or prefixes to skip (comma-separated)")
    check.add_argument(
        "--extend-select", action="append", metavar="CODES", help="codes or prefixes to report in addition (e.g. VLM901)"
    )
    check.add_argument("--extend-ignore", action="append", metavar="CODES", help="codes or prefixes to skip in addition")
    check.add_argument(
        "--exclude",
        action="append",
        metavar="GLOBS",
        help="glob patterns of paths to skip, matched against each path component (comma-separated, repeatable)",
    )
    check.add_argument(
        "--extend-exclude",
        action="append",
        metavar="GLOBS",
        help="glob patterns of paths to skip, in addition to --exclude or the configured exclude (comma-separated, repeatable)",
    )
    check.add_argument("--force-exclude", action="store_true", help="apply excludes to paths named on the command line too")
    check.add_argument(
        "--respect-gitignore",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="skip what .gitignore files, .git/info/exclude and git's core.excludesFile ignore (default: on)",
    )
    check.add_argument(
        "--per-file-ignores",
        action="append",
        metavar="GLOB:CODES",
        help="codes to skip in the files a glob matches, replacing the configured per-file-ignores "
        "(e.g. 'tests/*:VLM2,VLM301'; repeatable)",
    )
    check.add_argument(
        "--extend-per-file-ignores",
        action="append",
        metavar="GLOB:CODES",
        help="as --per-file-ignores, in addition to the configured ones",
    )
    check.add_argument("--output-format", choices=OUTPUT_FORMATS, default="text", help="how findings are printed (default: text)")
    check.add_argument("-o", "--output-file", metavar="PATH", help="write the report to this file instead of standard output")
    check.add_argument("--statistics", action="store_true", help="count findings per rule")
    check.add_argument("--show-files", action="store_true", help="list the files that would be checked, then exit")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--show-settings", action="store_true", help="print the settings used for the first path, then exit")
    check.add_argument("--config", metavar="PYPROJECT", help="read [tool.vllm-lint] from this file")
    check.add_argument("--stdin-filename", metavar="PATH", help="the name of the file read from stdin")
    check.add_argument("--fix", action="store_true", help="apply safe fixes")
    check.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff: also apply unsafe fixes")
    check.add_argument("--diff", action="store_true", help="print the fixes as a diff; write nothing")
    check.add_argument("--show-fixes", action="store_true", help="with --fix or --diff: list each finding fixed, where it was")
    check.add_argument(
        "--exit-non-zero-on-fix", action="store_true", help="with --fix: exit 1 when a file was fixed, even if nothing remains"
    )
    check.add_argument(
        "--fix-mode",
        choices=("keep-replay", "disable-replay"),
        default="keep-replay",
        help="keep-replay (default) removes what is incompatible with replay; "
        "disable-replay removes return_sampling_mask instead (unsafe)",
    )
    check.add_argument("--add-noqa", action="store_true", help="add noqa comments that silence every finding reported")
    check.add_argument("-j", "--jobs", type=_positive, default=1, metavar="N", help="lint with N processes (default 1)")
    check.add_argument("-q", "--quiet", action="store_true", help="print findings only, no summary")

    commands.add_parser("server", help="run the language server (LSP over stdin/stdout; needs vllm-lint[server])")

    rule = commands.add_parser("rule", help="print a rule's documentation (no CODE: a table of the rules)")
    rule.add_argument("code", nargs="?", help="code or name, e.g. VLM105 or replay-logprobs-mode")
    rule.add_argument("--all", action="store_true", help="print every rule's documentation")
    rule.add_argument("--markdown", action="store_true", help="the reference as Markdown, with a table (docs/rules.md)")

    upgrade = commands.add_parser(
        "upgrade",
        help="move engine arguments (and, with --bump-pins, pins and image tags) to a vLLM release",
        description="Rewrite every engine argument renamed between the release each file runs on and the release "
        "given, in every front end (Python, shell, Dockerfiles, Kubernetes/Helm/compose, --config files, framework "
        "configs); list what cannot be migrated by itself, with vLLM's own words; with --bump-pins, rewrite the pins "
        "and image tags the current release is read from.",
    )
    upgrade.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: .)")
    upgrade.add_argument("--to", required=True, metavar="X.Y[.Z]", help="the vLLM release to move to (e.g. 0.34)")
    upgrade.add_argument("--diff", action="store_true", help="print the changes as a diff; write nothing")
    upgrade.add_argument(
        "--bump-pins",
        action="store_true",
        help="also rewrite the vLLM pins and image tags the current release is read from (requirements, "
        "pyproject.toml, Dockerfile FROM, image tags, Helm values)",
    )
    upgrade.add_argument("--config", metavar="PYPROJECT", help="read [tool.vllm-lint] from this file")
    upgrade.add_argument("--exclude", action="append", metavar="GLOBS", help="glob patterns of paths to skip (comma-separated)")
    upgrade.add_argument("--extend-exclude", action="append", metavar="GLOBS", help="glob patterns to skip in addition")
    upgrade.add_argument("--force-exclude", action="store_true", help="apply excludes to paths named on the command line too")
    upgrade.add_argument(
        "--respect-gitignore", action=argparse.BooleanOptionalAction, default=None, help="skip what git ignores (default: on)"
    )
    upgrade.add_argument("-o", "--output-file", metavar="PATH", help="write the report to this file instead of standard output")
    upgrade.add_argument("-q", "--quiet", action="store_true", help="print only the manual steps and the summary")

    # The subcommand's code (vllm_lint.explain) loads only when it runs.
    explain = commands.add_parser(
        "explain",
        help="print the configuration each engine in a file gets, and where each value comes from",
        description="For each vLLM engine built or launched in a file (or the one at LINE): every replay-relevant "
        "setting and every argument written anywhere, as known (its value, where it was written and how it travelled), "
        "default (vLLM's default for the release) or unknown (and why); the model runner vLLM picks; the findings "
        "`check` reports on it.",
    )
    explain.add_argument("target", metavar="PATH[:LINE]", help="a file; LINE selects the engine whose call or command covers it")
    explain.add_argument("--target-version", metavar="X.Y[.Z]", help="vLLM release to explain for (e.g. 0.33)")
    explain.add_argument("--config", metavar="PYPROJECT", help="read [tool.vllm-lint] from this file")
    explain.add_argument("--output-format", choices=("text", "json"), default="text")
    return parser


# ---------------------------------------------------------------- discovery


def discover(
    paths: list[str], excludes: list[str], force_exclude: bool, errors: list, gitignore: bool = False, skipped: list | None = None
) -> list[tuple[str, str]]:
    """(path, kind) for every file the linter reads, in a stable order.  ``gitignore``: folders
    are walked without what git ignores (``vllm_lint.gitignore``), and so are named paths with
    ``force_exclude``.  ``skipped`` receives (path, reason) for each path named on the command
    line that is not checked."""
    from vllm_lint.excludes import is_excluded
    from vllm_lint.findings import FileError
    from vllm_lint.lint import file_kind

    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    skipped = skipped if skipped is not None else []

    def add(path: str, kind: str | None) -> None:
        if kind is None:
            return
        path = os.path.normpath(path)
        if path not in seen:
            seen.add(path)
            found.append((path, kind))

    for root in paths:
        if root == "-":
            add(root, "python")
            continue
        if force_exclude and is_excluded(root, excludes):
            skipped.append((root, "excluded (--force-exclude)"))
            continue
        if force_exclude and gitignore and (os.path.exists(root) or os.path.islink(root)):
            from vllm_lint.gitignore import ignored_path

            if ignored_path(root):
                skipped.append((root, "ignored by git (--force-exclude)"))
                continue
        if os.path.isdir(root):
            _walk(root, excludes, add, errors, gitignore)
        elif os.path.exists(root) or os.path.islink(root):
            kind = file_kind(root) or _python_script(root)
            if kind is None:
                skipped.append((root, f"not a kind of file vllm-lint reads ({KINDS_READ})"))
            add(root, kind)
        else:
            errors.append(FileError(root, "cannot read: no such file or directory"))
    return found


# What file_kind recognises, for the notice about a named file it does not.
KINDS_READ = "Python, notebooks, shell scripts, Dockerfiles, YAML, TOML"


def _python_script(path: str) -> str | None:
    """A file named on the command line without an extension, run by Python (``#!/usr/bin/env python3``)."""
    if "." in os.path.basename(path).lstrip("."):
        return None
    try:
        with open(path, "rb") as handle:
            head = handle.readline(256)
    except OSError:
        return "python"  # cannot be read: linting it reports why
    return "python" if head.startswith(b"#!") and b"python" in head else None


def _walk(root: str, excludes: list[str], add, errors: list, gitignore: bool = False) -> None:
    from vllm_lint.excludes import absolute_path, matchers
    from vllm_lint.findings import FileError
    from vllm_lint.lint import file_kind

    # A folder's own path was checked when it was entered, so an entry needs only
    # its name checked against name patterns, and its relative path against path patterns.
    names, paths, absolute = matchers(tuple(excludes))
    absolute_root = absolute_path(root) if absolute is not None else ""
    ignore_root = None
    if gitignore:
        from vllm_lint.gitignore import for_folder

        ignore_root = for_folder(root)  # (patterns in force, the folder's path in its repository)
    visited: set[tuple[int, int]] = set()
    stack = [(root, "", ignore_root)]
    while stack:
        directory, relative, ignore = stack.pop()
        try:
            info = os.stat(directory)
        except OSError as error:
            errors.append(FileError(directory, f"cannot read: {error.strerror or error}"))
            continue
        key = (info.st_dev, info.st_ino)
        if key in visited:  # a symlink loop
            continue
        visited.add(key)
        try:
            entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
        except OSError as error:
            errors.append(FileError(directory, f"cannot read: {error.strerror or error}"))
            continue
        if gitignore and directory != root:
            ignore = _entered(directory, ignore, entries)
        subdirectories = []
        for entry in entries:
            name = os.path.normcase(entry.name)
            entry_relative = f"{relative}/{name}" if relative else name
            if (
                (names is not None and names(name))
                or (paths is not None and paths(entry_relative))
                or (absolute is not None and absolute(f"{absolute_root}/{entry_relative}"))
            ):
                continue
            try:
                is_dir = entry.is_dir()
            except OSError as error:  # e.g. a symlink loop: report it if it would be linted
                if file_kind(entry.path) is not None:
                    errors.append(FileError(os.path.normpath(entry.path), f"cannot read: {error.strerror or error}"))
                continue
            if ignore is not None:
                patterns, folder = ignore
                if patterns.ignored(f"{folder}/{entry.name}" if folder else entry.name, is_dir):
                    continue
            if is_dir:
                subdirectories.append((entry.path, entry_relative, ignore))
            else:
                kind = file_kind(entry.path)
                if kind is not None:
                    add(entry.path, kind)
        stack.extend(reversed(subdirectories))


def _entered(directory: str, ignore, entries):
    """The git ignore patterns in force in a folder being walked: its parent's and its own
    ``.gitignore``; a nested repository (a ``.git`` of its own) starts from its own."""
    from vllm_lint.gitignore import GITIGNORE, for_folder

    present = {entry.name for entry in entries}
    if ".git" in present:
        return for_folder(directory)
    if ignore is None:
        return None
    patterns, parent = ignore
    folder = f"{parent}/{os.path.basename(directory)}" if parent else os.path.basename(directory)
    if GITIGNORE in present:
        patterns = patterns.entered(directory, folder)
    return patterns, folder


# ------------------------------------------------------------------ check


def _settings_for(args):
    from vllm_lint.settings import settings_for

    return settings_for(
        args.paths,
        config=args.config,
        target_version=args.target_version,
        select=args.select,
        extend_select=args.extend_select,
        ignore=args.ignore,
        extend_ignore=args.extend_ignore,
        exclude=args.exclude,
        extend_exclude=args.extend_exclude,
        per_file_ignores=args.per_file_ignores,
        extend_per_file_ignores=args.extend_per_file_ignores,
        respect_gitignore=args.respect_gitignore,
    )


def _triton_model(path: str) -> bool:
    import ast

    from vllm_lint.python import is_triton_model

    try:
        with open(path, "rb") as handle:
            return is_triton_model(ast.parse(handle.read()))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def _show_settings(args, settings, excludes, resolver, out) -> int:
    first = args.paths[0] if args.paths else "."
    probe = args.stdin_filename or (first if first != "-" else None)
    if probe and os.path.isdir(probe):
        probe = os.path.join(probe, "__probe__.py")
    from vllm_lint.python.built_images import target_of_file

    version, why = target_of_file(resolver.for_path, probe)
    releases = version.releases_text
    if version.assumed and probe and probe.endswith(".py") and _triton_model(probe):
        from vllm_lint.python import TRITON_IMAGE

        releases, why = "any", TRITON_IMAGE
    out.write(f"config file: {settings.config_path or '(none)'}\n")
    out.write(f"target version: {releases} (from {why})\n")
    out.write(f"select: {', '.join(settings.selected)}\n")
    out.write(f"ignore: {', '.join(settings.ignore) or '(none)'}\n")
    out.write(f"exclude: {', '.join(excludes)}\n")
    out.write(f"assume-pass-through: {settings.assume_pass_through}\n")
    if settings.server_images:
        out.write(f"server-images: {', '.join(settings.server_images)}\n")
    if settings.per_file_ignores:
        for pattern, codes in settings.per_file_ignores.items():
            out.write(f"per-file-ignores: {pattern} = {', '.join(codes)}\n")
    if probe and os.path.isfile(probe):
        _show_launch_releases(probe, resolver, out)
        _show_frameworks(probe, resolver, out)
    return EXIT_CLEAN


def _show_launch_releases(path: str, resolver, out) -> None:
    """Launches of a command file that run another release than the file's (an image's tag, a
    ``pip install`` before them, a custom image), as ``check`` and ``explain`` read them."""
    from vllm_lint.commandline import launch_releases
    from vllm_lint.lint import file_kind

    kind = file_kind(path)
    if kind in (None, "python"):
        return
    for line, version, where, unknown in launch_releases(path, kind, resolver.for_path):
        if unknown:
            why = where or "the tag names none"
            out.write(f"launch at line {line}: the release its image runs ({why}: only options no release has are reported)\n")
        else:
            out.write(f"launch at line {line}: {version.releases_text} (from {where})\n")


def _show_frameworks(path: str, resolver, out) -> None:
    """The RL framework packs that applied to the file, why, and where their defaults came from."""
    from vllm_lint.lint import lint_file

    result = lint_file(path, resolver.for_path)
    if not result.frameworks:
        out.write("framework packs: (none applied)\n")
        return
    for applied in result.frameworks:
        out.write(f"framework pack: {applied.pack} (applied because {applied.reason}; defaults from {applied.defaults})\n")


def _report_config_values_once(results) -> None:
    """A launch's finding about a value its ``--config`` file holds is dropped when that
    file is linted in the same run and reports it at the value (where its fix is).  A replay
    value the file cannot decide alone (``logprobs-mode`` beside ``return-sampling-mask``: the
    command line may set it) is reported there, at its key, with its fix."""
    linted = {os.path.abspath(result.path): result for result in results if result.source is not None}
    by_path = {path: result for path, result in linted.items() if result.findings}
    if not by_path or len(linted) < 2:
        return
    for result in results:
        kept = []
        for finding in result.findings:
            origin = finding.origin
            if origin is not None and origin.kind == "config-key" and origin.path not in (None, "<implicit>"):
                config = linted.get(os.path.abspath(origin.path))
                if config is not None and config is not result:
                    if any(other.code == finding.code and other.span.line == origin.span.line for other in config.findings):
                        continue
                    if _moved_to_config(finding, origin, config):
                        continue
            kept.append(finding)
        result.findings = kept


def _moved_to_config(finding, origin, config) -> bool:
    """Report a launch's finding at the key of its ``--config`` file that holds the value,
    when the rule's fix sets that value there (and no comment there silences it)."""
    from dataclasses import replace

    from vllm_lint.fix.structure import config_value_fix
    from vllm_lint.noqa import line_suppressions

    if finding.fix_action != "set-processed-logprobs" or finding.fix_safety is None or config.kind != "yaml":
        return False
    text = config.source
    if line_suppressions(text.splitlines()).matching(finding.code, origin.span.line, None):
        return False
    fix = config_value_fix(text, origin.span.line, origin.span.col, "processed_logprobs", finding.fix_safety, "Set --logprobs-mode to processed_logprobs")
    if fix is None:
        return False
    line_text = text.splitlines()[origin.span.line - 1]
    start = len(line_text[: origin.span.col].encode("utf-8"))
    end_col = origin.span.end_col if origin.span.end_line in (None, origin.span.line) and origin.span.end_col is not None else len(line_text)
    span = type(origin.span)(origin.span.line, start, origin.span.line, len(line_text[:end_col].encode("utf-8")))
    message = finding.message.removesuffix(f" (set in {origin.path}, line {origin.span.line})")
    config.findings.append(replace(finding, path=config.path, span=span, message=message, fix=fix, disable_replay_fix=None))
    config.findings.sort(key=lambda f: (f.span.line, f.span.col, f.code))
    return True


def stdin_kind(stdin_name: str | None, data: bytes) -> str:
    """The front end for standard input: chosen by ``--stdin-filename`` as for a file; Python by default."""
    from vllm_lint.lint import file_kind

    if not stdin_name:
        return "python"
    return file_kind(stdin_name, data) or "python"


def _lint_all(files, resolver, jobs: int, stdin_name: str | None):
    from vllm_lint.lint import lint_bytes, lint_file
    from vllm_lint.sources import FileResult, decode_python

    results: list[FileResult] = []
    version_for = resolver.for_path
    if jobs > 1 and len(files) > 1 and all(path != "-" for path, _ in files):
        from vllm_lint.parallel import lint_parallel

        return lint_parallel(files, resolver, jobs)
    for path, kind in files:
        if path == "-":
            data = sys.stdin.buffer.read()
            name = stdin_name or "-"
            kind = stdin_kind(stdin_name, data)
            result = lint_bytes(name, data, version_for, kind)
            if result.source is None and result.error is None:  # skipped unparsed: --fix - still echoes it
                try:
                    result.source = decode_python(data) if kind == "python" else data.decode("utf-8").removeprefix("\ufeff")
                except (UnicodeDecodeError, SyntaxError, LookupError):
                    pass
            results.append(result)
            continue
        results.append(lint_file(path, version_for, kind))
    return results


def run_check(args, out=None, err=None) -> int:
    """``check``; with ``--output-file``, the report goes to that file instead of ``out``."""
    with _fewer_collections():
        return _with_output_file(args, out or sys.stdout, err or sys.stderr, _run_check)


# Collect the youngest generation after this many new objects (the interpreter's default: 700).
CHECK_GC_THRESHOLD = 20_000


@contextmanager
def _fewer_collections():
    """A run of ``check`` keeps what it imported, and each module while it is analysed, alive
    to its end: with the interpreter's default thresholds the cyclic collector walks all of it
    again and again (about a tenth of the CPU of a run on vLLM's tree).  Objects that exist
    when the run starts are frozen out of its passes (forked ``-j`` workers then share them
    too), and new ones are collected less often; cycles are still collected."""
    import gc

    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(CHECK_GC_THRESHOLD, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def _with_output_file(args, out, err, run) -> int:
    """Run a command whose report goes to ``--output-file`` when given, else to ``out``."""
    if not getattr(args, "output_file", None):
        return run(args, out, err)
    try:
        folder = os.path.dirname(os.path.abspath(args.output_file))
        os.makedirs(folder, exist_ok=True)
        handle = open(args.output_file, "w", encoding="utf-8", newline="")
    except OSError as error:
        err.write(f"vllm-lint: error: --output-file {args.output_file}: {error.strerror or error}\n")
        return EXIT_ERROR
    with handle:
        return run(args, handle, err)


def _run_check(args, out, err) -> int:
    from vllm_lint import output
    from vllm_lint.config import ConfigError
    from vllm_lint.settings import read_skipped_directives, select_findings
    from vllm_lint.sources import FileResult
    from vllm_lint.style import Style

    if not args.paths:
        args.paths = ["."]
    try:
        settings, excludes, resolver = _settings_for(args)
    except ConfigError as error:
        err.write(f"vllm-lint: error: {error}\n")
        return EXIT_ERROR
    if args.show_settings:
        return _show_settings(args, settings, excludes, resolver, out)
    if args.exit_zero and args.exit_non_zero_on_fix:
        err.write("vllm-lint: error: --exit-zero and --exit-non-zero-on-fix cannot be combined\n")
        return EXIT_ERROR
    if args.add_noqa and (args.fix or args.diff or "-" in args.paths):
        err.write("vllm-lint: error: --add-noqa edits files: it cannot be combined with --fix, --diff or - (standard input)\n")
        return EXIT_ERROR
    missing: list = []
    skipped: list[tuple[str, str]] = []
    files = discover(args.paths, excludes, args.force_exclude, missing, settings.respect_gitignore, skipped)
    if args.show_files:
        for path, _kind in sorted(files):
            out.write(f"{path}\n")
        _report_skipped(skipped, err, args.quiet)
        return EXIT_CLEAN
    _report_skipped(skipped, err, args.quiet)
    if not files and not missing and not skipped:
        if not args.quiet:
            err.write("vllm-lint: warning: no files to check under the given paths\n")
    results = [FileResult(e.path, error=e) for e in missing]
    results += _lint_all(files, resolver, max(1, args.jobs), args.stdin_filename)
    read_skipped_directives(results, settings)
    if args.force_exclude and args.stdin_filename and "-" in args.paths:
        from vllm_lint.excludes import is_excluded

        if is_excluded(args.stdin_filename, excludes):
            # Excluded like a file of that name: nothing to report, and --fix echoes the text unchanged.
            for result in results:
                if result.path == args.stdin_filename:
                    result.findings, result.error, result.noqa = [], None, None
    select_findings(results, settings)
    _report_config_values_once(results)

    if args.add_noqa:
        from vllm_lint.add_noqa import add_noqa

        return EXIT_FINDINGS if add_noqa(results, resolver.for_path, err) else EXIT_CLEAN
    if args.fix or args.diff:
        from vllm_lint.fix.apply import fix_results

        return fix_results(results, args, settings, resolver, out, err, excludes)
    if args.output_format in ("json", "json-lines") and not args.statistics:  # JSON shows each fix with its edits (libcst)
        from vllm_lint.fix.apply import attach_result_fixes
        from vllm_lint.fix.crossfile import other_files

        attach_result_fixes(results, resolver, args.fix_mode, other_files(excludes))

    human = args.output_format in ("text", "concise", "full")
    fixes = output.NO_FIXES
    if (human or args.statistics) and any(r.findings for r in results):  # which findings --fix would fix: [*]
        from vllm_lint.fix.crossfile import other_files
        from vllm_lint.fix.plan import result_offers

        fixes = output.Fixes(result_offers(results, resolver, args.fix_mode, other_files(excludes)), args.unsafe_fixes)
    style = Style.for_stream(out)
    if args.statistics:
        output.write_statistics(results, out, args.output_format, fixes, style)
    else:
        output.write(results, args.output_format, out, fixes, style)
    has_problems = any(r.findings or r.error for r in results)
    if human and not args.quiet:
        out.write(output.summary(results, fixes, style) + "\n")
    if args.exit_zero:
        return EXIT_CLEAN
    return EXIT_FINDINGS if has_problems else EXIT_CLEAN


def run_upgrade(args, out=None, err=None) -> int:
    """``upgrade``; with ``--output-file``, the report goes to that file instead of ``out``."""
    return _with_output_file(args, out or sys.stdout, err or sys.stderr, _run_upgrade)


def _run_upgrade(args, out, err) -> int:
    from vllm_lint.config import ConfigError
    from vllm_lint.settings import read_skipped_directives, select_findings, settings_for
    from vllm_lint.sources import FileResult
    from vllm_lint.upgrade import upgrade

    args.paths = args.paths or ["."]
    if "-" in args.paths:
        err.write("vllm-lint: error: upgrade rewrites files: - (standard input) is not one\n")
        return EXIT_ERROR
    options = dict(config=args.config, exclude=args.exclude, extend_exclude=args.extend_exclude, respect_gitignore=args.respect_gitignore)
    try:
        settings, excludes, resolver = settings_for(args.paths, target_version=args.to, **options)
        _, _, current = settings_for(args.paths, **options)
    except ConfigError as error:
        err.write(f"vllm-lint: error: {str(error).replace('--target-version', '--to')}\n")
        return EXIT_ERROR
    missing: list = []
    skipped: list[tuple[str, str]] = []
    files = discover(args.paths, excludes, args.force_exclude, missing, settings.respect_gitignore, skipped)
    _report_skipped(skipped, err, args.quiet)
    results = [FileResult(e.path, error=e) for e in missing]
    results += _lint_all(files, resolver, 1, None)
    read_skipped_directives(results, settings)
    select_findings(results, settings)
    _report_config_values_once(results)
    return upgrade(results, args, settings, resolver, current, excludes, out, err, _report_config_values_once)


def _report_skipped(skipped: list[tuple[str, str]], err, quiet: bool) -> None:
    """A path named on the command line and not checked is said so, with why (not an error)."""
    if quiet:
        return
    for path, reason in skipped:
        err.write(f"vllm-lint: warning: {path}: skipped: {reason}\n")


def run_rule(args, out=None) -> int:
    from vllm_lint.rules import ALL_RULES, lookup

    out = out or sys.stdout
    if args.markdown:
        out.write(rules_markdown())
        return EXIT_CLEAN
    if args.all:
        out.write("\n".join(rule_documentation(rule) for rule in ALL_RULES))
        return EXIT_CLEAN
    if not args.code:  # a table of the rules
        for rule in ALL_RULES:
            off = "; off by default" if rule.opt_in else ""
            out.write(f"{rule.code}  {rule.name:<38} {rule.summary} (vLLM {rule.versions}{off})\n")
        return EXIT_CLEAN
    rule = lookup(args.code)
    if rule is None:
        sys.stderr.write(f"vllm-lint: error: unknown rule {args.code!r}\n")
        return EXIT_ERROR
    out.write(rule_documentation(rule))
    return EXIT_CLEAN


def rule_documentation(rule) -> str:
    """What ``vllm-lint rule CODE`` prints."""
    off = " Off by default: select it with --extend-select." if rule.opt_in else ""
    return (
        f"# {rule.code} {rule.name}\n\n"
        f"vLLM versions: {rule.versions}. Fix: {rule.fix_safety or 'none'}.{off}\n\n"
        f"{rule.documentation.strip()}\n"
    )


def rules_markdown() -> str:
    """The rules reference, generated from the rule modules (``docs/rules.md``)."""
    from vllm_lint.rules import ALL_RULES

    parts = [
        "# Rules\n\n",
        "Generated by `vllm-lint rule --all --markdown` from the rule modules in `src/vllm_lint/rules/`.\n\n",
        "| code | name | summary | vLLM | fix |\n|---|---|---|---|---|\n",
    ]
    for rule in ALL_RULES:
        parts.append(
            f"| [{rule.code}](#{rule.code.lower()}) | {rule.name} | {rule.summary} | {rule.versions} | "
            f"{rule.fix_safety or 'none'} |\n"
        )
    for rule in ALL_RULES:
        body = rule.documentation.strip().replace("\n## ", "\n### ")
        if body.startswith("## "):
            body = "#" + body
        parts.append(f"\n## {rule.code}\n\n`{rule.name}` (vLLM {rule.versions})\n\n{body}\n")
    return "".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, unrecognized = parser.parse_known_args(argv)
    if unrecognized:
        # The command's own usage, not the top-level one: `check --bad-flag` is about check.
        command = parser.commands.get(args.command) if args.command else None
        (command or parser).error(f"unrecognized arguments: {' '.join(unrecognized)}")
    try:
        if args.command == "check":
            return run_check(args)
        if args.command == "rule":
            return run_rule(args)
        if args.command == "server":
            from vllm_lint.server import main as serve

            return serve()
        if args.command == "upgrade":
            return run_upgrade(args)
        if args.command == "explain":
            from vllm_lint.explain import run_explain

            return run_explain(args, sys.stdout, sys.stderr)
        parser.print_help()
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_CLEAN


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
