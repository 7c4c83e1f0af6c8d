"""YAML nodes with positions: loading, scalar character offsets, Helm templates.

PyYAML (libyaml when available) composes nodes whose marks are character
offsets.  ``scalar_offsets`` recovers, for each character of a scalar's
value, the offset in the file where it is written, so findings and fixes can
point inside a scalar (a flag in a ``sh -c`` script, ``--flag=value``).
"""

from __future__ import annotations

import re

PLACEHOLDER = "\ue000"  # stands for a Helm/Go template expression: unknown text

_HELM_TEMPLATE = re.compile(r"\{\{.*?\}\}", re.DOTALL)
_TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)
_CONTROL_LINE = re.compile(r"^[ \t]*(\{\{-?\s*(/\*.*?\*/|[^{}]*?)\s*-?\}\}[ \t]*)+$")
_ACTION = re.compile(r"\{\{-?\s*(\w+)")
# Jinja (a YAML file rendered by Python tooling): `{% for ... %}` / `{% endfor %}` lines, `{# ... #}`.
_JINJA_LINE = re.compile(r"^[ \t]*(?:(?:\{%-?.*?-?%\}|\{#.*?#\})[ \t]*)+$")
_JINJA_ACTION = re.compile(r"\{%-?\s*(\w+)")
_JINJA_OPEN = frozenset({"for", "if", "macro", "call", "filter", "with", "block", "raw"})
_HELM_OPEN = frozenset({"if", "with", "range", "define", "block"})


def loader():
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


# Aliases let a few lines stand for billions of nodes (``&a [*a, *a, ...]`` nested): a
# document may grow by this many nodes through its aliases, and may not contain itself.
MAX_ALIAS_NODES = 100_000


class AliasError(ValueError):
    """A document whose aliases expand without bound: an alias bomb or a node that holds itself."""

    def __init__(self, reason: str, line: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


def compose_all(text: str):
    import yaml

    anchored = _may_have_aliases(text)
    properties = _may_have_properties(text)
    for document in yaml.compose_all(text, Loader=loader()):
        if anchored:
            check_aliases(document)
        if properties:
            start_at_values(document, text)
        yield document


def compose_document(text: str):
    import yaml

    document = yaml.compose(text, Loader=loader())
    if _may_have_aliases(text):
        check_aliases(document)
    if _may_have_properties(text):
        start_at_values(document, text)
    return document


def _may_have_aliases(text: str) -> bool:
    # An alias refers to an anchor (``&name``): without one, the parser rejects any alias.
    return "&" in text


def _may_have_properties(text: str) -> bool:
    # A node's properties are an anchor (``&name``) and a tag (``!tag``).
    return "&" in text or "!" in text


# An anchor (``&mode``) and a tag (``!!str``, ``!custom``, ``!<tag:...>``) written before a value.
_PROPERTY = re.compile(r"(?:&(?P<anchor>[^\s,\[\]{}]+)|!<[^>]*>|![^\s,\[\]{}]*)\s+")


def start_at_values(root, text: str) -> None:
    """Make each scalar's start mark that of its value, after its anchor and tag.

    PyYAML starts a node at its properties: ``&mode raw_logprobs`` would be replaced whole
    by a fix, dropping the anchor its aliases need.  The anchor's name is kept as
    ``node.anchor``."""
    import yaml

    if root is None:
        return
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(_children(node))
        if not isinstance(node, yaml.ScalarNode):
            continue
        start = node.start_mark.index
        if text[start : start + 1] not in ("&", "!"):
            continue
        position, anchor = start, None
        while text[position : position + 1] in ("&", "!"):
            match = _PROPERTY.match(text, position, node.end_mark.index)
            if match is None:
                break
            anchor = match.group("anchor") or anchor
            position = match.end()
        if position == start:
            continue
        skipped = text[start:position]
        line = node.start_mark.line + skipped.count("\n")
        column = len(skipped) - skipped.rfind("\n") - 1 if "\n" in skipped else node.start_mark.column + len(skipped)
        node.start_mark = yaml.error.Mark(node.start_mark.name, position, line, column, None, None)
        node.anchor = anchor


def check_aliases(root) -> None:
    """Raise ``AliasError`` when ``root``, with its aliases expanded, holds itself or grows
    by more than ``MAX_ALIAS_NODES`` nodes.  Sizes are counted once per node (memoised), so
    the check costs what the written document costs."""
    if root is None:
        return
    sizes: dict[int, int] = {}  # expanded size of each finished node
    open_nodes: set[int] = set()  # nodes on the current path: reaching one again is a cycle
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        children = _children(node)
        if children_done:
            open_nodes.discard(key)
            sizes[key] = 1 + sum(sizes[id(child)] for child in children)
            continue
        if key in sizes:
            continue
        if key in open_nodes:
            raise AliasError("a YAML alias refers to a node that contains it", node.start_mark.line + 1)
        open_nodes.add(key)
        stack.append((node, True))
        for child in children:
            if id(child) in open_nodes:
                raise AliasError("a YAML alias refers to a node that contains it", child.start_mark.line + 1)
            if id(child) not in sizes:
                stack.append((child, False))
    if sizes[id(root)] - len(sizes) > MAX_ALIAS_NODES:
        raise AliasError(
            f"YAML aliases expand this document by more than {MAX_ALIAS_NODES:,} nodes (an alias bomb?)",
            root.start_mark.line + 1,
        )


def _children(node) -> list:
    import yaml

    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return node.value
    return []


def constructor():
    import yaml

    return yaml.constructor.SafeConstructor()


def scalar_offsets(text: str, node) -> list[int] | None:
    """File offset of each character of a scalar's value; None when they cannot be recovered."""
    value = node.value
    start, end = node.start_mark.index, node.end_mark.index
    style = node.style
    if style in (None, ""):
        if text[start:end] == value:
            return list(range(start, end))
        lo, hi = start, end
    elif style in ('"', "'"):
        lo, hi = start + 1, end - 1
    elif style in ("|", ">"):
        newline = text.find("\n", start)
        if newline < 0:
            return None
        lo, hi = newline + 1, end
    else:
        return None
    return _align(value, text, lo, hi, style)


_SKIPPABLE = frozenset(" \t\r\n\\\"'")


def _align(value: str, text: str, lo: int, hi: int, style) -> list[int] | None:
    offsets: list[int] = []
    j = lo
    for ch in value:
        while j < hi:
            c = text[j]
            if c == ch or (ch == " " and c == "\n" and style != "|"):
                break
            if c in _SKIPPABLE:
                j += 1
                continue
            return None
        else:
            if ch == "\n":  # a block scalar's final line break
                offsets.append(hi - 1 if hi > lo else lo)
                continue
            return None
        offsets.append(j)
        j += 1
    return offsets


class Templates:
    """Helm/Go template expressions replaced so the file parses as YAML.

    Whole-line actions (``{{- if .Values.x }}``) become blank lines and are
    remembered by line; inline expressions (``{{ .Values.model }}``) become
    placeholder characters of the same length, so offsets do not move.
    """

    def __init__(self) -> None:
        self.lines: dict[int, str] = {}  # line -> "open" | "close" | "else" | "emit"

    def events(self, first: int, last: int) -> list[tuple[int, str]]:
        return sorted((line, kind) for line, kind in self.lines.items() if first <= line <= last)


def _helm_closes(word: str) -> bool:
    return word == "end"


def _jinja_closes(word: str) -> bool:
    return word.startswith("end")  # endfor, endif, endmacro ...


def _control_kind(action: re.Match | None, opens: frozenset, closes, elses: tuple) -> str:
    """What a template's control line does to the lines that follow: open, close, else, emit."""
    word = action.group(1) if action else ""
    if word in opens:
        return "open"
    if closes(word):
        return "close"
    return "else" if word in elses else "emit"


# A line that opens a block scalar: ``key: |``, ``- >-``, ``"key": &anchor |2`` (a comment may follow).
_BLOCK_OPENER = re.compile(
    r"""^(?P<indent>[ \t]*)(?P<dashes>(?:-[ \t]+)*)"""
    r"""(?P<key>(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^\s#'"{\[\]][^#]*?)[ \t]*:[ \t]+)?"""
    r"""(?:[&!][^ \t]*[ \t]+)*[|>][1-9+-]{0,2}[ \t]*(?:#.*)?$"""
)


def block_scalar_lines(lines: list[str]) -> dict[int, int]:
    """The lines (0-based) that are the text of a block scalar, each with the column its
    text must be indented beyond: the lines after ``key: |`` that are blank or indented
    more than the key (more than the dash of ``- |``).  Read line by line, so it works on
    a template that is not YAML yet."""
    inside: dict[int, int] = {}
    parent = -1  # the column block text must pass; -1: not in a block scalar
    for index, line in enumerate(lines):
        body = line.lstrip(" \t")
        if parent >= 0:
            indent = len(line) - len(body)
            if not body or indent > parent:
                inside[index] = parent
                continue
            if _CONTROL_LINE.match(line) or _JINJA_LINE.match(line):
                inside[index] = parent  # a template's control line at any indentation: rendered away
                continue
            parent = -1
        if not body or body.startswith("#") or body[-1] not in "|>+-0123456789" and "#" not in body:
            continue
        opener = _BLOCK_OPENER.match(line)
        if opener is None:
            continue
        column = len(opener.group("indent"))
        dashes = opener.group("dashes")
        if opener.group("key"):
            parent = column + len(dashes)
        elif dashes:
            parent = column + dashes.rstrip(" \t").rfind("-")
        else:
            parent = column  # `|` alone on its line, after `key:`
    return inside


def strip_templates(text: str, jinja: bool = False) -> tuple[str, Templates]:
    """Helm's ``{{ ... }}`` (and, with ``jinja``, Jinja's ``{% ... %}``/``{# ... #}``) made
    unknown text; control lines become blank and are kept in ``templates``.

    The text of a block scalar (``key: |``: a chat template, a script) is text, not YAML
    structure: its control lines are not removed, and its expressions become unknown
    characters in place, so the block keeps its lines and its indentation.  (A control
    line indented no deeper than the block's key is the template's, not the block's.)"""
    templates = Templates()
    out_lines = []
    lines = text.split("\n")
    blocks = block_scalar_lines(lines) if "|" in text or ">" in text else {}
    for number, line in enumerate(lines, start=1):
        kind = None
        parent = blocks.get(number - 1)
        if parent is not None and len(line) - len(line.lstrip(" \t")) > parent:
            out_lines.append(line)
            continue
        if jinja and ("{%" in line or "{#" in line) and _JINJA_LINE.match(line):
            kind = _control_kind(_JINJA_ACTION.search(line), _JINJA_OPEN, _jinja_closes, ("else", "elif"))
        elif "{{" in line and _CONTROL_LINE.match(line):
            kind = _control_kind(_ACTION.search(line), _HELM_OPEN, _helm_closes, ("else",))
        if kind is not None:
            templates.lines[number] = kind
            out_lines.append(" " * len(line))
            continue
        out_lines.append(line)
    stripped = "\n".join(out_lines)

    def placeholder(match: re.Match) -> str:
        # An expression split over lines keeps each later line's indentation (YAML reads it).
        first, *rest = match.group(0).split("\n")
        lines = [PLACEHOLDER * len(first)]
        for line in rest:
            body = line.lstrip(" \t")
            lines.append(line[: len(line) - len(body)] + PLACEHOLDER * len(body))
        return "\n".join(lines)

    return (_TEMPLATE if jinja else _HELM_TEMPLATE).sub(placeholder, stripped), templates


# Reading composed YAML nodes (the front ends' YAML readers share these).


def scalar_value(node) -> str | None:
    import yaml

    if isinstance(node, yaml.ScalarNode):
        return node.value
    return None


def mapping_entries(node) -> list:
    """A mapping's entries, with those of ``<<: *anchor`` merge keys after (YAML merge keys)."""
    import yaml

    own = []
    merged = []
    for key_node, value_node in node.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.tag == "tag:yaml.org,2002:merge":
            sources = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
            for source in sources:
                if isinstance(source, yaml.MappingNode) and source is not node:
                    merged.extend(source.value)
        else:
            own.append((key_node, value_node))
    return own + [(k, v) for k, v in merged if not any(same_key(k, o) for o, _ in own)]


def same_key(a, b) -> bool:
    return getattr(a, "value", None) == getattr(b, "value", None)


def mapping_value(node, key: str):
    import yaml

    if not isinstance(node, yaml.MappingNode):
        return None
    for key_node, value_node in mapping_entries(node):
        if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
            return value_node
    return None
