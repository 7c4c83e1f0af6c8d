"""``vllm serve --config FILE``: a YAML file of options, read as vLLM reads it.

``FlexibleArgumentParser.load_config_file`` (the same in 0.28-0.34) turns each
top-level key into options: ``key: true`` -> ``--key``; ``key: false`` ->
``--no-key`` only when the parser that reads the file has that option, which
for ``vllm serve`` (read by the top-level ``vllm`` parser) is never, so the
key is dropped and the setting keeps its default; a list -> ``--key item ...``
(an empty list is dropped); a mapping -> ``--key <json>``; anything else ->
``--key str(value)``.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from vllm_lint.facts import UNKNOWN, Known, Mapping, Origin
from vllm_lint.launch.flags import Dialect, table_for
from vllm_lint.launch.words import CONFIG, Source, Word
from vllm_lint.launch.yamlsrc import compose_document, constructor, scalar_offsets
from vllm_lint.versions import Version


def config_words(
    source: Source,
    root,
    dialect: Dialect,
    version: Version,
    path: str | None,
    entries: dict | None = None,
) -> list[Word] | None:
    """The options a config document adds, in order; None when vLLM cannot read it."""
    import yaml

    if not isinstance(root, yaml.MappingNode):
        return None
    build = constructor()
    table = table_for(version)
    ordered: dict[str, tuple] = {}
    try:
        for key_node, value_node in root.value:
            key = build.construct_object(key_node, deep=True)
            value = build.construct_object(value_node, deep=True)
            name = str(key)
            if name in ordered:
                ordered[name] = (ordered[name][0], key_node, value_node, value)  # last value, first place
            else:
                ordered[name] = (len(ordered), key_node, value_node, value)
    except (yaml.YAMLError, TypeError, ValueError, RecursionError):
        return None
    words: list[Word] = []
    for name, (_order, key_node, value_node, value) in ordered.items():
        key_word = _node_word(source, key_node, "--" + name, path, prefix_len=2)
        key_word.extra.update(key_node=key_node, value_node=value_node)
        if isinstance(value, bool):
            if value:
                words.append(key_word)
            elif dialect.config == "parser":
                negative = "--no-" + name
                known = ("--" + name) in table
                if negative in table or not known:
                    key_word.text = negative
                    key_word.offs = None
                    words.append(key_word)
            continue
        if isinstance(value, list):
            if not value:
                continue
            words.append(key_word)
            for item_node, item in zip(value_node.value, value):
                item_text = str(item) if not isinstance(item, str) else item
                words.append(_node_word(source, item_node, item_text, path))
            continue
        words.append(key_word)
        if isinstance(value, dict):
            try:
                text = json.dumps(value)
            except (TypeError, ValueError):
                text = None
            value_word = _node_word(source, value_node, text, path)
            value_word.extra["parsed"] = mapping_of(source, value_node, value, path, entries)
            words.append(value_word)
            continue
        text = "None" if value is None else (value if isinstance(value, str) else str(value))
        words.append(_node_word(source, value_node, text, path))
    return words


def _node_word(source: Source, node, text: str | None, path: str | None, prefix_len: int = 0) -> Word:
    start, end = node.start_mark.index, node.end_mark.index
    offs = None
    if text is not None:
        value_offs = scalar_offsets(source.text, node) if hasattr(node, "style") and isinstance(node.value, str) else None
        if value_offs is not None and len(value_offs) == len(text) - prefix_len:
            offs = [-1] * prefix_len + value_offs
    word = Word(text, start, end, offs=offs, style=CONFIG, path=path, kind="config-key", multiline=False)
    word.quote = getattr(node, "style", None) or ""
    if path is not None:
        word.extra["source"] = source
    return word


def mapping_of(source: Source, node, value: dict, path: str | None, entries: dict | None) -> Mapping:
    """A YAML mapping as a fact ``Mapping``; each entry's origin is its key."""
    import yaml

    mapping = Mapping({}, True)
    pairs = node.value if isinstance(node, yaml.MappingNode) else []
    nodes = {}
    build = constructor()
    for key_node, value_node in pairs:
        try:
            nodes[str(build.construct_object(key_node, deep=True))] = (key_node, value_node)
        except (yaml.YAMLError, TypeError, ValueError):
            continue
    for key, inner in value.items():
        key_node, value_node = nodes.get(str(key), (None, None))
        if key_node is not None:
            origin = Origin(source.span(key_node.start_mark.index, key_node.end_mark.index), "config-key", path=path)
            if entries is not None:
                entries[(path, key_node.start_mark.index)] = (key_node, value_node)
        else:
            origin = None
        if isinstance(inner, dict) and value_node is not None:
            converted = mapping_of(source, value_node, inner, path, entries)
        else:
            converted = inner
        mapping.items[str(key)] = UNKNOWN if converted is UNKNOWN else Known(converted, origin)
    return mapping


def read_config_file(full_path: str, dialect: Dialect, version: Version, display_path: str, entries: dict | None = None) -> list[Word] | None:
    """The options of a config file on disk; None (unknown) when it cannot be read."""
    import yaml

    if not full_path.endswith((".yaml", ".yml")):
        return None
    try:
        with open(full_path, "rb") as handle:
            data = handle.read(4 * 1024 * 1024 + 1)
    except OSError:
        return None
    if len(data) > 4 * 1024 * 1024 or b"\0" in data:
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    source = Source(display_path, text)
    try:
        root = compose_document(text)
    except (yaml.YAMLError, RecursionError, ValueError):
        return None
    return config_words(source, root, dialect, version, display_path, entries)


# ------------------------------------------------------------ is this a vLLM config file?

# vLLM option names that other programs' configs use too (an app's model and port, a
# trainer's seed and dtype, a launcher's nnodes): they do not make a file a vLLM config.
GENERIC_KEYS = frozenset(
    {
        "model", "port", "host", "seed", "dtype", "device", "tokenizer", "revision", "task", "config",
        "api-key", "served-model-name", "trust-remote-code", "quantization", "load-format", "download-dir",
        "nnodes", "node-rank", "hf-config-path", "chat-template", "log-level", "headless", "help", "version",
    }
)
# Top-level keys of a YAML file, from its bytes (no parse): `key:` at the start of a line.
_TOP_LEVEL_KEY = re.compile(rb"^([A-Za-z][\w-]*)[ \t]*:(?:[ \t]|$)", re.M)
MIN_KNOWN_PER_UNKNOWN = 4  # at most one key that no release has per four that some release has


@lru_cache(maxsize=1)
def option_names() -> frozenset[str]:
    """Every long option of ``vllm serve`` in any known release, without its dashes (``max-model-len``)."""
    from vllm_lint.launch import schema

    return frozenset(name[2:] for name in schema._data()["options"] if name.startswith("--"))


def key_census(keys) -> tuple[int, int, int]:
    """(keys that are an option of some release, keys that are none, options that are not generic)."""
    names = option_names()
    known = unknown = distinctive = 0
    for key in keys:
        name = key.split(".", 1)[0].replace("_", "-")
        if name in names:
            known += 1
            distinctive += name not in GENERIC_KEYS
        else:
            unknown += 1
    return known, unknown, distinctive


def config_like(keys) -> bool:
    """Keys that may make a flat mapping a vLLM config (a cheap test, before ``only_options``): at
    least two; (almost) all of them options of some release (at most one other per four options,
    a launched file's typo); at least one that is vLLM's own, not
    one of the names other programs share (``GENERIC_KEYS``)."""
    keys = list(keys)
    known, unknown, distinctive = key_census(keys)
    return len(set(keys)) >= 2 and distinctive >= 1 and unknown * MIN_KNOWN_PER_UNKNOWN <= known


def may_be_config_bytes(data: bytes) -> bool:
    """A cheap test on a YAML file's bytes: its top-level keys may make it a vLLM config file."""
    keys = [match.decode("ascii") for match in _TOP_LEVEL_KEY.findall(data)]
    return len(keys) >= 2 and config_like(keys)


def standalone_config(root) -> bool:
    """A YAML document that is a vLLM config file by its structure alone: ``flat_mapping``,
    with keys that are ``config_like`` and every one an option of some release."""
    keys = flat_mapping(root)
    return keys is not None and config_like(keys) and only_options(keys)


def only_options(keys) -> bool:
    """Every key is an option of some release: a key that is none says the file is another
    program's (a worker's ``vllm-release:`` beside ``max-model-len:``), unless a vLLM launch
    passes it with ``--config``."""
    return key_census(keys)[1] == 0


def flat_mapping(root) -> list[str] | None:
    """The keys of a mapping of string keys to scalars, lists of scalars, or (for an option's
    JSON value) mappings, when one of them is a vLLM option other programs do not share;
    else None.  A launch may pass such a file with ``--config``."""
    import yaml

    if not isinstance(root, yaml.MappingNode):
        return None
    keys = []
    names = option_names()
    for key_node, value_node in root.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != "tag:yaml.org,2002:str":
            return None
        key = key_node.value
        if isinstance(value_node, yaml.SequenceNode):
            if not all(isinstance(item, yaml.ScalarNode) for item in value_node.value):
                return None
        elif isinstance(value_node, yaml.MappingNode):
            if key.split(".", 1)[0].replace("_", "-") not in names:
                return None  # nested sections of another program's config
        keys.append(key)
    return keys if key_census(keys)[2] >= 1 else None
