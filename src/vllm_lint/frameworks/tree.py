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


class _Entries(dict):
    """The entries of a tree, with the leaves below each mapping path indexed, so
    that replacing or removing a subtree costs the size of that subtree, not of the
    tree (merging a framework's defaults sets every key of its config files)."""

    __slots__ = ("below",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__()
        # mapping path -> its leaves (in the order the entries hold them; a dict as an ordered set)
        self.below: dict[str, dict[str, None]] = {}
        self.update(*args, **kwargs)

    def __setitem__(self, key: str, value: Entry) -> None:
        if key not in self:
            for prefix in _prefixes(key):
                self.below.setdefault(prefix, {})[key] = None
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self._forget(key)

    def _forget(self, key: str) -> None:
        for prefix in _prefixes(key):
            leaves = self.below[prefix]
            del leaves[key]
            if not leaves:
                del self.below[prefix]

    def pop(self, key, *default):
        if key in self:
            value = super().pop(key)
            self._forget(key)
            return value
        if default:
            return default[0]
        raise KeyError(key)

    def popitem(self):
        key, value = super().popitem()
        self._forget(key)
        return key, value

    def clear(self) -> None:
        super().clear()
        self.below.clear()

    def update(self, *args, **kwargs) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def __ior__(self, other):
        self.update(other)
        return self

    def copy(self) -> _Entries:
        return _Entries(self)

    def __reduce__(self):
        return (_Entries, (dict(self),))


def _prefixes(key: str):
    """``a``, ``a.b`` for ``a.b.c``: the mapping paths a leaf is below."""
    dot = key.find(".")
    while dot != -1:
        yield key[:dot]
        dot = key.find(".", dot + 1)


@dataclass
class ConfigTree:
    entries: dict[str, Entry] = field(default_factory=_Entries)
    # Keys not seen may exist (a base config that could not be read).
    open: bool = False
    defaults_list: list = field(default_factory=list)
    defaults_spans: list = field(default_factory=list)  # where each item of ``defaults:`` is written
    chosen_by: dict = field(default_factory=dict)  # a file composed in -> the launch override that chose it
    # Where each mapping's key is written (its leaves are the entries).
    key_spans: dict[str, Span] = field(default_factory=dict)
    # Each written mapping, from the end of its key to the end of its content.
    mapping_spans: dict[str, Span] = field(default_factory=dict)
    # A launch's pass-through words (``"$@"``) read as carrying no override (``facts.Assumption``).
    assumed: list = field(default_factory=list)

    def _indexed(self) -> _Entries:
        """The entries, indexed (a plain dict given or assigned is converted on first use)."""
        entries = self.entries
        if not isinstance(entries, _Entries):
            entries = self.entries = _Entries(entries)
        return entries

    def get(self, path: str) -> Entry | None:
        return self.entries.get(path)

    def has_below(self, prefix: str) -> bool:
        entries = self._indexed()
        return prefix in entries or prefix in entries.below

    def leaves_below(self, prefix: str) -> list[str]:
        """The paths of the leaves strictly below ``prefix``, in the entries' order."""
        return list(self._indexed().below.get(prefix, ()))

    def children(self, prefix: str) -> dict[str, list[tuple[str, Entry]]]:
        """Direct child name -> its leaves (relative path, entry), in written order."""
        entries = self._indexed()
        result: dict[str, list[tuple[str, Entry]]] = {}
        if prefix:
            keys = entries.below.get(prefix, ())
            start = len(prefix) + 1
        else:
            keys, start = entries, 0
        for key in keys:
            head, _, tail = key[start:].partition(".")
            result.setdefault(head, []).append((tail, entries[key]))
        return result

    def set(self, path: str, entry: Entry) -> None:
        self.remove(path)
        self.entries[path] = entry

    def remove(self, path: str) -> None:
        entries = self._indexed()
        entries.pop(path, None)
        for key in list(entries.below.get(path, ())):
            del entries[key]
        # A parent that was a leaf ({} or a scalar) is replaced by the mapping.
        for parent in _prefixes(path):
            entries.pop(parent, None)

    def copy(self) -> ConfigTree:
        """A copy whose entries can be changed (their values made unknown) without changing this tree."""
        entries = self._indexed()
        copied = _Entries()
        dict.update(copied, ((key, _copy_entry(entry)) for key, entry in entries.items()))
        copied.below = {prefix: leaves.copy() for prefix, leaves in entries.below.items()}
        return ConfigTree(
            copied,
            self.open,
            list(self.defaults_list) if isinstance(self.defaults_list, list) else self.defaults_list,
            list(self.defaults_spans),
            dict(self.chosen_by),
            dict(self.key_spans),
            dict(self.mapping_spans),
        )

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


def _copy_entry(entry: Entry) -> Entry:
    copied = object.__new__(Entry)
    copied.__dict__.update(entry.__dict__)
    return copied


# ----------------------------------------------------------------- YAML

# Config files read from disk, by content: a framework's configs compose the same
# files (its defaults, shared bases) for every config and launch in a repository.
_FILE_TREES: dict[tuple, ConfigTree] = {}
_FILE_TREES_LIMIT = 512


def yaml_file_tree(file: str, text: str, file_path: str | None, mount: str = "", positions: bool = True) -> ConfigTree:
    """``yaml_tree`` of a file's text (``positions``: spans in ``file``), parsed once per content;
    each call gets its own copy.  Raises yaml.YAMLError on a broken file."""
    key = (file, text, file_path, mount, positions)
    tree = _FILE_TREES.get(key)
    if tree is None:
        from vllm_lint.launch.words import Source

        tree = yaml_tree(text, Source(file, text) if positions else None, file_path, mount)
        if len(_FILE_TREES) >= _FILE_TREES_LIMIT:
            _FILE_TREES.clear()
        _FILE_TREES[key] = tree
    return tree.copy()



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
_INLINE_KEY = re.compile(_KEY.pattern[1:])  # the same, where an inline table's entry starts


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
        if line[match.end() :].startswith("{"):
            _inline_table_positions(line, match.end(), number, path, positions)
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


def _inline_table_positions(line: str, start: int, number: int, prefix: str, positions: dict) -> None:
    """Where each key and value of an inline table (``vllm = { logprobs_mode = "raw" }``) is
    written on its line, nested tables included: for origins and fixes, as a dotted key has."""
    index = start + 1
    while index < len(line):
        while index < len(line) and line[index] in " \t,":
            index += 1
        if index >= len(line) or line[index] == "}":
            return
        match = _INLINE_KEY.match(line, index)
        if match is None:
            return
        end = _value_end(line, match.end())
        if end is None:
            return
        path = f"{prefix}.{'.'.join(_toml_key(match.group(1)))}"
        key_start = index + len(match.group(0)) - len(match.group(0).lstrip())
        positions[path] = (
            Span(number, key_start, number, key_start + len(match.group(1))),
            Span(number, match.end(), number, end),
        )
        if line[match.end() : match.end() + 1] == "{":
            _inline_table_positions(line, match.end(), number, path, positions)
        index = end


def _value_end(line: str, start: int) -> int | None:
    """The end of the TOML value that starts at ``start`` (strings, arrays and tables skipped whole)."""
    depth, index, quote = 0, start, None
    while index < len(line):
        char = line[index]
        if quote is not None:
            if char == "\\" and quote == '"':
                index += 2
                continue
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            if depth == 0:
                return len(line[:index].rstrip())
            depth -= 1
        elif char == "," and depth == 0:
            return len(line[:index].rstrip())
        elif char == "#" and depth == 0:
            return len(line[:index].rstrip())
        index += 1
        if depth == 0 and quote is None and line[index - 1] in "]}\"'":
            return index
    return None if depth or quote else len(line.rstrip())


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
