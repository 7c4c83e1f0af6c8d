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
    options: list[str] = []
    for word in words:
        text = word.text
        if word.open:
            # "$@": overrides the caller passes may replace any key written so far, and add any other.
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
        entry = Entry(value, key_span=key_span, value_span=value_span, provenance="override", written_as=key)
        if isinstance(value, dict) and value:
            tree.remove(key)
            for sub, item in _flatten(value, key):
                tree.entries[sub] = Entry(item, key_span=key_span, provenance="override", written_as=key)
        else:
            tree.set(key, entry)
    return options


def _flatten(value: dict, prefix: str):
    for key, item in value.items():
        path = f"{prefix}.{key}"
        if isinstance(item, dict) and item:
            yield from _flatten(item, path)
        else:
            yield path, item
