"""Hydra overrides on a launch command: ``key=value``, ``+key=value``, ``++key=value``, ``~key``.

Each override becomes an ``Entry`` located at its token, so findings point at
it and a fix replaces the value in place.  A value the shell leaves unknown
(``top_k=$TOP_K``) is UNKNOWN.
"""

from __future__ import annotations

import re

from vllm_lint.facts import UNKNOWN
from vllm_lint.frameworks.tree import ConfigTree, Entry

_OVERRIDE = re.compile(r"^(~|\+\+|\+)?([A-Za-z_][\w\-]*(?:[.@/][\w\-]+)*)(?:=(.*))?$", re.S)
_BARE_COLON = re.compile(r"([{,]\s*[\w.\-]+):(?=\S)")


def parse_value(text: str):
    """A Hydra override value: YAML-like scalars, ``[a,b]`` lists, ``{k:v}`` dicts."""
    import yaml

    if "${" in text:
        return text  # resolved with the tree
    if text.startswith("{"):
        text = _BARE_COLON.sub(r"\1: ", text)
    try:
        value = yaml.safe_load(text) if text else ""
    except yaml.YAMLError:
        return UNKNOWN
    return text if value is None and text not in ("null", "~", "Null", "NULL") else value


def apply_overrides(tree: ConfigTree, words, source, span_of) -> list[str]:
    """Apply the override words to ``tree``; returns the Hydra options met (--config-name ...)."""
    from vllm_lint.launch.flags import glued, passed_through

    options: list[str] = []
    for word in words:
        text = word.text
        if glued(word):
            continue  # ``key=$VALUE``: the end of the override before it
        if passed_through(word):
            # The script's own "$@": read as carrying no override; findings say so.
            tree.assumed.append(channel(word, source, span_of))
            continue
        if word.open:
            # "$EXTRA": overrides may replace any key written so far, and add any other.
            for entry in tree.entries.values():
                entry.value = UNKNOWN
            tree.open = True
            continue
        if text is None:
            # key=$VALUE: the key is certain, its value is not.
            known = _OVERRIDE.match(word.prefix) if "=" in word.prefix else None
            if known is None or known.group(1) == "~" or "@" in known.group(2) or "/" in known.group(2):
                tree.open = True  # an override whose key is unknown
                continue
            key = known.group(2)
            tree.set(key, Entry(UNKNOWN, key_span=span_of(word, 0, len(word.prefix)), provenance="override", written_as=key))
            continue
        if text.startswith("-"):
            options.append(text)
            continue
        match = _OVERRIDE.match(text)
        if match is None:
            continue
        sign, key, value_text = match.group(1), match.group(2), match.group(3)
        if "@" in key or "/" in key:
            tree.open = True  # a config group choice: another base config
            continue
        if sign == "~":
            tree.remove(key)
            continue
        if value_text is None:
            continue
        value = parse_value(value_text)
        key_span = span_of(word, 0, len(text))
        value_span = span_of(word, len(text) - len(value_text), len(text)) if value_text else None
        entry = Entry(value, key_span=key_span, value_span=value_span, provenance="override", written_as=key, word=word)
        if isinstance(value, dict) and value:
            tree.remove(key)
            offset = len(text) - len(value_text)
            for sub, item in _flatten(value, key):
                # A scalar inside the ``{...}`` value, when its key is written once: a fix may replace it.
                leaf = _leaf_span(value_text, sub.rsplit(".", 1)[-1])
                item_span = span_of(word, offset + leaf[0], offset + leaf[1]) if leaf and not isinstance(item, (dict, list)) else None
                tree.entries[sub] = Entry(
                    item, key_span=key_span, value_span=item_span, provenance="override", written_as=key, word=word, whole_span=value_span
                )
        else:
            tree.set(key, entry)
    return options


def channel(word, source, span_of) -> str:
    """``the arguments passed through at "$@", line 8,``: a pass-through word, as a finding names it."""
    written = word.extra.get("written")  # a Python argv list's ``sys.argv[1:]``
    span = word.extra.get("span") if written else span_of(word, 0, 0) if word.located else None
    if span is None:
        return "the arguments passed through"
    if written is None and source is not None:
        written = source.text[word.start : word.end]
    if written is None:
        return f"the arguments passed through at line {span.line},"
    return f"the arguments passed through at {written}, line {span.line},"


def _leaf_span(text: str, name: str) -> tuple[int, int] | None:
    """Where the scalar value of ``name: value`` is written in a ``{...}`` override value."""
    found = list(re.finditer(r"(?<![\w.])[\"']?" + re.escape(name) + r"[\"']?\s*:\s*([^,{}\[\]\s][^,{}\[\]]*?)\s*(?=[,}])", text))
    if len(found) != 1:
        return None
    return found[0].start(1), found[0].end(1)


def _flatten(value: dict, prefix: str):
    for key, item in value.items():
        path = f"{prefix}.{key}"
        if isinstance(item, dict) and item:
            yield from _flatten(item, path)
        else:
            yield path, item


# ------------------------------------------------ pydantic-config command lines


def apply_cli_options(tree: ConfigTree, words, span_of, read_file, mount: str = "") -> None:
    """prime-rl style (pydantic-config): ``@ file.toml`` merged left to right,
    ``--section @ file.toml`` mounted at a section, ``--a.b-c value``, ``--flag``, ``--no-flag``.

    ``read_file(name, mount)`` gives the tree of a named TOML file, or None when it
    cannot be read (its keys are then unknown).  ``mount``: the key path the entry
    point's config sits at in the pack's terms (prime-rl's ``inference`` reads what
    ``rl`` reads under ``[inference]``).
    """
    from vllm_lint.launch.flags import glued, passed_through

    index = 0
    while index < len(words):
        word = words[index]
        if glued(word):
            index += 1
            continue
        if passed_through(word):
            tree.assumed.append(channel(word, None, span_of))
            index += 1
            continue
        if word.open:
            for entry in tree.entries.values():
                entry.value = UNKNOWN
            tree.open = True
            index += 1
            continue
        text = word.text
        if text is None and word.prefix.startswith("--") and "=" in word.prefix and len(word.prefix) > 3:
            # --a.b=$VALUE: that key is unknown.
            name = word.prefix[2:].split("=", 1)[0]
            negated = name.startswith("no-")
            key = ".".join(([mount] if mount else []) + [part.replace("-", "_") for part in (name[3:] if negated else name).split(".")])
            tree.set(key, Entry(UNKNOWN, key_span=span_of(word, 0, len(word.prefix)), provenance="override", written_as=word.prefix))
            index += 1
            continue
        if text == "@":
            index += 1 + _merge_file(tree, words[index + 1] if index + 1 < len(words) else None, mount, read_file)
            continue
        if text is None or not text.startswith("--") or len(text) == 2:
            index += 1
            continue
        name, eq, inline = text[2:].partition("=")
        negated = name.startswith("no-")
        key = ".".join(([mount] if mount else []) + [part.replace("-", "_") for part in (name[3:] if negated else name).split(".")])
        following = words[index + 1] if index + 1 < len(words) else None
        if not eq and following is not None and following.text == "@":
            index += 2 + _merge_file(tree, words[index + 2] if index + 2 < len(words) else None, key, read_file)
            continue
        key_span = span_of(word, 0, len(text))
        if negated and not eq:
            tree.set(key, Entry(False, key_span=key_span, provenance="override", written_as=text))
            index += 1
            continue
        if eq:
            values, value_words = [(inline, word)], 1
            index += 1
        else:
            values = []
            cursor = index + 1
            while cursor < len(words) and not _is_option(words[cursor]):
                values.append((words[cursor].text, words[cursor]))
                cursor += 1
            index = cursor
            value_words = len(values)
        if not values:
            tree.set(key, Entry(True, key_span=key_span, provenance="override", written_as=text, word=word))
            continue
        if any(value is None for value, _word in values):
            tree.set(key, Entry(UNKNOWN, key_span=key_span, provenance="override", written_as=text))
            continue
        if value_words == 1:
            value_text, value_word = values[0]
            value = _cli_value(value_text)
            if eq:
                value_span = span_of(word, len(text) - len(inline), len(text)) if inline else None
            else:
                value_span = span_of(value_word, 0, len(value_text))
        else:
            value, value_span = [_cli_value(v) for v, _ in values], None
        if isinstance(value, dict) and value:
            # A dict on the command line deep-merges into the file's table.
            for sub, item in _flatten(value, key):
                tree.set(sub, Entry(item, key_span=key_span, provenance="override", written_as=text))
            continue
        tree.set(key, Entry(value, key_span=key_span, value_span=value_span, provenance="override", written_as=text, word=word))


def _is_option(word) -> bool:
    from vllm_lint.launch.flags import one_value

    return (word.open and not one_value(word)) or (word.text is not None and (word.text == "@" or (word.text.startswith("--") and len(word.text) > 2)))


def _merge_file(tree: ConfigTree, word, mount: str, read_file) -> int:
    """Merge the file a ``@`` names; returns the words consumed after the ``@``."""
    if word is None:
        return 0
    other = read_file(word.text, mount) if word.known else None
    if other is None:
        for entry in tree.entries.values():
            entry.value = UNKNOWN
        tree.open = True
        return 1
    tree.merge(other)
    return 1


def _cli_value(text: str):
    import json

    try:
        return json.loads(text)
    except ValueError:
        return {"True": True, "False": False, "None": None}.get(text, text)
