"""A merged framework config -> the ``EngineFacts`` and ``RequestFacts`` every front end builds.

The pack's ``engine`` entries are applied in order (later ones win, null values
are dropped), its ``request`` entries give the sampling parameters every request
carries, and what the framework sets itself is added last.  A key the tree may
hold but does not show (an unread base config) is UNKNOWN, so rules stay silent.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from vllm_lint.facts import ABSENT, UNKNOWN, EngineFacts, Known, Mapping, Origin, RequestFacts, Span, known_bool
from vllm_lint.frameworks.pack import Pack
from vllm_lint.frameworks.tree import ConfigTree, Entry

MISSING = "???"  # OmegaConf's mandatory value: set at launch


@dataclass
class Built:
    engine: EngineFacts
    requests: list[RequestFacts]
    # (scope, vLLM name) -> (key path, entry) that decided the fact, for messages and fixes;
    # the engine's here, each request's in ``request_decided`` (one dict per request).
    decided_by: dict[tuple[str, str], tuple[str, Entry]] = field(default_factory=dict)
    request_decided: list[dict] = field(default_factory=list)


def _origin(entry: Entry) -> Origin | None:
    if entry.key_span is None:
        return None
    kind = "flag" if entry.provenance == "override" else "config-key"
    return Origin(entry.key_span, kind, path=entry.path)


def _fact(entry: Entry):
    value = entry.value
    if value is UNKNOWN or value == MISSING:
        return UNKNOWN
    return Known(value, _origin(entry))


def _mapping(leaves: list[tuple[str, Entry]]) -> Mapping:
    mapping = Mapping()
    for relative, entry in leaves:
        if not relative:
            return mapping
        head, _, rest = relative.partition(".")
        if rest:
            inner = mapping.items.get(head)
            if not (isinstance(inner, Known) and isinstance(inner.value, Mapping)):
                inner = Known(Mapping(), _origin(entry))
                mapping.items[head] = inner
            _put(inner.value, rest, entry)
        else:
            mapping.items[head] = _value_fact(entry)
    return mapping


def _put(mapping: Mapping, relative: str, entry: Entry) -> None:
    head, _, rest = relative.partition(".")
    if not rest:
        mapping.items[head] = _value_fact(entry)
        return
    inner = mapping.items.get(head)
    if not (isinstance(inner, Known) and isinstance(inner.value, Mapping)):
        inner = Known(Mapping(), _origin(entry))
        mapping.items[head] = inner
    _put(inner.value, rest, entry)


def _value_fact(entry: Entry):
    if isinstance(entry.value, dict):
        inner = Mapping()
        for key, value in entry.value.items():
            inner.items[str(key)] = _value_fact(Entry(value, entry.key_span, None, entry.path, entry.provenance))
        return Known(inner, _origin(entry))
    return _fact(entry)


def _passed_through(channel: str):
    from vllm_lint.facts import Assumption

    return Assumption(channel, verb="override", style="name")


def backend_is_other(pack: Pack, tree: ConfigTree) -> bool:
    """The config certainly runs another inference engine than vLLM."""
    if not pack.backend:
        return False
    entry = tree.get(pack.backend["key"])
    if entry is None or entry.value is UNKNOWN or entry.value == MISSING or not isinstance(entry.value, str):
        return False
    return entry.value not in pack.backend["values"]


def build(pack: Pack, tree: ConfigTree, anchor: Span) -> Built:
    engine = EngineFacts(kind=pack.name, anchor=anchor, source="framework", env_open=True)
    engine.assumed = tuple(_passed_through(channel) for channel in dict.fromkeys(tree.assumed))
    built = Built(engine, [])
    for spec in pack.engine:
        if "prefix" in spec:
            _passthrough(pack, tree, spec["prefix"], built)
            engine.verbatim_to = spec.get("reaches", "engine-args")
            continue
        entry = tree.get(spec["key"])
        if entry is None and tree.has_below(spec["key"]):
            _set_mapping(built, tree, spec["arg"], spec["key"])
            continue
        if entry is None:
            if tree.open and spec["arg"] not in engine.fields:
                engine.fields[spec["arg"]] = UNKNOWN
            continue
        if entry.value is None:
            continue  # the framework leaves it to vLLM
        _set_engine(built, spec["arg"], spec["key"], entry)
    for name in pack.engine_unknown:
        engine.fields.setdefault(name, UNKNOWN)
    _framework_sets(pack, built)
    _framework_passes(pack, tree, built)
    _transform(pack, built)
    groups: dict[str, list[dict]] = {}
    for spec in pack.request:
        groups.setdefault(spec.get("group", ""), []).append(spec)
    for group, specs in groups.items():
        # A named group (eval requests) exists only when its config is written (or the
        # key its requests come from, ``present``), and only when the setting that
        # sends them (``requires``) is certainly on.
        present = [spec["present"] for spec in specs if "present" in spec]
        if present:
            if not all(_written(tree, key) for key in present):
                continue
        elif group and not any(tree.get(spec["key"]) is not None for spec in specs):
            continue
        required = [spec["requires"] for spec in specs if "requires" in spec]
        if required and not all(_certainly_on(tree, key) for key in required):
            continue
        decided: dict = {}
        built.requests.append(_request(specs, tree, built, decided))
        built.request_decided.append(decided)
    return built


def _set_engine(built: Built, arg: str, key: str, entry: Entry) -> None:
    built.engine.fields[arg] = _value_fact(entry)
    origin = _origin(entry)
    if origin is not None:
        built.engine.written[arg] = origin
    else:
        built.engine.written.pop(arg, None)
    built.decided_by[("engine", arg)] = (key, entry)


def _set_mapping(built: Built, tree: ConfigTree, name: str, key: str) -> None:
    """An engine argument whose value is a mapping written key by key (a YAML block, a ``{...}`` override)."""
    start = key + "."
    leaves = [(path[len(start):], entry) for path, entry in tree.entries.items() if path.startswith(start)]
    first = leaves[0][1]
    origin = _origin(first)
    if key in tree.key_spans and first.provenance != "override":
        origin = Origin(tree.key_spans[key], "config-key")
    built.engine.fields[name] = Known(_mapping(leaves), origin)
    if origin is not None:
        built.engine.written[name] = origin
    decided = Entry({}, origin.span if origin else None, None, first.path, first.provenance, first.written_as)
    if first.provenance == "override" and first.written_as == key and first.whole_span is not None:
        decided.whole_span = first.whole_span
    elif first.provenance != "override" and key in tree.mapping_spans:
        decided.whole_span, decided.whole_lead = tree.mapping_spans[key], ": "
    built.decided_by[("engine", name)] = (key, decided)
    for relative, entry in leaves:
        built.decided_by[("engine", f"{name}.{relative}")] = (f"{key}.{relative}", entry)


def _passthrough(pack: Pack, tree: ConfigTree, prefix: str, built: Built) -> None:
    # Keys the framework pops from the mapping before the engine sees it.
    spec_except = {spec["prefix"]: spec.get("except", ()) for spec in pack.engine if "prefix" in spec}
    reaches = {spec["prefix"]: spec.get("reaches", "engine-args") for spec in pack.engine if "prefix" in spec}
    # Rendered as `vllm serve` options, a true boolean is the bare flag and a false one is
    # left out (verl's build_cli_args_from_config): the argument keeps vLLM's default.
    drops_false = reaches.get(prefix) == "serve-argv"
    whole = tree.get(prefix)
    if whole is not None and not isinstance(whole.value, dict):
        if whole.value is not None:
            built.engine.open = True  # an interpolation or a value set at run time
        return
    if tree.open and not tree.has_below(prefix):
        built.engine.open = True
        return
    excluded = set(spec_except.get(prefix, ()))
    for name, leaves in tree.children(prefix).items():
        if not name or name in excluded:
            continue
        key = f"{prefix}.{name}"
        if len(leaves) == 1 and leaves[0][0] == "":
            entry = leaves[0][1]
            if entry.value is None:
                continue
            if drops_false and entry.value is False:
                built.engine.fields.pop(name, None)
                built.engine.written.pop(name, None)
                built.decided_by[("engine", name)] = (key, entry)
                continue
            _set_engine(built, name, key, entry)
        else:
            _set_mapping(built, tree, name, key)
        built.engine.verbatim.add(name)
    if tree.open:
        built.engine.open = True  # the unread base config may add more keys


def _framework_sets(pack: Pack, built: Built) -> None:
    """Engine arguments and environment the framework sets itself."""
    engine = built.engine
    for spec in pack.sets:
        when = spec.get("when")
        if when and known_bool(engine.get(when)) is not True:
            if when in engine.fields and engine.fields[when] is UNKNOWN:
                for name in spec.get("args", {}):
                    engine.fields.setdefault(name, UNKNOWN)
            continue
        for name, value in spec.get("args", {}).items():
            if spec.get("unless_set") and name in engine.fields:
                continue
            engine.fields[name] = Known(value)
            engine.written.pop(name, None)
            built.decided_by[("engine", name)] = (f"({pack.name} sets {name})", Entry(value, provenance="framework"))
        for name, value in spec.get("env", {}).items():
            engine.env[name] = value


def _framework_passes(pack: Pack, tree: ConfigTree, built: Built) -> None:
    """The engine arguments the framework passes on its own, as the start-up checks read them."""
    if pack.passes is None:
        return
    engine = built.engine
    passed: dict = {}
    over = set()
    for spec in pack.passes:
        name = spec["arg"]
        if "value" in spec:
            passed[name] = Known(spec["value"])
            built.decided_by.setdefault(("engine", name), (f"({pack.name} passes {name})", Entry(spec["value"], provenance="framework")))
        elif "key" in spec:
            entry = tree.get(spec["key"])
            if entry is None:
                passed[name] = UNKNOWN  # no recorded default: the framework's own is not known
            elif entry.value is None:
                passed[name] = ABSENT  # the framework leaves it to vLLM
            else:
                passed[name] = _fact(entry)
                built.decided_by.setdefault(("engine", name), (spec["key"], entry))
        else:
            passed[name] = UNKNOWN
        if spec.get("wins") == "framework":
            over.add(name)
    engine.passed = passed
    engine.passed_over = frozenset(over)


def _transform(pack: Pack, built: Built) -> None:
    engine = built.engine
    if pack.transforms.get("speculative_config") == "drop-if-zero-speculative-tokens":
        config = engine.fields.get("speculative_config")
        if isinstance(config, Known) and isinstance(config.value, Mapping):
            tokens = config.value.get("num_speculative_tokens")
            if isinstance(tokens, Known) and tokens.value == 0:
                engine.fields["speculative_config"] = Known(None, config.origin)


def _certainly_on(tree: ConfigTree, key: str) -> bool:
    entry = tree.get(key)
    return entry is not None and entry.value is not UNKNOWN and known_bool(Known(entry.value)) is True


def _request(specs: list[dict], tree: ConfigTree, built: Built, decided: dict) -> RequestFacts:
    anchor = built.engine.anchor
    request = RequestFacts(anchor=anchor, engine=built.engine)
    for spec in specs:
        entry = tree.get(spec["key"])
        if entry is None or _overridden_per_item(spec, tree):
            # Unset and no default, or a per-source table may replace it: unknown.
            request.fields[spec["param"]] = UNKNOWN
            continue
        value = entry.value
        if value in (None, "None") and "null_when" in spec:
            replaced = _null_replacement(spec["null_when"], tree)
            if replaced is UNKNOWN:
                request.fields[spec["param"]] = UNKNOWN
                continue
            if replaced is not None:
                value = replaced
                entry = Entry(None, entry.key_span, entry.value_span, entry.path, entry.provenance, entry.written_as, becomes=value)
            elif value == "None":
                value = None  # a TOML config's spelling of None
        if value is None and "null" in spec:
            value = spec["null"]
            entry = Entry(None, entry.key_span, entry.value_span, entry.path, entry.provenance, entry.written_as, becomes=value)
        fact = _fact(Entry(value, entry.key_span, entry.value_span, entry.path, entry.provenance))
        request.fields[spec["param"]] = fact
        origin = _origin(entry)
        if origin is not None:
            request.written[spec["param"]] = origin
        decided[("request", spec["param"])] = (spec["key"], entry)
    return request


def _written(tree: ConfigTree, key: str) -> bool:
    start = key + "."
    return any((k == key or k.startswith(start)) and e.provenance != "default" for k, e in tree.entries.items())


def _overridden_per_item(spec: dict, tree: ConfigTree) -> bool:
    """A list of per-source tables (``items``) that may set the key for its sources."""
    items = spec.get("items")
    if not items:
        return False
    if any(_written(tree, key) for key in items.get("unknown_if_written", ())):
        return True
    entry = tree.get(items["list"])
    if entry is None:
        return tree.has_below(items["list"])
    if not isinstance(entry.value, list):
        return True
    for item in entry.value:
        if not isinstance(item, dict):
            return True
        for dotted in items.get("keys", ()):
            value = item
            for part in dotted.split("."):
                value = value.get(part) if isinstance(value, dict) else None
            if value is not None:
                return True
    return False


def _null_replacement(rules: list[dict], tree: ConfigTree):
    """What the framework puts in place of a null value (prime-rl's top_k bound when top_p truncates)."""
    for rule in rules:
        entry = tree.get(rule["key"])
        if entry is None or entry.value is UNKNOWN:
            return UNKNOWN
        value = entry.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return UNKNOWN
        if value < rule["below"]:
            return rule["value"]
    return None
