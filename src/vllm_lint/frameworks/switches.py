"""Settings a framework's entry point turns on by itself (a pack's ``switches``).

prime-rl's ``rl`` entry point, for one, turns ``inference.enable_return_sampling_mask``
on when a train source samples with truncation (``top_p < 1`` or a ``top_k``).
A switch rewrites the merged config as the framework would, before the engine
arguments are built: the key it sets is located at the key that triggered it,
so findings point there.  When a trigger is uncertain (a value known only at run
time, a list of sources that may each decide otherwise), the key becomes
unknown unless the config already turns it on; when no trigger holds, the config
is left as written.
"""

from __future__ import annotations

from vllm_lint.facts import UNKNOWN
from vllm_lint.frameworks.pack import Pack
from vllm_lint.frameworks.tree import ConfigTree, Entry

_NONE_SPELLINGS = (None, "None")  # TOML has no null: prime-rl reads the string "None" as None


def apply_switches(pack: Pack, tree: ConfigTree) -> None:
    for spec in pack.switches:
        required = spec.get("requires")
        if required and not _written_below(tree, required):
            continue  # the table the setting belongs to is absent (no managed inference server)
        state, trigger, why = _evaluate(spec, tree)
        current = tree.get(spec["key"])
        if state is False:
            continue
        if state is None:
            if current is None or current.value != spec.get("value", True):
                tree.set(spec["key"], Entry(UNKNOWN, provenance="default"))
            continue
        tree.set(
            spec["key"],
            Entry(
                spec.get("value", True),
                key_span=trigger.key_span if trigger is not None else None,
                path=trigger.path if trigger is not None else None,
                provenance=trigger.provenance if trigger is not None else "framework",
                written_as=trigger.written_as if trigger is not None else "",
                why=f"{pack.name} turns it on because {why}",
            ),
        )


def _written_below(tree: ConfigTree, prefix: str) -> bool:
    start = prefix + "."
    return any(
        (key == prefix or key.startswith(start)) and entry.provenance != "default" for key, entry in tree.entries.items()
    )


def written_otherwise(tree: ConfigTree, condition) -> bool:
    """A table written in the config that may change what the pack reads: ``"key"`` when
    written at all; ``{"key": ..., "unless": {"type": [...]}}`` unless its ``type`` is
    certainly one of those (prime-rl's algorithms that sample from the live policy)."""
    key, unless = (condition, None) if isinstance(condition, str) else (condition["key"], condition.get("unless"))
    if not _written_below(tree, key):
        return False
    for sub, allowed in (unless or {}).items():
        entry = tree.get(f"{key}.{sub}")
        if entry is None or entry.value is UNKNOWN or entry.value not in allowed:
            return True
    return not unless


def item_sets_otherwise(item: dict, condition) -> bool:
    """The same, for one table of a list (a prime-rl source's own ``algo``)."""
    key, unless = (condition, None) if isinstance(condition, str) else (condition["key"], condition.get("unless"))
    value = _dig(item, key)
    if value is _ABSENT or value is None:
        return False
    if not unless:
        return True
    return not isinstance(value, dict) or any(value.get(sub) not in allowed for sub, allowed in unless.items())


def _evaluate(spec: dict, tree: ConfigTree) -> tuple[bool | None, Entry | None, str]:
    """Whether the switch certainly fires (True), certainly not (False) or may (None)."""
    for condition in spec.get("unknown_if_written", ()):
        if written_otherwise(tree, condition):
            return None, None, ""
    items_key = spec.get("items")
    inherit = spec.get("inherit", "")
    items = tree.get(items_key) if items_key else None
    if items is None and items_key and tree.has_below(items_key):
        return None, None, ""  # a list written key by key (an override of one item)
    if items is None:
        return _any_condition(spec, lambda key: _group_entry(tree, key, inherit), tree.open)
    if not isinstance(items.value, list):
        return None, None, ""
    uncertain = tree.open
    for index, item in enumerate(items.value):
        if not isinstance(item, dict):
            return None, None, ""
        if any(item_sets_otherwise(item, condition) for condition in spec.get("item_unknown_if", ())):
            uncertain = True
            continue

        def lookup(key: str, item=item, index=index):
            own = _dig(item, key)
            if own is not _ABSENT:
                return Entry(own, items.key_span, None, items.path, items.provenance, f"{items_key}[{index}].{key}")
            return _group_entry(tree, key, inherit)

        state, trigger, why = _any_condition(spec, lookup, False)
        if state is True:
            return True, trigger, why
        uncertain = uncertain or state is None
    return (None if uncertain else False), None, ""


def _group_entry(tree: ConfigTree, key: str, inherit: str) -> Entry | None:
    path = f"{inherit}.{key}" if inherit else key
    entry = tree.get(path)
    if entry is not None and not entry.written_as:
        entry = Entry(entry.value, entry.key_span, entry.value_span, entry.path, entry.provenance, path, entry.becomes, entry.why)
    return entry


def _any_condition(spec: dict, lookup, open_: bool) -> tuple[bool | None, Entry | None, str]:
    uncertain = False
    for condition in spec["when_any"]:
        entry = lookup(condition["key"])
        if entry is None:
            uncertain = uncertain or open_
            continue
        holds = _holds(condition, entry.value)
        if holds is True:
            return True, entry, f"{entry.written_as or condition['key']} = {_show(entry.value)}"
        uncertain = uncertain or holds is None
    return (None if uncertain else False), None, ""


def _holds(condition: dict, value) -> bool | None:
    if value is UNKNOWN or isinstance(value, str) and "${" in value:
        return None
    if "set" in condition:
        return (value not in _NONE_SPELLINGS) == bool(condition["set"])
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value < condition["below"]


_ABSENT = object()


def _dig(mapping: dict, dotted: str):
    value = mapping
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return _ABSENT
        value = value[part]
    return value


def _show(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
