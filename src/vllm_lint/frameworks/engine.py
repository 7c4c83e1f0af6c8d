"""The one engine every pack runs on: merge a framework config, build facts, check, report.

A config file linted on its own reports everything its merged config breaks
(its keys, the files its ``defaults:`` list names, the framework's defaults).
A launch command reports only what its own overrides decide (the replay switch
or the offending value); the config file it names reports the rest.
"""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path

from vllm_lint.facts import UNKNOWN, Span
from vllm_lint.findings import Finding
from vllm_lint.frameworks.build import backend_is_other, build
from vllm_lint.frameworks.defaults import default_tree
from vllm_lint.frameworks.pack import Applied, Pack, PackError
from vllm_lint.frameworks.tree import ConfigTree, resolve_interpolations, toml_tree, yaml_file_tree, yaml_tree
from vllm_lint.launch.words import Source

class ConfigSyntaxError(Exception):
    def __init__(self, reason: str, line: int = 1, col: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.col = col


def _read_tree(text: str, kind: str, source, file_path: str | None, mount: str = "") -> ConfigTree:
    if kind == "toml":
        return toml_tree(text, source, file_path, mount)
    return yaml_tree(text, source, file_path, mount)


def _parse_own(source, kind: str, mount: str) -> ConfigTree:
    try:
        return _read_tree(source.text, kind, source, None, mount)
    except ValueError as error:  # tomllib.TOMLDecodeError
        raise ConfigSyntaxError(f"invalid TOML: {error}") from None
    except Exception as error:  # yaml.YAMLError
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise ConfigSyntaxError(f"invalid YAML: {problem} (line {line})", line, mark.column if mark else 0) from None


def _mount_of(pack: Pack, path: str) -> str | None:
    normalized = os.path.abspath(path).replace(os.sep, "/")
    for relative, mount in pack.own_configs.items():
        if normalized.endswith("/" + relative):
            return mount
    return None


def _target(pack: Pack, version, version_source: str, path: str):
    """The project's target version, or the framework's pinned vLLM when the project names none."""
    from vllm_lint.frameworks.defaults import framework_vllm
    from vllm_lint.versions import Version, VersionError

    if not version_source.startswith("the newest"):
        return version, ""
    pinned, why = framework_vllm(pack, path)
    if pinned is None:
        return version, ""
    try:
        return Version.parse(pinned), why
    except VersionError:
        return version, ""


def config_findings(source, path: str, kind: str, version, packs: list[Pack], version_source: str = "") -> tuple[list[Finding], list[Applied]]:
    findings: list[Finding] = []
    applied: list[Applied] = []
    parsed: dict[str, ConfigTree] = {}
    for pack in packs:
        if kind not in pack.formats:
            continue
        mount = _mount_of(pack, path)
        if (mount or "") not in parsed:
            parsed[mount or ""] = _parse_own(source, kind, mount or "")
        own = parsed[mount or ""]
        if mount is not None:
            reason = f"the file is {pack.name}'s own config, read at '{mount or '(root)'}'"
        elif pack.declared_in and pack.matches_glob(_relative_to(path, pack.declared_in)):
            reason = f"the file matches the globs declared in {pack.declared_in}"
        else:
            key = pack.detects(own.entries)
            named = None if key is not None else _names_framework_config(pack, own.defaults_list)
            if key is None and named is None:
                continue
            reason = f"it has the key path {key}" if key is not None else f"its defaults list names {named}"
        via: dict = {}
        tree, defaults_from = _merged(pack, own, path, kind, mount or "", via)
        pack = _for_backend(pack, tree)
        target, pinned_by = _target(pack, version, version_source, path)
        reason += _backend_note(pack)
        applied.append(Applied(pack.name, reason + (f"; target vLLM from {pinned_by}" if pinned_by else ""), defaults_from))
        anchor = _first_key_span(own)
        replay = _replay_entry(pack, tree)
        index = -1
        if replay is not None and replay.provenance == "default":
            index = via.get("framework", -1)  # the framework's own config, named in the defaults list
        elif replay is not None and replay.path is not None:
            index = via.get("item", {}).get(replay.path, -1)  # switched on in a config the defaults list composes
        if 0 <= index < len(own.defaults_spans) and own.defaults_spans[index] is not None:
            anchor = own.defaults_spans[index]
        findings.extend(_check(pack, tree, source, target, anchor_default=anchor, launch=False))
    return findings, applied


def _for_backend(pack: Pack, tree: ConfigTree) -> Pack:
    """The pack for the backend the config certainly chooses (NeMo-RL's ``dynamo``), else the pack."""
    if not pack.variants or not pack.backend:
        return pack
    entry = tree.get(pack.backend["key"])
    return pack.for_backend(entry.value) if entry is not None else pack


def _backend_note(pack: Pack) -> str:
    return f"; {pack.backend['key']} is {pack.backend_of} ({pack.read_from})" if pack.backend_of is not None else ""


def _names_framework_config(pack: Pack, entries) -> str | None:
    """The framework's primary config or one of its config groups, when a ``defaults:`` list names it."""
    if not isinstance(entries, list):
        return None
    groups = {key.rsplit("/", 1)[0] for key in pack.groups}
    for item in entries:
        if isinstance(item, str) and item.strip() in pack.launchers.get("config_names", []):
            return item.strip()
        if isinstance(item, dict) and len(item) == 1:
            key = str(next(iter(item))).replace("override ", "").strip()
            group, _, package = key.partition("@")
            if group.lstrip("/") in groups and package in pack.groups.values():
                return key
    return None


def _relative_to(path: str, pyproject: str) -> str:
    return os.path.relpath(os.path.abspath(path), os.path.dirname(pyproject)).replace(os.sep, "/")


def _first_key_span(tree: ConfigTree) -> Span:
    spans = [entry.key_span for entry in tree.entries.values() if entry.key_span is not None]
    return min(spans, key=lambda s: (s.line, s.col)) if spans else Span(1, 0)


def _merged(pack: Pack, own: ConfigTree, path: str, kind: str, mount: str = "", via: dict | None = None) -> tuple[ConfigTree, str]:
    tree, defaults_from = _merged_unresolved(pack, own, path, None, mount, via=via)
    resolve_interpolations(tree)
    return tree, defaults_from


def _check(pack: Pack, tree: ConfigTree, source, version, anchor_default: Span, launch: bool, sends_requests: bool = True) -> list[Finding]:
    from vllm_lint.checker import check_facts
    from vllm_lint.frameworks.report import decorate

    built = _built(pack, tree, anchor_default)
    if built is not None and not sends_requests:
        # An entry point that serves the engines (or samples with other parameters): the
        # config's request settings are not what reaches them.
        built.requests, built.request_decided = [], []
    if _explained is not None:
        _explained.append((pack, built, version))
    if built is None:
        return []
    result = []
    # Each request is checked on its own so that a finding names the keys of its own group.
    batches = [(check_facts([built.engine], [], version), built.decided_by)]
    for request, decided in zip(built.requests, built.request_decided):
        batches.append((check_facts([], [request], version), {**built.decided_by, **decided}))
    seen = set()
    for findings, decided in batches:
        for finding in findings:
            told = decorate(finding, pack, decided, source, only_written_here=launch)
            key = None if told is None else (told.code, told.span.line, told.span.col, told.message)
            if told is not None and key not in seen:
                seen.add(key)
                result.append(told)
    result.sort(key=lambda f: (f.span.line, f.span.col, f.code))
    return result


def _built(pack: Pack, tree: ConfigTree, anchor_default: Span):
    """The engine and requests a merged config builds; None when it runs another backend than vLLM."""
    if backend_is_other(pack, tree):
        return None
    if pack.switches:
        from vllm_lint.frameworks.switches import apply_switches

        apply_switches(pack, tree)
    anchor = anchor_default
    replay = _replay_entry(pack, tree)
    if replay is not None and replay.key_span is not None and replay.path is None:
        anchor = replay.key_span
    return build(pack, tree, anchor)


# ``vllm-lint explain`` only: while a list, every engine a pack builds is added to it as
# (pack, Built or None for another backend, target version), in the order packs apply.
_explained: list | None = None


def config_engines(source, path: str, kind: str, version, packs: list[Pack], version_source: str = "") -> list[tuple]:
    """The engine each applying pack builds from a config file: (pack, ``Built``, target version, ``Applied``)."""
    return _collected(config_findings, source, path, kind, version, packs, version_source)


def launch_engines(words, source, path: str, version, span_of=None, fallback: Span | None = None, version_source: str = "") -> list[tuple]:
    """The engine a framework launch builds: [(pack, ``Built``, target version, ``Applied``)]."""
    return _collected(launch_findings, words, source, path, version, span_of, fallback, version_source)


def _collected(lint, *arguments) -> list[tuple]:
    global _explained
    saved, _explained = _explained, []
    try:
        _, applied = lint(*arguments)
        built = _explained
    finally:
        _explained = saved
    return [(pack, engine, target, applying) for (pack, engine, target), applying in zip(built, applied) if engine is not None]


def _replay_entry(pack: Pack, tree: ConfigTree):
    """The entry that decides ``return_sampling_mask`` (the last engine mapping that sets it)."""
    found = None
    for spec in pack.engine:
        key = spec.get("key") if spec.get("arg") == "return_sampling_mask" else (
            f"{spec['prefix']}.return_sampling_mask" if "prefix" in spec else None
        )
        entry = tree.get(key) if key else None
        if entry is not None:
            found = entry
    return found


# ------------------------------------------------------------- launches


def _launch_pack(words, path: str | None = None) -> tuple[Pack, int, bool, str | None] | None:
    """The pack whose entry point the command runs, the index of its first argument, whether
    the entry point sends the config's requests (a training loop) or only builds the engines,
    and the entry point's source file when it was found in the framework's or project's source."""
    from vllm_lint.frameworks.entry_points import composes_config, script_composes, sends_requests
    from vllm_lint.frameworks.packs import BUILTIN, load_pack
    from vllm_lint.frameworks.user import declared_packs

    from vllm_lint.frameworks.pack import PackError

    try:
        declared = declared_packs(path)
    except PackError:
        declared = []  # the declared pack's diagnostic comes with its config files
    texts = [w.text for w in words]
    for pack in [load_pack(name) for name in BUILTIN] + declared:
        for index, text in enumerate(texts):
            if text is None:
                # ``$ROOT/examples/run_grpo.py``: a script known by the end of its path.
                tail = words[index].suffix
                if tail.startswith("/") and any(fnmatch.fnmatch(tail, "*/" + pattern) for pattern in pack.scripts):
                    return pack, index + 1, True, None
                found = script_composes(pack, tail.strip("/"), path) if tail.startswith("/") else None
                if found:
                    return pack, index + 1, sends_requests(pack, found), found
                continue
            if text == "-m" and index + 1 < len(texts) and texts[index + 1] is not None:
                module = texts[index + 1]
                if module in pack.modules:
                    return pack, index + 2, True, None
                if module in pack.launchers.get("engine_modules", []):
                    return pack, index + 2, False, None
                found = composes_config(pack, module, path)
                if found:
                    return pack, index + 2, sends_requests(pack, found), found
            if any(fnmatch.fnmatch(text, pattern) or fnmatch.fnmatch(text, "*/" + pattern) for pattern in pack.scripts):
                return pack, index + 1, True, None
            found = script_composes(pack, text, path) if _runs_script(texts, index) else None
            if found:
                return pack, index + 1, sends_requests(pack, found), found
            # A console script: the command itself, or run through ``uv run``.
            if text in pack.launchers.get("commands", []) and (index == 0 or texts[max(0, index - 2):index] == ["uv", "run"]):
                return pack, index + 1, text not in pack.launchers.get("engine_commands", []), None
    return None


def _runs_script(texts, index: int) -> bool:
    """Whether the word at ``index`` is the script a ``python``/``uv run`` command runs."""
    text = texts[index]
    if not text.endswith(".py") or index == 0:
        return False
    before = [t for t in texts[:index] if t is not None]
    return any(t == "run" or t.rsplit("/", 1)[-1].startswith("python") for t in before)


_CONFIG_OPTIONS = ("--config-name", "-cn", "--config-path", "-cp", "--config", "--config-dir", "-cd", "--config_name", "--config_path")


def launch_findings(words, source, path: str, version, span_of=None, fallback: Span | None = None, version_source: str = "") -> tuple[list[Finding], list[Applied]]:
    """``span_of(word, first, last)`` locates part of a word (default: offsets in ``source``);
    ``source`` None means the words are not text a fix can edit (a Python argv list)."""
    from vllm_lint.frameworks.overrides import apply_overrides

    found = _launch_pack(words, path)
    if found is None:
        return [], []
    pack, first, sends_requests, entry_file = found
    if pack.launchers.get("style") in ("pydantic-config", "argparse"):
        return _cli_launch(pack, words, first, source, path, version, span_of, fallback, version_source, sends_requests)
    options: dict[str, str | None] = {}
    rest = []
    skip = False
    arguments = words[first:]
    for index, word in enumerate(arguments):
        if skip:
            skip = False
            continue
        text = word.text or ""
        name, eq, value = text.partition("=")
        if name in _CONFIG_OPTIONS:
            if eq:
                options[name] = value if word.known else None
            else:
                following = arguments[index + 1] if index + 1 < len(arguments) else None
                options[name] = following.text if following is not None and following.known else None
                skip = True
            continue
        rest.append(word)
    if entry_file is not None:
        options = _entry_config(pack, entry_file, options)
    choices = _group_choices(rest)
    tree, defaults_from, used = _launch_base(pack, options, path, choices)
    chosen_words = {_choice_key(word): word for word in rest if _choice_key(word) in used}
    rest = [word for word in rest if _choice_key(word) not in used]

    locate = span_of or _word_locator(source)
    _attribute_to_choices(tree, chosen_words, locate)
    apply_overrides(tree, rest, source, locate)
    resolve_interpolations(tree)
    return _launch_checked(
        pack, tree, words[:first], locate, source, fallback, version, version_source, path, defaults_from, sends_requests
    )


def _launch_checked(
    pack: Pack, tree, entry_words, locate, source, fallback, version, version_source: str, path: str, defaults_from: str,
    sends_requests: bool = True,
):
    """The findings of a launch's merged config, anchored at the command that runs the entry point."""
    anchor = next((span for span in (locate(w, 0, len(w.text or "")) for w in entry_words) if span is not None), None)
    anchor = anchor or fallback or Span(1, 0)
    pack = _for_backend(pack, tree)
    target, pinned_by = _target(pack, version, version_source, path)
    findings = _check(pack, tree, source, target, anchor, launch=True, sends_requests=sends_requests)
    reason = f"the command on line {anchor.line} runs its entry point" + _backend_note(pack) + (f"; target vLLM from {pinned_by}" if pinned_by else "")
    return findings, [Applied(pack.name, reason, defaults_from)]


def _word_locator(source):
    """Where a word's characters ``[first, last)`` are written in ``source`` (else the whole word)."""

    def locate(word, first_char: int, last_char: int):
        sub = word.sub_offsets(first_char, last_char)
        if sub is not None:
            return source.span(*sub)
        if word.located:
            return source.span(word.start, word.end)
        return None

    return locate


def _cli_launch(
    pack: Pack, words, first: int, source, path: str, version, span_of, fallback, version_source: str, sends_requests: bool = True
):
    """A launch whose options are dotted ``--key value`` pairs and ``@ file`` configs (prime-rl)."""
    from vllm_lint.frameworks.overrides import apply_cli_options

    locate = span_of or _word_locator(source)
    base_dir = os.path.dirname(os.path.abspath(path))

    def read_file(name: str, mount: str):
        for root in [base_dir, *Path(base_dir).parents][:4]:
            file = os.path.join(root, name)
            if os.path.isfile(file):
                try:
                    text = Path(file).read_text(encoding="utf-8")
                    return toml_tree(text, Source(file, text), os.path.relpath(file), mount)
                except (OSError, UnicodeDecodeError, ValueError):
                    return None
        return None

    tree, defaults_from = default_tree(pack, path)
    command = words[first - 1].text if first > 0 else None
    apply_cli_options(tree, words[first:], locate, read_file, pack.launchers.get("mounts", {}).get(command, ""))
    return _launch_checked(
        pack, tree, words[:first], locate, source, fallback, version, version_source, path, defaults_from, sends_requests
    )


_CHOICE = re.compile(r"^([A-Za-z_./][\w./\-]*(?:@[\w.\-]+)?)=(.*)$", re.S)


def _choice_key(word) -> str | None:
    """The ``group`` or ``group@pkg`` of an override that may choose a config group option."""
    match = _CHOICE.match(word.text or "") if word.known else None
    if match is None:
        return None
    key = match.group(1)
    return key if ("@" in key or "/" in key or "." not in key) else None


def _attribute_to_choices(tree: ConfigTree, words: dict, locate) -> None:
    """Keys of a group option the command line chose are decided by that override token."""
    chosen = tree.chosen_by
    if not chosen:
        return
    for entry in tree.entries.values():
        choice = chosen.get(entry.path) if entry.path is not None else None
        word = words.get(choice)
        if word is None:
            continue
        span = locate(word, 0, len(word.text))
        entry.why = f"from {entry.path}, chosen by {word.text}"
        entry.key_span, entry.value_span, entry.path = span, None, None
        entry.provenance, entry.written_as, entry.word = "override", choice, word


def _group_choices(words) -> dict:
    from vllm_lint.frameworks.overrides import parse_value

    choices = {}
    for word in words:
        key = _choice_key(word)
        if key is not None:
            choices[key] = parse_value(word.text.split("=", 1)[1])
    return choices


def _entry_config(pack: Pack, entry_file: str, options: dict) -> dict:
    """The config options as Hydra reads them for an entry point found in source: its own
    config when the command names none; a named one in the module's ``config_path``, or in a
    ``--config-path`` relative to the module."""
    from vllm_lint.frameworks.entry_points import hydra_config_file, hydra_main, own_config

    names = ("--config-name", "-cn", "--config", "--config_name")
    folders = ("--config-path", "-cp", "--config_path")
    named = next((key for key in names if key in options), None)
    if named is None:
        if any(key in options for key in folders):
            return options  # another folder, the same name: not followed further
        file = own_config(pack, entry_file)
        return options if file is None else {**options, "--config-name": file}
    if options[named] is None:
        return options
    main = hydra_main(entry_file)
    folder_key = next((key for key in folders if key in options), None)
    folder = options[folder_key] if folder_key else (main[0] if main else None)
    file = hydra_config_file(entry_file, folder, options[named]) if folder else None
    if file is None:
        return options
    return {key: value for key, value in options.items() if key not in folders} | {named: file}


def _launch_base(pack: Pack, options: dict, path: str, choices: dict) -> tuple[ConfigTree, str, set]:
    """The config the launch composes over: the named config file when it can be read, else the framework's own;
    and the overrides that chose config group options."""
    from vllm_lint.frameworks.hydra import choose_over_recorded

    names = ("--config-name", "-cn", "--config", "--config_name")
    named = next((options[key] for key in names if key in options), None)
    if not any(key in options for key in names):
        tree, why = default_tree(pack, path)
        return tree, why, choose_over_recorded(pack, tree, choices, path)
    tree, why, used = _named_base(pack, options, path, named, choices)
    return tree, why, used


def _named_base(pack: Pack, options: dict, path: str, named, choices: dict) -> tuple[ConfigTree, str, set]:
    from vllm_lint.frameworks.hydra import choose_over_recorded

    def recorded(result):
        tree, why = result
        return tree, why, choose_over_recorded(pack, tree, choices, path)

    if named is None:
        return recorded(_unreadable_base(pack, path))
    folder = next((options[key] for key in ("--config-path", "-cp", "--config_path") if key in options), None)
    if any(key in options for key in ("--config-path", "-cp", "--config_path")) and folder is None:
        return recorded(_unreadable_base(pack, path))
    candidates = []
    base_dir = os.path.dirname(os.path.abspath(path))
    if folder and folder.startswith("pkg://"):
        from vllm_lint.frameworks.entry_points import package_folder

        # ``--config-path=pkg://myproj.conf``: the package's folder, as Hydra reads it.
        package = package_folder(path, folder[len("pkg://") :])
        if package is None:
            return recorded(_unreadable_base(pack, path))
        candidates = [str(package / name) for name in (named, named + ".yaml")]
    for root in [] if candidates else [base_dir, *Path(base_dir).parents][:4]:
        for name in (named, named + ".yaml"):
            candidates.append(os.path.join(root, folder or "", name) if folder else os.path.join(root, name))
    file = next((c for c in candidates if os.path.isfile(c)), None)
    stem = Path(named).stem
    if file is None:
        if stem not in pack.launchers.get("config_names", []):
            return recorded(_unreadable_base(pack, path))
        return recorded(default_tree(pack, path))
    try:
        text = Path(file).read_text(encoding="utf-8")
        if file.endswith(".toml"):
            own = _read_tree(text, "toml", Source(file, text), os.path.relpath(file))
        else:
            own = yaml_file_tree(file, text, os.path.relpath(file))
    except Exception:  # noqa: BLE001 - a broken config file reports itself when linted
        return recorded(_unreadable_base(pack, path))
    if not own.defaults_list:
        return recorded(_merged_unresolved(pack, own, file))
    used: set = set()
    via: dict = {}
    tree, why = _merged_unresolved(pack, own, file, choices, used=used, via=via)
    tree.chosen_by = via.get("choice", {})
    return tree, why, used


def _unreadable_base(pack: Pack, path: str) -> tuple[ConfigTree, str]:
    """A base config the linter cannot read may set any key: only the command's own overrides are certain."""
    tree, why = default_tree(pack, path)
    for entry in tree.entries.values():
        entry.value = UNKNOWN
    tree.open = True
    return tree, why + "; the named config could not be read, so defaults are unknown"


def _merged_unresolved(
    pack: Pack, own: ConfigTree, path: str, choices: dict | None = None, mount: str = "", used: set | None = None,
    via: dict | None = None,
) -> tuple[ConfigTree, str]:
    """The framework's defaults, then the configs the defaults list composes (the file itself at its ``_self_``);
    ``used`` collects the launch's group overrides that chose a group option."""
    from vllm_lint.frameworks.hydra import compose

    composed = compose(pack, own, path, mount, choices)
    if used is not None:
        used |= composed.used_choices
    if via is not None:
        via["item"], via["choice"], via["framework"] = composed.via_item, composed.via_choice, composed.framework_item
    tree = ConfigTree()
    why = "none: the config names no base config"
    if pack.implicit_base or composed.named_framework:
        # A Hydra config with no defaults list is the whole config: the framework's config files
        # are not composed into it, only the defaults its config classes fill in (the record).
        whole = bool(pack.config_root) and not own.defaults_list and _mount_of(pack, path) is None
        tree, why = default_tree(pack, path, recorded_only=whole)
    if composed.open:
        # A base config that could not be read may set any key: the framework's defaults are not certain.
        for entry in tree.entries.values():
            entry.value = UNKNOWN
        why += "; a config in the defaults list could not be read, so defaults are unknown"
    for layer in composed.layers:
        tree.merge(layer)
    tree.open = tree.open or composed.open
    return tree, why


__all__ = ["ConfigSyntaxError", "PackError", "config_engines", "config_findings", "launch_engines", "launch_findings"]
