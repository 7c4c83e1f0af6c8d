"""A merged framework config -> the ``EngineFacts`` and ``RequestFacts`` every front end builds.

The pack's ``engine`` entries are applied in order (later ones win, null values
are dropped), its ``request`` entries give the sampling parameters every request
carries, and what the framework sets itself is added last.  A key the tree may
hold but does not show (an unread base config) is UNKNOWN, so rules stay silent.
"""

from __future__ import annotations

import fnmatch
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
    # Engine arguments the framework passes from one of its own keys (``{"key", "arg"}``
    # entries): what vLLM gets from it (Known, ABSENT when nothing is passed, UNKNOWN).
    mapped: dict[str, object] = field(default_factory=dict)
    # Why an argument a framework key maps is unknown (for ``explain``).
    unknown_why: dict[str, str] = field(default_factory=dict)


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
    return entry.value not in pack.backend["values"] and entry.value not in pack.backends and entry.value != pack.backend_of


def build(pack: Pack, tree: ConfigTree, anchor: Span) -> Built:
    engine = EngineFacts(kind=pack.name, anchor=anchor, source="framework", env_open=True)
    engine.assumed = tuple(_passed_through(channel) for channel in dict.fromkeys(tree.assumed))
    built = Built(engine, [])
    for spec in pack.engine:
        if "prefix" in spec:
            _passthrough(pack, tree, spec["prefix"], built)
            engine.verbatim_to = spec.get("reaches", "engine-args")
            continue
        _set_from_key(pack, built, tree, spec)
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


def _set_from_key(pack: Pack, built: Built, tree: ConfigTree, spec: dict) -> None:
    """One framework key handed to vLLM as an engine argument, as vLLM receives it: a null the
    framework fills in at run time (``"null": "run-time"``), a value it may replace at run time
    (``replaced``), one it renders as a ``vllm serve`` flag (``reaches``: false is left out), one
    it converts (``values``, ``above``), or one it passes only when another key says so (``when``)."""
    engine, arg, key = built.engine, spec["arg"], spec["key"]
    condition = _condition(tree, spec["when"]) if "when" in spec else True
    if condition is False:
        return
    if spec.get("repeated") == "error" and arg in engine.verbatim:
        # Also given verbatim: the framework's own call fails (a keyword passed twice), vLLM gets neither.
        engine.fields[arg] = UNKNOWN
        engine.written.pop(arg, None)
        built.mapped[arg] = UNKNOWN
        built.unknown_why[arg] = f"{key} and the verbatim {arg} are the same keyword: {pack.name}'s own call fails first"
        return
    entry = tree.get(key)
    if entry is None and tree.has_below(key):
        _set_mapping(built, tree, arg, key)
        built.mapped[arg] = engine.fields[arg]
        return
    if entry is None:
        # Unset with no default known: a framework that passes it anyway (the pack's ``passes``)
        # passes its own value, which is not known, over what an earlier prefix gave.
        passed_anyway = any(item["arg"] == arg for item in pack.passes or ())
        if (tree.open and arg not in engine.fields) or (passed_anyway and arg in engine.verbatim):
            engine.fields[arg] = UNKNOWN
            engine.written.pop(arg, None)
        if passed_anyway or tree.open:
            built.mapped[arg] = UNKNOWN
        return
    if condition is None:
        engine.fields[arg] = UNKNOWN  # passed or not as another key decides at run time
        engine.written.pop(arg, None)
        built.mapped[arg] = UNKNOWN
        built.unknown_why[arg] = f"{pack.name} passes {key} only when {spec['when']['key']} says so, which is not known"
        return
    if entry.value is UNKNOWN or entry.value == MISSING:
        _set_engine(built, arg, key, entry)
        built.mapped[arg] = UNKNOWN
        return
    value = entry.value
    if spec.get("unless_empty") and not value:
        return  # the framework passes it only when set (``if config.x:``): an earlier entry's value stands
    if value is None:
        if spec.get("null") == "run-time":
            engine.fields[arg] = UNKNOWN
            built.mapped[arg] = UNKNOWN
            built.unknown_why[arg] = f"{key} is null: {pack.name} decides it at run time"
        else:
            built.mapped[arg] = ABSENT  # the framework leaves it to vLLM
        return
    replaced = isinstance(value, str) and any(fnmatch.fnmatchcase(value, pattern) for pattern in spec.get("replaced", ()))
    # A value the framework may put another in place of at run time, or one it rejects itself
    # before vLLM starts (vLLM never sees it): not what vLLM receives.
    if replaced or not _framework_accepts(spec.get("framework_accepts"), value):
        engine.fields[arg] = UNKNOWN
        engine.written.pop(arg, None)
        built.mapped[arg] = UNKNOWN
        built.unknown_why[arg] = (
            f"{key} = {value}: {pack.name} may replace it at run time" if replaced
            else f"{key} = {value}: {pack.name} rejects it (or fails on it) before vLLM starts"
        )
        return
    becomes = _converted(spec, value)
    if becomes is UNKNOWN:
        engine.fields[arg] = UNKNOWN
        built.mapped[arg] = UNKNOWN
        return
    if spec.get("reaches") == "serve-argv" and becomes is False:
        # Rendered as `vllm serve` options, a false boolean is left out: vLLM's default applies.
        engine.fields.pop(arg, None)
        engine.written.pop(arg, None)
        built.decided_by[("engine", arg)] = (key, entry)
        built.mapped[arg] = ABSENT
        return
    if becomes is not value:
        sent = Entry(becomes, entry.key_span, entry.value_span, entry.path, entry.provenance, entry.written_as)
        _set_engine(built, arg, key, sent)
        # Messages name the key as written and what the framework sends for it.
        shown = Entry(value, entry.key_span, entry.value_span, entry.path, entry.provenance, entry.written_as,
                      becomes=becomes, why=entry.why, word=entry.word)
        built.decided_by[("engine", arg)] = (key, shown)
    else:
        _set_engine(built, arg, key, entry)
    built.mapped[arg] = engine.fields[arg]
    if entry.provenance != "default":
        engine.from_keys.add(arg)


def _framework_accepts(accepts, value) -> bool:
    """Whether the framework lets the value through to vLLM: one of a list, or a number within
    bounds (``{"ge": 1}``: a parallel size the framework sizes its workers with first)."""
    if accepts is None:
        return True
    if isinstance(accepts, dict):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        return value >= accepts.get("ge", value) and value <= accepts.get("le", value)
    return value in accepts


def _converted(spec: dict, value):
    """What the framework makes of a written value before vLLM sees it (the value itself if nothing)."""
    if "values" in spec:
        if not isinstance(value, (str, int, float)):
            return spec.get("otherwise", value)
        return spec["values"].get(value, spec.get("otherwise", value))
    if "above" in spec:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return UNKNOWN
        return value > spec["above"]
    return value


def _condition(tree: ConfigTree, when: dict):
    """Whether another key certainly says the framework passes the argument (None: not known)."""
    entry = tree.get(when["key"])
    if entry is None or entry.value is UNKNOWN or entry.value == MISSING:
        return None
    if "is" in when:
        return entry.value == when["is"]
    value = entry.value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value > when["above"]


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
    # Names the framework types and validates itself before vLLM sees them (prime-rl's VllmConfig).
    accepts = next((spec.get("framework_accepts", {}) for spec in pack.engine if spec.get("prefix") == prefix), {})
    for name, leaves in tree.children(prefix).items():
        if not name or name in excluded:
            continue
        key = f"{prefix}.{name}"
        if len(leaves) == 1 and leaves[0][0] == "":
            entry = leaves[0][1]
            if entry.value is None:
                continue
            if name in accepts and entry.value is not UNKNOWN and not _framework_accepts(accepts[name], entry.value):
                built.engine.fields[name] = UNKNOWN
                built.engine.written.pop(name, None)
                built.engine.verbatim.add(name)
                built.unknown_why[name] = f"{key} = {entry.value}: {pack.name} rejects it before vLLM starts"
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
        elif name in built.mapped:
            passed[name] = built.mapped[name]  # from the framework's own key
        else:
            passed[name] = UNKNOWN
        if spec.get("wins") == "framework":
            over.add(name)
    for name, fact in built.mapped.items():
        passed.setdefault(name, fact)  # the framework passes its own keys' values
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
    from vllm_lint.frameworks.switches import item_sets_otherwise, written_otherwise

    if any(written_otherwise(tree, condition) for condition in items.get("unknown_if_written", ())):
        return True
    entry = tree.get(items["list"])
    if entry is None:
        return tree.has_below(items["list"])
    if not isinstance(entry.value, list):
        return True
    for item in entry.value:
        if not isinstance(item, dict):
            return True
        if any(item_sets_otherwise(item, condition) for condition in items.get("keys", ())):
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
