"""``vllm-lint upgrade --to X``: move a project's engine arguments to vLLM release X.

Every file is checked against X (as ``check --target-version X`` would), and
the arguments X renamed are rewritten with VLM301's rename fixes: Python
keywords and dict keys, shell command lines, argv lists, Dockerfiles,
Kubernetes, Helm and compose manifests, ``--config`` files.  Those fixes are
unsafe in ``check`` because the file was written for another release; asking
for the upgrade is asking for exactly them, so they apply here, and no other
fix does.  What no rename settles (an argument removed with no successor, a
successor of the opposite sense, several successors, a field of another
argument's value, any other finding on X) is listed as a manual step, with
vLLM's own deprecation text where its source has one.  ``--bump-pins``
rewrites the pins and image tags the current release was read from
(``vllm_lint.bump``).  Files are written as ``check --fix`` writes them:
atomically, keeping mode, encoding and line endings.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field

EXIT_CLEAN, EXIT_LEFT, EXIT_ERROR = 0, 1, 2
RENAME_ACTION = "rename-argument"
# An argument's sense, by its first word: ``disable_log_requests`` and ``enable_log_requests`` are opposites.
_POLARITY = re.compile(r"^(enable|disable|no|use|skip)_")


def is_rename(finding) -> bool:
    """A finding ``upgrade`` settles by itself: VLM301's documented rename, with its fix."""
    return finding.code == "VLM301" and finding.fix_action == RENAME_ACTION and finding.rename is not None


@dataclass
class Renamed:
    path: str
    line: int
    old: str
    new: str
    note: str = ""  # " (deprecated in 0.11)": the release still accepts the old name


@dataclass
class Manual:
    """A step the upgrade leaves to the user: a finding on the new release, and vLLM's words on it."""

    path: str
    finding: object
    words: str | None = None  # vLLM's deprecation text, verbatim
    sense: str | None = None  # for a successor of the opposite sense: what to write, and the new default


@dataclass
class Report:
    to: object  # Version
    renamed: list[Renamed] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    manual: list[Manual] = field(default_factory=list)
    # Arguments the release still accepts, whose successor vLLM documents but no rename writes.
    deprecated: list[Manual] = field(default_factory=list)
    bumped: list = field(default_factory=list)  # bump.PinEdit
    pins_left: list = field(default_factory=list)  # bump.PinLeft
    failures: list[tuple[str, str]] = field(default_factory=list)
    # --diff: each file's text before and after, by absolute path (renames, then bumps).
    texts: dict[str, list[str]] = field(default_factory=dict)
    sources: dict[str, list[str]] = field(default_factory=dict)  # the current release's text -> files
    # --diff: other modules the analysis reads with their renames made (read from disk again at the end).
    read_as_renamed: list[str] = field(default_factory=list)


# ------------------------------------------------------------------ vLLM's words


def rename_record(argument: str | None) -> dict | None:
    """The schema's record of what vLLM's source says replaced an argument (any release)."""
    if not argument:
        return None
    from vllm_lint.launch.schemadata import _data

    return _data().get("renames", {}).get(argument.lstrip("-").replace("-", "_"))


def opposite_sense(record: dict) -> bool:
    old, new = record.get("flag") or "", record.get("to")
    if not isinstance(new, str):
        return False
    before, after = _POLARITY.match(old.lstrip("-").replace("-", "_")), _POLARITY.match(new)
    return bool(before and after and before.group(1) != after.group(1))


def sense_note(record: dict, to, command_line: bool) -> str:
    """What an argument of the opposite sense becomes on release ``to``: the successor's negative
    form when the release has one, and the successor's default there when vLLM's data records it."""
    from vllm_lint.launch.schema import schema_for

    new = record["to"]
    new_flag = record.get("to_flag") or "--" + new.replace("_", "-")
    release = schema_for(to)
    negative = "--no-" + new_flag[2:]
    if command_line:
        same = f"{record['flag']} is {negative}" if release.has_option(negative) else f"{record['flag']} is {new_flag} off"
    else:
        same = f"{record['old_name']}=True is {new}=False"
    release_text = f"vLLM {to.major}.{to.minor}"
    default = successor_default(new, to)
    old = record["flag"] if command_line else record["old_name"]
    if default is None:
        after = f"{release_text}'s default for {new} is not recorded here (`vllm serve --help` shows it)"
    elif default is False:
        after = f"{new} is off by default in {release_text}: removing {old} keeps its meaning"
    else:
        after = f"{new} defaults to {default!r} in {release_text}"
    return f"the successor has the opposite sense: {same}; {after}"


def successor_default(name: str, to) -> object:
    """The default vLLM's config code gives an argument on a release (from the start-up checks' data)."""
    from vllm_lint.rules.startup_checks import _release_data

    data = _release_data(to)
    entry = (data or {}).get("arguments", {}).get(name) if data else None
    return entry.get("default") if isinstance(entry, dict) else None


def manual_step(result, finding, to) -> Manual:
    record = rename_record(finding.argument) if finding.code == "VLM301" else None
    step = Manual(result.path, finding)
    if record is not None:
        step.words = record.get("message")
        if opposite_sense(record):
            record = dict(record, old_name=finding.argument)
            step.sense = sense_note(record, to, not result.is_python)
    return step


# ------------------------------------------------------------------ the command


def upgrade(results, args, settings, resolver, current, excludes, out, err, merge) -> int:
    """Rename, bump and report over the linted ``results`` (checked against ``--to``).

    ``current``: the resolver of the release each file runs on now; ``merge``: how a run's
    results are reconciled across files as ``check`` does (a ``--config`` file's own finding)."""
    report = Report(settings.target_version)
    for result in results:
        if result.error is None and result.findings:  # the files with an engine the release matters to
            for source in _runs_on(result, current):
                report.sources.setdefault(source, []).append(result.path)
    new_texts = _rename_all(results, args, settings, resolver, excludes, report, err)
    _rename_deprecated(results, new_texts, args, settings, current, report)
    if args.bump_pins:
        from vllm_lint.bump import bump_pins

        bump_pins([r.path for r in results if r.error is None], current, report, args.to, args.diff)
    _left(results, new_texts, settings, resolver, report, args.diff, merge)
    if report.read_as_renamed:
        from vllm_lint.python import project_modules

        for path in report.read_as_renamed:
            project_modules().replace_text(path, None)
    return _write_report(report, args, out, err)


def deprecated_in(to) -> dict[tuple[int, int], set[str]]:
    """The arguments release ``to`` still accepts while vLLM's text on it documents their
    successor (``--cuda-graph-sizes`` in 0.11 and 0.12), by the first known release that drops
    them: checked against that release, VLM301 offers their renames."""
    from vllm_lint.launch.schema import option_releases, schema_for
    from vllm_lint.launch.schemadata import _data, releases

    release = (to.major, to.minor)
    found: dict[tuple[int, int], set[str]] = {}
    for old, record in _data().get("renames", {}).items():
        documented = [tuple(int(part) for part in text.split(".")) for text in record.get("documented", ())]
        flag = record.get("flag")
        if not documented or not flag or not documented[0] <= release <= documented[-1]:
            continue
        if flag not in schema_for(to).options:
            continue  # gone already: the first pass renamed it
        present = set(option_releases(flag))
        dropped = [later for later in releases() if later > release and later not in present]
        if dropped:
            found.setdefault(dropped[0], set()).add(old)
    return found


def _rename_deprecated(results, new_texts, args, settings, current, report: Report) -> None:
    """Rename the arguments ``--to`` still accepts but vLLM documents as replaced (a second pass,
    over the text the first one left): each is checked against the first release that drops it,
    and only its rename, to a successor ``--to`` has, is applied."""
    from vllm_lint.config import VersionResolver
    from vllm_lint.fix.apply import fix_python_result, fix_text_result
    from vllm_lint.fix.encoding import decode_python, decode_text
    from vllm_lint.launch.schema import documented_rename, schema_for
    from vllm_lint.lint import lint_bytes
    from vllm_lint.settings import select_findings
    from vllm_lint.versions import Version

    to = report.to
    target = schema_for(to)
    for dropped, names in sorted(deprecated_in(to).items()):
        fixable = {name for name in names if (rename := documented_rename(name, target)) is not None and rename.fix}
        spellings = {spelled for name in names for spelled in (name, "--" + name.replace("_", "-"))}
        later = Version(*dropped)
        resolver = VersionResolver(later, f"vLLM {later.major}.{later.minor}", current.pass_through, current.server_images)

        def chosen(finding, names=fixable) -> bool:
            return is_rename(finding) and (finding.argument or "").lstrip("-").replace("-", "_") in names

        def by_hand(finding, names=names - fixable) -> bool:
            return finding.code == "VLM301" and (finding.argument or "").lstrip("-").replace("-", "_") in names

        for result in results:
            if result.error is not None or result.source is None or result.kind == "notebook":
                continue
            text = new_texts.get(result.path, result.source)
            if not any(spelled in text for spelled in spellings):
                continue
            linted = lint_bytes(result.path, text.encode("utf-8"), resolver.for_path, result.kind)
            if linted.error is not None or linted.source is None:
                continue
            select_findings([linted], settings)
            keys = attach_key_renames(linted, later) if result.kind in KEY_KINDS else set()
            for finding in linted.findings:
                if by_hand(finding):
                    report.deprecated.append(manual_step(linted, finding, to))
            if not any(chosen(f) for f in linted.findings):
                continue
            try:
                if result.is_python:
                    fixed = fix_python_result(linted, later, settings, True, "keep-replay", True, None, only=chosen)
                else:
                    fixed = fix_text_result(linted, resolver.for_path, settings, True, "keep-replay", True, only=chosen)
            except (OSError, UnicodeError, SyntaxError, LookupError) as error:
                report.failures.append((result.path, f"cannot rewrite: {error}"))
                continue
            if fixed.error is None and not args.diff:
                try:  # written as the file on disk is encoded, if it still holds the text read
                    with open(result.path, "rb") as handle:
                        fixed.data = handle.read()
                    fixed.encoded = (decode_python(fixed.data) if result.is_python else decode_text(fixed.data))[1]
                except (OSError, UnicodeError, SyntaxError, LookupError) as error:
                    report.failures.append((result.path, f"cannot rewrite: {error}"))
                    continue
            if _settle(result, fixed, args, report, keys, f" (deprecated in {to.major}.{to.minor})"):
                new_texts[result.path] = fixed.new_text


def _settle(result, fixed, args, report: Report, keys: set[int], note: str, elsewhere=None) -> bool:
    """Write a renamed file (with ``--diff``, keep its texts for the diff) and record its renames;
    False when it is left unchanged (the reason is among the report's failures)."""
    from vllm_lint.fix.apply import FileChanged, _write_fixed
    from vllm_lint.fix.crossfile import display_path

    if (
        fixed.error is None
        and result.kind in ("yaml", "toml")
        and not _parses(result.kind, fixed.new_text)
        and _parses(result.kind, fixed.old_text)  # a Helm template is no YAML before either
    ):
        fixed.error = f"the renamed {result.kind.upper()} does not parse"
    if fixed.error is not None:
        report.failures.append((result.path, f"{fixed.error}; file left unchanged"))
        return False
    if not fixed.changed:
        return False
    if args.diff:
        from vllm_lint.python import project_modules

        if elsewhere is not None:
            elsewhere.forget()
        if fixed.new_text != fixed.old_text:
            _keep_diff(report, result.path, fixed.old_text, fixed.new_text)
        for other in fixed.others:
            _keep_diff(report, other.path, other.old_text, other.new_text)
            project_modules().replace_text(other.path, other.new_data)  # read as --fix would leave it
            report.read_as_renamed.append(other.path)
    else:
        try:
            _write_fixed(result.path, fixed)
        except FileChanged as changed:
            if elsewhere is not None:
                elsewhere.forget()
            report.failures.append((str(changed), "changed on disk since it was read; not overwritten"))
            return False
        except OSError as error:
            if elsewhere is not None:
                elsewhere.forget()
            report.failures.append((result.path, f"cannot write: {error.strerror or error}"))
            return False
    edited = [result.path] if fixed.new_text != fixed.old_text else []
    for path in edited + [display_path(other.path) for other in fixed.others]:
        if path not in report.changed:
            report.changed.append(path)
    for finding in fixed.fixed:
        rename = finding.rename
        command_line = not result.is_python and id(finding) not in keys
        name = "--" + rename.old.replace("_", "-") if command_line else rename.old
        report.renamed.append(Renamed(result.path, finding.span.line, name, rename.spelled(command_line), note))
    return True


def _keep_diff(report: Report, path: str, old: str, new: str) -> None:
    """``--diff``: a file's text before the run (kept from its first change) and after."""
    absolute = os.path.abspath(path)
    report.texts[absolute] = [report.texts.get(absolute, [old])[0], new]


def _parses(kind: str, text: str) -> bool:
    """A renamed YAML or TOML file still parses (the edits are checked one by one before; this is the whole)."""
    try:
        if kind == "toml":
            if sys.version_info >= (3, 11):
                import tomllib
            else:  # pragma: no cover - exercised on Python 3.10
                import tomli as tomllib
            tomllib.loads(text)
        else:
            import yaml

            for _ in yaml.safe_load_all(text):
                pass
    except Exception:  # noqa: BLE001 - any parser error means the same: do not write it
        return False
    return True


def _runs_on(result, current) -> list[str]:
    """The releases a file's engines run on now, and where each is named: its launches' images or
    installs when they name one, else the file's pins."""
    found = []
    if result.kind not in (None, "python", "notebook"):
        from vllm_lint.commandline import launch_release_places

        found = [f"{version.releases_text} (from {where})" for version, where, _ in launch_release_places(result.path, result.kind, current.for_path)]
    if not found:
        target = current.for_path(result.path)
        found = [f"{target[0].releases_text} (from {target.origin or target[1]})"]
    return list(dict.fromkeys(found))


def _rename_all(results, args, settings, resolver, excludes, report: Report, err) -> dict[str, str]:
    """Apply the renames file by file; the new text of each file changed (written unless ``--diff``)."""
    from vllm_lint.fix.apply import FileChanged, fix_python_result, fix_text_result
    from vllm_lint.fix.crossfile import other_files

    new_texts: dict[str, str] = {}
    for result in results:
        keys: set[int] = set()
        if result.error is None and result.source is not None and result.kind in KEY_KINDS:
            keys = attach_key_renames(result, report.to)
        if result.error is not None or not any(is_rename(f) for f in result.findings):
            continue
        if result.kind == "notebook":
            if not args.quiet:
                err.write(f"vllm-lint: warning: {result.path}: notebooks are not rewritten; its renames are listed as manual steps\n")
            continue
        elsewhere = other_files(excludes)
        try:
            if result.is_python:
                version, _ = resolver.for_path(result.path)
                fixed = fix_python_result(result, version, settings, True, "keep-replay", False, elsewhere, only=is_rename)
            else:
                fixed = fix_text_result(result, resolver.for_path, settings, True, "keep-replay", False, only=is_rename)
        except FileChanged:
            elsewhere.forget()
            report.failures.append((result.path, "changed on disk since it was read; not overwritten"))
            continue
        except (OSError, UnicodeError, SyntaxError, LookupError) as error:
            elsewhere.forget()
            report.failures.append((result.path, f"cannot rewrite: {error}"))
            continue
        if _settle(result, fixed, args, report, keys, "", elsewhere):
            new_texts[result.path] = fixed.new_text
    return new_texts


# Front ends whose framework configs write vLLM's arguments as keys (YAML, TOML, Hydra overrides in scripts).
KEY_KINDS = ("yaml", "toml", "shell")


def attach_key_renames(result, to) -> set[int]:
    """A framework hands keys of its config to vLLM verbatim (verl's ``engine_kwargs.vllm``,
    prime-rl's ``[inference.vllm]``, NeMo-RL's ``vllm_kwargs``): a key X renamed is renamed where
    it is written, as ``key: value``, ``key = value`` or a Hydra override ``...key=value``.  An
    on/off key whose successor takes a value is rewritten only when it is written ``true``; a key
    whose successor is already written anywhere in the file is left (it would be given twice)."""
    from vllm_lint.findings import Edit, Fix
    from vllm_lint.fix.structure import KINDS as STRUCTURED
    from vllm_lint.fix.structure import reviewed
    from vllm_lint.launch.schema import documented_rename, python_literal, schema_for

    lines = result.source.splitlines()
    release = schema_for(to)
    attached: set[int] = set()
    for finding in result.findings:
        if finding.code != "VLM301" or finding.fix is not None or not finding.argument:
            continue
        rename = documented_rename(finding.argument, release)
        if rename is None or rename.fix is None or not 0 < finding.span.line <= len(lines):
            continue
        line = lines[finding.span.line - 1]
        key = re.compile(rf"(?<![\w-]){re.escape(finding.argument)}(?P<sep>\s*[:=]\s*)(?P<value>[^\s,#}}\]]*)")
        match = key.search(line, min(finding.span.col, len(line)))
        if match is None or re.search(rf"(?<![\w-]){re.escape(rename.new)}\s*[:=]", result.source):
            continue
        end = match.start("sep")
        content = rename.new
        if rename.fix == "value":
            if match.group("value") not in ("true", "True"):
                continue
            end = match.end("value")
            value = python_literal(rename.value) if result.kind == "toml" else rename.value  # TOML quotes a word
            content = f"{rename.new}{match.group('sep')}{value}"
        edit = Edit((finding.span.line, match.start() + 1), (finding.span.line, end + 1), content)
        fix = Fix("unsafe", f"Replace {finding.argument} with {rename.spelled(False)}", [edit])
        if result.kind in STRUCTURED and reviewed(result.kind, result.source, fix) is None:
            continue  # the file would not parse to the same structure but for the key: left by hand
        finding.fix = fix
        finding.fix_action, finding.fix_safety, finding.rename = RENAME_ACTION, "unsafe", rename
        attached.add(id(finding))
    return attached


def _left(results, new_texts, settings, resolver, report: Report, diff_only: bool, merge) -> None:
    """What ``check --target-version X`` reports once the renames are made: the manual steps."""
    from vllm_lint.lint import lint_bytes
    from vllm_lint.settings import select_findings

    after = []
    for result in results:
        text = new_texts.get(result.path)
        if text is None or result.error is not None:
            after.append(result)
            continue
        data = text.encode("utf-8") if diff_only else _on_disk(result.path, text)
        after.append(lint_bytes(result.path, data, resolver.for_path, result.kind))
    select_findings(after, settings)
    merge(after)
    for result in after:
        for finding in result.findings:
            report.manual.append(manual_step(result, finding, report.to))
        if result.error is not None:
            report.failures.append((result.path, result.error.text))


def _on_disk(path: str, text: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return text.encode("utf-8")


# ------------------------------------------------------------------ the report


def _write_steps(steps: list[Manual], stream, with_message: bool = True) -> None:
    for step in sorted(steps, key=lambda s: (s.path, s.finding.span.line, s.finding.span.col, s.finding.code)):
        finding = step.finding
        cell = f"cell {finding.cell}:" if finding.cell is not None else ""
        where = f"  {step.path}:{cell}{finding.span.line}:{finding.span.col + 1}:"
        if with_message:
            stream.write(f"{where} {finding.code} {finding.message}\n")
        else:
            stream.write(f"{where} {finding.message.split(' ', 1)[0]}\n")
        if step.sense:
            stream.write(f"      {step.sense}\n")
        if step.words:
            stream.write(f"      vLLM: {step.words}\n")


def _write_report(report: Report, args, out, err) -> int:
    from vllm_lint.output import plural

    to = report.to
    target = f"{to.major}.{to.minor}"
    stream = err if args.diff else out
    from vllm_lint.fix.apply import unified_diff
    from vllm_lint.fix.crossfile import display_path

    for path, (old, new) in sorted(report.texts.items()):
        out.write(unified_diff(display_path(path), old, new))
    for path, reason in report.failures:
        err.write(f"vllm-lint: error: {path}: {reason}\n")
    verb = "Would rename" if args.diff else "Renamed"
    if not args.quiet:
        for source, files in sorted(report.sources.items()):
            stream.write(f"vLLM {source} -> {target}: {plural(len(set(files)), 'file')}\n")
        if report.renamed:
            stream.write(f"{verb}:\n")
            for item in sorted(report.renamed, key=lambda item: (item.path, item.line)):
                stream.write(f"  {item.path}:{item.line}: {item.old} -> {item.new}{item.note}\n")
        if report.bumped:
            stream.write(f"{'Would bump' if args.diff else 'Bumped'}:\n")
            for edit in sorted(report.bumped, key=lambda edit: (edit.path, edit.line)):
                stream.write(f"  {edit.path}:{edit.line}: {edit.old} -> {edit.new}\n")
    if report.pins_left and not args.quiet:
        stream.write("Pins left as they are:\n")
        for left in report.pins_left:
            stream.write(f"  {left.path}:{left.line}: {left.text} ({left.why})\n")
    manual_at = {(step.path, step.finding.span.line, step.finding.span.col) for step in report.manual}
    report.deprecated = [s for s in report.deprecated if (s.path, s.finding.span.line, s.finding.span.col) not in manual_at]
    if report.deprecated and not args.quiet:
        stream.write(f"Deprecated in vLLM {target}, still accepted (vLLM documents a successor no rename writes):\n")
        _write_steps(report.deprecated, stream, with_message=False)
    if report.manual:
        stream.write(f"Manual steps for vLLM {target}:\n")
        _write_steps(report.manual, stream)
    files = len(set(report.changed) | {edit.path for edit in report.bumped})
    would = "would be " if args.diff else ""
    stream.write(
        f"{plural(files, 'file')} {would}changed, {plural(len(report.renamed), 'argument')} {would}renamed, "
        f"{plural(len(report.bumped), 'pin')} {would}bumped, {plural(len(report.manual), 'manual step')} left.\n"
    )
    if report.failures:
        return EXIT_LEFT
    if args.diff and report.texts:
        return EXIT_LEFT
    return EXIT_LEFT if report.manual else EXIT_CLEAN
