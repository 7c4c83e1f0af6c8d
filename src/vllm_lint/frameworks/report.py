"""Findings on framework facts, told in the framework's terms, with text fixes where the value is written.

A finding names the framework key that decides it
(``actor_rollout_ref.rollout.top_k = -1 (verl default)``) and points at that
key or override; a framework default points at the key that turned replay on.
"""

from __future__ import annotations

from dataclasses import replace

from vllm_lint.findings import Edit, Finding, Fix
from vllm_lint.frameworks.pack import Pack
from vllm_lint.frameworks.tree import Entry

# The setting each rule's finding is about.
DECIDING = {
    "VLM101": ("engine", "return_sampling_mask"),
    "VLM102": ("engine", "speculative_config"),
    "VLM103": ("engine", "model"),
    "VLM104": ("engine", "logits_processors"),
    "VLM105": ("engine", "logprobs_mode"),
    "VLM106": ("engine", "enable_batch_sharded_sampling"),
    "VLM201": ("request", "temperature"),
    "VLM202": ("request", "top_k"),
    "VLM301": ("engine", "return_sampling_mask"),
}


def describe(pack: Pack, key: str, entry: Entry) -> str:
    value = _show(entry.value)
    if entry.becomes is not None:
        value += f", which {pack.name} sends as {_show(entry.becomes)}"
    if entry.why:
        return f"{key} = {value} ({entry.why})"
    if entry.provenance == "default":
        return f"{key} = {value} ({pack.name} default)"
    if entry.provenance == "framework":
        return f"{key} = {value}"
    if entry.provenance == "override":
        return f"{key} = {value} (launch override)"
    return f"{key} = {value}"


def _show(value) -> str:
    if isinstance(value, dict):
        return "{...}" if value else "{}"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def decorate(finding: Finding, pack: Pack, decided_by: dict, source, only_written_here: bool) -> Finding | None:
    """The finding in the framework's terms; None when this file does not decide it.

    ``decided_by``: (scope, vLLM name) -> (key path, entry) for the engine and the request checked.
    """
    scope_name = DECIDING.get(finding.code)
    if finding.argument is not None and ("engine", finding.argument) in decided_by:
        scope_name = ("engine", finding.argument)  # an argument's own finding (its name, its value)
    decided = decided_by.get(scope_name) if scope_name else None
    if scope_name is None and finding.settings:
        return _decorate_settings(finding, pack, decided_by, only_written_here)
    if finding.fix_action == "remove-adaptive-verification":
        decided = decided_by.get(("engine", "speculative_config.enable_adaptive_verification"), decided)
    replay = decided_by.get(("engine", "return_sampling_mask"))
    if only_written_here:
        here = [item for item in (decided, replay) if item is not None and item[1].provenance == "override"]
        if not here:
            return None  # the config file that holds these settings reports it
    note = ""
    if decided is not None:
        key, entry = decided
        note = describe(pack, key, entry)
        if entry.path is not None and entry.key_span is not None:
            note += f", set in {entry.path}, line {entry.key_span.line}"
    if replay is not None and replay[1].why and decided is not replay:
        # Replay is on because the entry point turned it on: say why.
        note = f"{note}; " if note else ""
        note += f"{replay[0]} = true ({replay[1].why})"
    message = f"{finding.message} [{pack.name}: {note}]" if note else f"{finding.message} [{pack.name}]"
    finding = replace(finding, message=message)
    if decided is not None and decided[1].key_span is not None and decided[1].path is None:
        finding.span = decided[1].key_span  # the key or override that decides it
    if source is None:  # a launch written as a Python argv list: its elements are edited
        finding.argv_fix = _argv_fix(finding, pack, decided, replay)
    else:
        finding.fix = _fix(finding, pack, decided, replay, source)
    return finding


def _decorate_settings(finding: Finding, pack: Pack, decided_by: dict, only_written_here: bool) -> Finding | None:
    """A finding about several settings (the start-up checks): each is named by the key that
    decides it; a launch reports it only when one of them is written in the launch itself."""
    decided = [decided_by[("engine", name)] for name in finding.settings if ("engine", name) in decided_by]
    if only_written_here and not any(entry.provenance == "override" for _, entry in decided):
        return None  # the config file that holds these settings reports it
    notes = []
    for key, entry in decided:
        note = describe(pack, key, entry)
        if entry.path is not None and entry.key_span is not None:
            note += f", set in {entry.path}, line {entry.key_span.line}"
        notes.append(note)
    message = f"{finding.message} [{pack.name}: {'; '.join(notes)}]" if notes else f"{finding.message} [{pack.name}]"
    finding = replace(finding, message=message)
    here = [entry for _, entry in decided if entry.key_span is not None and entry.path is None]
    if only_written_here:
        here = [entry for entry in here if entry.provenance == "override"] or here
    if here:
        finding.span = here[0].key_span
    return finding


def _argv_fix(finding: Finding, pack: Pack, decided, replay) -> tuple | None:
    """The ``_fix`` of a launch written as a Python argv list, as element edits: an override
    token ``key=value`` gets its new value, or a token is added after the replay token."""
    from vllm_lint.fix.argv import ElementEdit, element_of

    action = finding.fix_action
    if action is None:
        return None
    if decided is None or decided[1].provenance == "default":
        if action != "set-processed-logprobs" or replay is None:
            return None
        replay_key, entry = replay
        if entry.provenance != "override" or entry.why:
            return None
        target = _sibling_key(pack, replay_key, "logprobs_mode")
        element = element_of(entry.word) if entry.word is not None else None
        if target is None or element is None or element.text != entry.word.text:
            return None
        texts = tuple(_added_words(pack, element.text, target, "processed_logprobs"))
        edit = ElementEdit(element.extra["span"], element.text, element.text, texts)
        return ("unsafe", f"Add {' '.join(texts)}", (edit,))
    key, entry = decided
    if entry.provenance != "override" or entry.word is None or isinstance(entry.value, dict):
        return None
    element = element_of(entry.word)
    # Only a whole ``key=value`` element: a value written as the next element, or inside
    # a ``{...}`` value, keeps the finding without an edit.
    if element is None or element.text != entry.word.text or "=" not in element.text or element.text.startswith("-"):
        return None
    head, written = element.text.split("=", 1)
    replacement = _new_value(action, key, entry.value, written)
    if replacement is None:
        return None
    safety, message, new = replacement
    return (safety, message, (ElementEdit(element.extra["span"], element.text, f"{head}={new}"),))


def _new_value(action: str, key: str, value: object, written: str) -> tuple[str, str, str] | None:
    """(safety, message, text) of the value that replaces ``written``, the deciding value."""
    turned_off = "False" if written[:1].isupper() else "false"
    if action == "set-processed-logprobs":
        return "safe", f"Set {key} to processed_logprobs", _requote(written, "processed_logprobs")
    if action == "remove-adaptive-verification":
        return "unsafe", f"Turn {key} off", turned_off
    if action == "remove" and isinstance(value, list):
        return "unsafe", f"Empty {key}", "[]"
    if action == "remove" and (value is True or isinstance(value, str)):
        return "unsafe", f"Turn {key} off", turned_off
    return None


def _fix(finding: Finding, pack: Pack, decided, replay, source) -> Fix | None:
    """A text edit where the deciding value is written; an unsafe added key where it is the framework's default."""
    action = finding.fix_action
    if action is None or source is None:
        return None
    if decided is None or decided[1].provenance == "default":
        if action == "set-processed-logprobs":
            return _add_key(pack, replay, source, "logprobs_mode", "processed_logprobs")
        return None
    key, entry = decided
    if entry.path is not None:
        return None  # written in another file: that file's own check offers the fix
    if action == "remove-speculative-config":
        return _drop_mapping(key, entry, source)
    if action == "remove" and entry.value_span is None and entry.value is True and entry.word is not None:
        return _drop_flag(key, entry, source)
    if entry.value_span is None:
        return None
    span = entry.value_span
    start = (span.line, span.col + 1)
    end = (span.end_line or span.line, (span.end_col if span.end_col is not None else span.col) + 1)
    replacement = _new_value(action, key, entry.value, _written(source, span))
    if replacement is None:
        return None
    safety, message, content = replacement
    return Fix(safety, message, [Edit(start, end, content)])


def _drop_flag(key: str, entry: Entry, source) -> Fix | None:
    """A bare ``--flag`` that turns the setting on: removed with the blanks before it."""
    word = entry.word
    if not getattr(word, "located", False) or word.style != "shell":
        return None
    start = word.start
    while start > 0 and source.text[start - 1] in " \t":
        start -= 1
    return Fix("unsafe", f"Remove {word.text}", [_offsets_edit(source, (start, word.end, ""))])


def _drop_mapping(key: str, entry: Entry, source) -> Fix | None:
    """A speculative config written as a whole mapping becomes null (the framework drops null values)."""
    span = entry.whole_span
    if span is None:
        return None
    start = (span.line, span.col + 1)
    end = (span.end_line or span.line, (span.end_col if span.end_col is not None else span.col) + 1)
    return Fix("unsafe", f"Set {key} to null", [Edit(start, end, f"{entry.whole_lead}null")])


def _add_key(pack: Pack, replay, source, name: str, value: str) -> Fix | None:
    """Write ``name`` next to the key that turned replay on: a launch token after its
    token, or a line beside it in the config file, indented like it."""
    if replay is None:
        return None
    replay_key, entry = replay
    if entry.path is not None or entry.key_span is None or entry.why:
        return None
    target = _sibling_key(pack, replay_key, name)
    if target is None:
        return None
    if entry.provenance == "override":
        return _add_token(pack, entry, source, target, value)
    return _add_line(entry, source, target, replay_key, name, value)


def _sibling_key(pack: Pack, replay_key: str, name: str) -> str | None:
    """The key path that gives the engine argument ``name`` where the replay key is set."""
    for spec in pack.engine:
        if "prefix" in spec and replay_key.startswith(spec["prefix"] + ".") and name not in spec.get("except", ()):
            return f"{replay_key.rsplit('.', 1)[0]}.{name}"
    return None


def _added_words(pack: Pack, replay_word: str, target: str, value: str) -> list[str]:
    """The launch words that set ``target``: a dotted option and its value (prime-rl), or a
    Hydra override with the replay override's ``+``/``++``."""
    if pack.launchers.get("style") == "pydantic-config":
        return ["--" + ".".join(part.replace("_", "-") for part in target.split(".")), value]
    sign = "++" if replay_word.startswith("++") else "+" if replay_word.startswith("+") else ""
    return [f"{sign}{target}={value}"]


def _add_token(pack: Pack, entry: Entry, source, target: str, value: str) -> Fix | None:
    from vllm_lint.launch.insert import insert_after

    word = entry.word
    if word is None or word.text is None or not getattr(word, "located", False):
        return None
    texts = _added_words(pack, word.text, target, value)
    newline = "\r\n" if "\r\n" in source.text[:10000] else "\n"
    edit = insert_after(source, newline, word, texts)
    if edit is None:
        return None
    return Fix("unsafe", f"Add {' '.join(texts)}", [_offsets_edit(source, edit)])


def _add_line(entry: Entry, source, target: str, replay_key: str, name: str, value: str) -> Fix | None:
    """``name: value`` (YAML) or ``name = "value"`` (TOML) on the line after the replay key's."""
    import re

    span = entry.key_span
    if (span.end_line or span.line) != span.line:
        return None
    line_text = source.line_text(span.line)
    written_key = line_text[span.col : span.end_col]
    before, after = line_text[: span.col], line_text[span.end_col :]
    toml = re.match(r"\s*=", after) is not None
    if before.strip() or not re.fullmatch(r"\s*[:=]\s*[^\s#{}\[\],]+\s*(#.*)?", after):
        return None  # a flow mapping, a list item, a multi-line value: no line of its own
    head = written_key.rsplit(".", 1)[0] + "." if "." in written_key and toml else ""
    sibling = f'{head}{name} = "{value}"' if toml else f"{name}: {value}"
    if span.line >= source.line_count:
        # The key ends the file without a line break: the new line starts with one.
        newline = "\r\n" if "\r\n" in source.text[:10000] else "\n"
        at = len(source.text)
        edit = (at, at, f"{newline}{before}{sibling}")
    else:
        at = source.line_starts[span.line]
        newline = "\r\n" if source.text[at - 2 : at] == "\r\n" else "\n"
        edit = (at, at, f"{before}{sibling}{newline}")
    return Fix("unsafe", f"Add {target}: {value}", [_offsets_edit(source, edit)])


def _offsets_edit(source, edit) -> Edit:
    start, end, text = edit
    line, col = source.position(start)
    end_line, end_col = source.position(end)
    return Edit((line, col + 1), (end_line, end_col + 1), text)


def _written(source, span) -> str:
    start = source.offset(span.line, span.col)
    end = source.offset(span.end_line or span.line, span.end_col if span.end_col is not None else span.col)
    return source.text[start:end]


def _requote(written: str, value: str) -> str:
    if written[:1] in ("'", '"') and written[-1:] == written[:1]:
        return f"{written[0]}{value}{written[0]}"
    return value
