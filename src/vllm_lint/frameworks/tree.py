"""A framework config as flat key paths, each with its value and where it was written.

YAML (PyYAML nodes, so every key keeps its position) and TOML (``tomllib`` for
the values, a line scan for the positions) become the same ``ConfigTree``:
``"a.b.c" -> Entry``.  Leaves are scalars and lists; a mapping is the set of
its leaves (an empty one is a leaf ``{}``).  Values that only exist at run time
(``${oc.env:X}``, a resolver, text around an interpolation) are ``UNKNOWN``;
``${a.b}`` and ``${.b}`` are resolved against the merged tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from vllm_lint.facts import UNKNOWN, Span


@dataclass
class Entry:
    value: object
    key_span: Span | None = None  # the key (or override token) that sets it
    value_span: Span | None = None  # the value as written, when a fix may replace it
    path: str | None = None  # the file it was written in, when not the linted one
    provenance: str = "set"  # "set" (a config key), "override" (launch command), "default"
    written_as: str = ""  # the spelling the user wrote (an override's key)
    becomes: object = None  # what the framework makes of the value (null -> -1), when it transforms it
    why: str = ""  # how the framework came to set it (an entry point's own switch)
    word: object = None  # the launch command's word (override token) that wrote it
    # A mapping written as a whole (a YAML block, a ``{...}`` override value): the span a
    # fix replaces to drop it, and the text that precedes the new value (``": "`` in YAML).
    whole_span: Span | None = None
    whole_lead: str = ""


@dataclass
class ConfigTree:
    entries: dict[str, Entry] = field(default_factory=dict)
    # Keys not seen may exist (a base config that could not be read).
    open: bool = False
    defaults_list: list = field(default_factory=list)
    defaults_spans: list = field(default_factory=list)  # where each item of ``defaults:`` is written
    chosen_by: dict = field(default_factory=dict)  # a file composed in -> the launch override that chose it
    # Where each mapping's key is written (its leaves are the entries).
    key_spans: dict[str, Span] = field(default_factory=dict)
    # Each written mapping, from the end of its key to the end of its content.
    mapping_spans: dict[str, Span] = field(default_factory=dict)

    def get(self, path: str) -> Entry | None:
        return self.entries.get(path)

    def has_below(self, prefix: str) -> bool:
        start = prefix + "."
        return prefix in self.entries or any(key.startswith(start) for key in self.entries)

    def children(self, prefix: str) -> dict[str, list[tuple[str, Entry]]]:
        """Direct child name -> its leaves (relative path, entry), in written order."""
        start = prefix + "." if prefix else ""
        result: dict[str, list[tuple[str, Entry]]] = {}
        for key, entry in self.entries.items():
            if start and not key.startswith(start):
                continue
            rest = key[len(start):]
            head, _, tail = rest.partition(".")
            result.setdefault(head, []).append((tail, entry))
        return result

    def set(self, path: str, entry: Entry) -> None:
        self.remove(path)
        self.entries[path] = entry

    def remove(self, path: str) -> None:
        start = path + "."
        for key in [k for k in self.entries if k == path or k.startswith(start)]:
            del self.entries[key]
        # A parent that was a leaf ({} or a scalar) is replaced by the mapping.
        parts = path.split(".")
        for i in range(1, len(parts)):
            self.entries.pop(".".join(parts[:i]), None)

    def merge(self, other: ConfigTree) -> None:
        """``other`` over this tree (OmegaConf merge: mappings merge, leaves replace)."""
        for key, entry in other.entries.items():
            if isinstance(entry.value, dict) and not entry.value and self.has_below(key):
                continue  # merging {} into a mapping keeps the mapping
            self.set(key, entry)
        self.key_spans.update(other.key_spans)
        for key in other.key_spans:
            self.mapping_spans.pop(key, None)
        self.mapping_spans.update(other.mapping_spans)
        self.open = self.open or other.open


# ----------------------------------------------------------------- YAML


def yaml_tree(text: str, source, file_path: str | None = None, mount: str = "") -> ConfigTree:
    """Raises yaml.YAMLError on a broken file."""
    import yaml

    from vllm_lint.launch.yamlsrc import compose_all, constructor

    tree = ConfigTree()
    documents = [document for document in compose_all(text) if document is not None]
    # Framework configs are one mapping; a stream of documents is a manifest (read elsewhere).
    if len(documents) != 1 or not isinstance(documents[0], yaml.MappingNode):
        return tree
    root = documents[0]
    build = constructor()

    def span(node) -> Span | None:
        if source is None:
            return None
        return source.span(node.start_mark.index, node.end_mark.index)

    def walk(node, prefix: str) -> None:
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                continue
            key = key_node.value
            if node is root and key == "defaults":
                tree.defaults_list = _plain(build, value_node)
                if isinstance(value_node, yaml.SequenceNode):
                    tree.defaults_spans = [span(item) for item in value_node.value]
                elif isinstance(value_node, yaml.ScalarNode):
                    tree.defaults_spans = [span(value_node)]  # ``defaults: ../base.yaml``
                continue
            path = f"{prefix}.{key}" if prefix else key
            if isinstance(value_node, yaml.MappingNode) and value_node.value:
                key_span = span(key_node)
                if key_span is not None:
                    tree.key_spans[path] = key_span
                    if not value_node.flow_style:
                        tree.mapping_spans[path] = source.span(key_node.end_mark.index, _content_end(value_node))
                walk(value_node, path)
                continue
            value = _plain(build, value_node)
            editable = (isinstance(value_node, yaml.ScalarNode) and value_node.style in (None, "", '"', "'")) or (
                isinstance(value_node, yaml.SequenceNode) and value_node.flow_style
            )
            tree.entries[path] = Entry(
                value,
                key_span=span(key_node),
                value_span=span(value_node) if editable else None,
                path=file_path,
            )

    walk(root, mount)
    return tree


def _content_end(node) -> int:
    """Where a block mapping's or sequence's last value ends (its end mark lies on the next key's line)."""
    import yaml

    if isinstance(node, yaml.MappingNode) and node.value and not node.flow_style:
        return _content_end(node.value[-1][1])
    if isinstance(node, yaml.SequenceNode) and node.value and not node.flow_style:
        return _content_end(node.value[-1])
    return node.end_mark.index


def _plain(build, node):
    try:
        return build.construct_object(node, deep=True)
    except Exception:  # noqa: BLE001 - an unusual tag: the value is unknown
        return UNKNOWN


# ----------------------------------------------------------------- TOML

_TABLE = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*((?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*'))*)\s*=\s*")


def _toml_key(text: str) -> list[str]:
    return [part.strip().strip("\"'") for part in re.findall(r"\"[^\"]*\"|'[^']*'|[^.]+", text)]


def toml_tree(text: str, source, file_path: str | None = None, mount: str = "") -> ConfigTree:
    """Raises ValueError (tomllib.TOMLDecodeError) on a broken file."""
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    data = tomllib.loads(text)
    positions: dict[str, tuple[Span, Span]] = {}
    table: list[str] | None = []
    for number, line in enumerate(text.splitlines(), start=1):
        header = _TABLE.match(line)
        if header:
            # Arrays of tables hold several values per key: only the first header is positioned.
            table = None if header.group(1) == "[[" else _toml_key(header.group(2))
            if table is None:
                name = ".".join(([mount] if mount else []) + _toml_key(header.group(2)))
                start = len(line) - len(line.lstrip())
                positions.setdefault(name, (Span(number, start, number, len(line.rstrip())), None))
            continue
        match = _KEY.match(line)
        if match is None or table is None:
            continue
        path = ".".join(([mount] if mount else []) + table + _toml_key(match.group(1)))
        key_start = len(line) - len(line.lstrip())
        value_text = line[match.end():].split(" #", 1)[0].rstrip()
        positions[path] = (
            Span(number, key_start, number, key_start + len(match.group(1))),
            Span(number, match.end(), number, match.end() + len(value_text)),
        )
    tree = ConfigTree()

    def walk(value, prefix: str) -> None:
        if isinstance(value, dict) and value:
            for key, item in value.items():
                walk(item, f"{prefix}.{key}" if prefix else key)
            return
        key_span, value_span = positions.get(prefix, (None, None))
        if isinstance(value, (dict, list)) and value:
            value_span = None  # inline tables and arrays are not replaced as a whole
        tree.entries[prefix] = Entry(_from_toml(value), key_span=key_span, value_span=value_span, path=file_path)

    walk(data, mount)
    return tree


def _from_toml(value):
    import datetime

    if isinstance(value, (datetime.date, datetime.time)):
        return str(value)
    return value


# ----------------------------------------------------------- interpolation

_INTERPOLATION = re.compile(r"^\$\{\s*([^{}]*?)\s*\}$")
_SELECT = re.compile(r"^oc\.select\s*:\s*([\w.]+)\s*(?:,\s*(.*))?$")


def resolve_interpolations(tree: ConfigTree, depth: int = 0) -> None:
    """Replace ``${...}`` values by what they point at, or UNKNOWN."""
    for key, entry in list(tree.entries.items()):
        if isinstance(entry.value, str) and "${" in entry.value:
            value = _interpolate(tree, key, entry.value, 0)
            tree.entries[key] = Entry(value, entry.key_span, entry.value_span, entry.path, entry.provenance, entry.written_as)


def _interpolate(tree: ConfigTree, key: str, text: str, depth: int):
    match = _INTERPOLATION.match(text.strip())
    if match is None or depth > 8:
        return UNKNOWN  # text around an interpolation, or nested ones
    expression = match.group(1)
    default = UNKNOWN
    select = _SELECT.match(expression)
    if select:
        expression = select.group(1)
        if select.group(2) is not None:
            default = _literal(select.group(2))
    elif ":" in expression:
        return UNKNOWN  # a resolver (oc.env, eval, ...): known at run time only
    target = _absolute(key, expression)
    entry = tree.get(target)
    if entry is None:
        if select and not tree.open and not tree.has_below(target):
            return default
        return UNKNOWN
    if isinstance(entry.value, str) and "${" in entry.value:
        return _interpolate(tree, target, entry.value, depth + 1)
    return entry.value


def _absolute(key: str, expression: str) -> str:
    if not expression.startswith("."):
        return expression
    dots = len(expression) - len(expression.lstrip("."))
    parts = key.split(".")[:-1]
    parts = parts[: len(parts) - (dots - 1)] if dots > 1 else parts
    return ".".join(parts + [expression.lstrip(".")])


def _literal(text: str):
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return UNKNOWN
