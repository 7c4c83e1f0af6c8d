"""A fix of a YAML or TOML file changes the value it fixes and nothing else.

Before a fix of a config file is offered, its edits are applied to the text
and both texts are parsed: the edited file must parse, and its structure must
be the original's except where the edits are (the fixed value, a removed or
added entry).  A fix that would break the file (an anchor lost, so an alias
no longer resolves; a value that now spills into its neighbour) is not
offered.  A fix of a value that is also used through an alias elsewhere
changes it there too: it is offered as unsafe, and says so.
"""

from __future__ import annotations

from dataclasses import replace

from vllm_lint.findings import Edit, Fix

KINDS = ("yaml", "toml")


def review_fixes(kind: str, text: str, findings, read_other=None) -> None:
    """Check the fixes of a YAML or TOML file's findings in place: drop those that would
    change more than their value, make unsafe those that change an aliased value.

    ``read_other(path)`` reads another file a fix edits (its text, or None)."""
    cache: dict = {}
    for finding in findings:
        for attribute in ("fix", "disable_replay_fix"):
            fix = getattr(finding, attribute, None)
            if fix is not None:
                setattr(finding, attribute, reviewed(kind, text, fix, read_other, cache))


def reviewed(kind: str, text: str, fix: Fix, read_other=None, cache: dict | None = None) -> Fix | None:
    """The fix as it may be offered: itself, unsafe (an aliased value), or None (it breaks the file)."""
    cache = {} if cache is None else cache
    notes: list[str] = []
    targets = [(None, kind, text, fix.edits)]
    for path, edits in fix.elsewhere.items():
        other_kind = kind_of(path)
        if other_kind is None:
            continue
        other_text = read_other(path) if read_other is not None else None
        if other_text is None:
            return None  # cannot be checked: not offered
        targets.append((path, other_kind, other_text, edits))
    for _path, target_kind, target_text, edits in targets:
        if not edits or target_kind not in KINDS:
            continue
        verdict = check_edits(target_kind, target_text, edits, cache)
        if verdict is None:
            return None
        notes.extend(verdict)
    if not notes:
        return fix
    aliases = ", ".join(f"*{name}" for name in dict.fromkeys(notes))
    return replace(fix, applicability="unsafe", message=f"{fix.message} (the value is also used through {aliases})")


def kind_of(path: str) -> str | None:
    name = path.lower()
    if name.endswith((".yaml", ".yml")):
        return "yaml"
    if name.endswith(".toml"):
        return "toml"
    return None


# ------------------------------------------------------------------ edits as offsets


def _newline(text: str) -> str:
    index = text.find("\n")
    return "\r\n" if index > 0 and text[index - 1] == "\r" else "\n"


def edit_spans(text: str, edits: list[Edit]) -> tuple[str, list[tuple[int, int]], list[tuple[int, int]]] | None:
    """The edited text, and each edit's range in the old text and in the new one."""
    from vllm_lint.fix.text import _line_starts, _offset, apply_edits

    newline = _newline(text)
    new = apply_edits(text, edits, newline)
    if new is None:
        return None
    starts = _line_starts(text)
    ranges = []
    for edit in edits:
        content = edit.content
        if newline != "\n":
            content = content.replace("\r\n", "\n").replace("\n", newline)
        ranges.append((_offset(starts, text, *edit.start), _offset(starts, text, *edit.end), len(content)))
    ranges.sort()
    old_spans, new_spans, shift = [], [], 0
    for start, end, length in ranges:
        old_spans.append((start, end))
        new_spans.append((start + shift, start + shift + length))
        shift += length - (end - start)
    return new, old_spans, new_spans


def _touches(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """A node written at [start, end) meets an edited range (an empty range, where text was
    inserted or removed, meets the nodes it borders)."""
    return any((s < end and start < e) or (s == e and start <= s <= end) or (start == end and s <= start <= e) for s, e in spans)


def check_edits(kind: str, text: str, edits: list[Edit], cache: dict) -> list[str] | None:
    """None when the edits break the file's structure beyond their own place; else the
    names of the anchors whose aliased values they change (empty: a plain fix)."""
    spans = edit_spans(text, edits)
    if spans is None:
        return None
    new, old_spans, new_spans = spans
    try:
        if kind == "toml":
            return [] if _same_toml(text, new, old_spans, new_spans) else None
        return _same_yaml(text, new, old_spans, new_spans, cache)
    except RecursionError:
        return None


# ------------------------------------------------------------------ YAML


def _yaml_documents(text: str) -> list | None:
    import yaml

    from vllm_lint.launch.yamlsrc import AliasError, compose_all, strip_templates

    if "{{" in text:  # Helm: templates are unknown text of the same length, as the reader sees them
        text, _ = strip_templates(text)
    try:
        return list(compose_all(text))
    except (yaml.YAMLError, AliasError, ValueError):
        if "{%" in text or "{#" in text:
            try:
                return list(compose_all(strip_templates(text, jinja=True)[0]))
            except (yaml.YAMLError, AliasError, ValueError):
                return None
        return None


def _shared(documents: list, text: str) -> dict[int, str]:
    """Nodes reached through an alias (and everything inside them): id -> the anchor's name."""
    from vllm_lint.launch.yamlsrc import _children

    seen: set[int] = set()
    targets = []
    stack = [node for node in documents if node is not None]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            targets.append(node)
            continue
        seen.add(id(node))
        stack.extend(_children(node))
    shared: dict[int, str] = {}
    for target in targets:
        name = getattr(target, "anchor", None) or _anchor_at(target, text)
        inner = [target]
        while inner:
            node = inner.pop()
            if id(node) not in shared:
                shared[id(node)] = name
                inner.extend(_children(node))
    return shared


def _anchor_at(node, text: str) -> str:
    """A collection keeps its anchor inside its own marks: ``&name [...]``."""
    import re

    match = re.compile(r"&([^\s,\[\]{}]+)").match(text, node.start_mark.index)
    return match.group(1) if match else "an anchor"


def _same_yaml(old: str, new: str, old_spans, new_spans, cache: dict) -> list[str] | None:
    import yaml

    key = ("yaml", old)
    if key not in cache:
        cache[key] = _yaml_documents(old)
    before = cache[key]
    if before is None:
        return []  # the reader made it out some other way (not YAML as written): nothing to compare
    after = _yaml_documents(new)
    if after is None or len(after) != len(before):
        return None
    shared = _shared(before, old)
    aliased: list[str] = []
    compared: set[tuple[int, int]] = set()

    def old_touched(node) -> bool:
        return _touches(old_spans, node.start_mark.index, node.end_mark.index)

    def new_touched(node) -> bool:
        return _touches(new_spans, node.start_mark.index, node.end_mark.index)

    def same(a, b) -> bool:
        if a is None or b is None:
            return a is b
        pair = (id(a), id(b))
        if pair in compared:
            return True
        compared.add(pair)
        if type(a) is not type(b) or isinstance(a, yaml.ScalarNode):
            if type(a) is type(b) and a.tag == b.tag and a.value == b.value:
                return True
            if not (old_touched(a) and new_touched(b)):
                return False
            if id(a) in shared:
                aliased.append(shared[id(a)])
            return True
        if isinstance(a, yaml.SequenceNode):
            if len(a.value) == len(b.value):
                return all(same(x, y) for x, y in zip(a.value, b.value))
            return _same_items(a.value, b.value, old_touched, new_touched)
        return _same_mapping(a, b, same, old_spans, new_spans)

    if not all(same(a, b) for a, b in zip(before, after)):
        return None
    return aliased


def _shape(node, memo: dict) -> object:
    """A node's content as a hashable value (its text, not its place)."""
    import yaml

    if id(node) in memo:
        return memo[id(node)]
    if isinstance(node, yaml.ScalarNode):
        shape: object = (node.tag, node.value)
    elif isinstance(node, yaml.SequenceNode):
        shape = (node.tag, tuple(_shape(item, memo) for item in node.value))
    else:
        shape = (node.tag, tuple((_shape(k, memo), _shape(v, memo)) for k, v in node.value))
    memo[id(node)] = shape
    return shape


def _same_items(old_items: list, new_items: list, old_touched, new_touched) -> bool:
    """A list that grew or shrank: the items only one side has are where the edits are."""
    from difflib import SequenceMatcher

    memo: dict = {}
    matcher = SequenceMatcher(None, [_shape(x, memo) for x in old_items], [_shape(y, memo) for y in new_items], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if not all(old_touched(x) for x in old_items[i1:i2]) or not all(new_touched(y) for y in new_items[j1:j2]):
            return False
    return True


def _entry_key(key_node) -> object:
    import yaml

    return (key_node.tag, key_node.value) if isinstance(key_node, yaml.ScalarNode) else id(key_node)


def _same_mapping(a, b, same, old_spans, new_spans) -> bool:
    old_entries = {_entry_key(k): (k, v) for k, v in a.value}
    new_entries = {_entry_key(k): (k, v) for k, v in b.value}
    for name, (key_node, value_node) in old_entries.items():
        if name in new_entries:
            other_key, other_value = new_entries[name]
            if not (same(key_node, other_key) and same(value_node, other_value)):
                return False
        elif not _touches(old_spans, key_node.start_mark.index, value_node.end_mark.index):
            return False  # an entry lost away from the edits
    for name, (key_node, value_node) in new_entries.items():
        if name not in old_entries and not _touches(new_spans, key_node.start_mark.index, value_node.end_mark.index):
            return False  # an entry that appeared away from the edits
    return True


# ------------------------------------------------------------------ TOML


def _toml(text: str):
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return None


def _edited_lines(text: str, spans) -> str:
    """The whole lines the edits touch."""
    pieces = []
    for start, end in spans:
        first = text.rfind("\n", 0, start) + 1
        last = text.find("\n", end)
        pieces.append(text[first : len(text) if last == -1 else last])
    return "\n".join(pieces)


def _differences(a, b, path: tuple) -> list[tuple]:
    if isinstance(a, dict) and isinstance(b, dict):
        found = []
        for key in a.keys() | b.keys():
            if key not in a or key not in b:
                found.append((*path, key))
            else:
                found.extend(_differences(a[key], b[key], (*path, key)))
        return found
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [found for index, (x, y) in enumerate(zip(a, b)) for found in _differences(x, y, (*path, index))]
    return [] if a == b and type(a) is type(b) else [path]


def _same_toml(old: str, new: str, old_spans, new_spans) -> bool:
    """TOML keeps no positions: each changed key must be written on a line the edits touch."""
    before = _toml(old)
    if before is None:
        return True  # nothing to compare with
    after = _toml(new)
    if after is None:
        return False
    lines = _edited_lines(old, old_spans) + "\n" + _edited_lines(new, new_spans)
    for path in _differences(before, after, ()):
        names = [part for part in path if isinstance(part, str)]
        if not names or names[-1] not in lines:
            return False
    return True


# ------------------------------------------------------------------ a value of a launched --config file


def config_value_fix(text: str, line: int, col: int, value: str, safety: str, message: str) -> Fix | None:
    """The fix that sets the value of the YAML key written at ``line`` (1-based) and ``col``
    (0-based, characters) to ``value``, keeping its quotes, anchor and tag; None when the key
    is not a plain entry of a mapping or the edit would change more than the value."""
    import yaml

    documents = _yaml_documents(text)
    if not documents:
        return None
    stack = [node for node in documents if node is not None]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen or not isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            continue
        seen.add(id(node))
        pairs = node.value if isinstance(node, yaml.MappingNode) else []
        for key_node, value_node in pairs:
            if (key_node.start_mark.line + 1, key_node.start_mark.column) != (line, col):
                continue
            if not isinstance(value_node, yaml.ScalarNode) or value_node.style not in (None, "", '"', "'"):
                return None
            start, end = value_node.start_mark.index, value_node.end_mark.index
            quote = value_node.style if value_node.style in ('"', "'") else ""
            edit = _offsets_edit(text, start, end, f"{quote}{value}{quote}")
            return reviewed("yaml", text, Fix(safety, message, [edit]))
        stack.extend(part for pair in pairs for part in pair)
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return None


def _offsets_edit(text: str, start: int, end: int, content: str) -> Edit:
    def position(offset: int) -> tuple[int, int]:
        return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1

    return Edit(position(start), position(end), content)
