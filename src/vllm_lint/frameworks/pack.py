"""A framework pack as the engine reads it, built from a pack's data (built-in or declared).

A pack says how a framework maps its configuration to vLLM:

* ``detect``: key paths whose presence makes a config this framework's;
* ``engine``: an ordered list of ``{"key": path, "arg": name}`` (one key to one
  engine argument) and ``{"prefix": path}`` (every key below it is an engine
  argument of the same name); later entries win, ``null`` values are dropped.
  A key entry says what the framework does with the value on its way to vLLM:
  ``reaches`` (as for a prefix), ``values`` (``{"fp8": "bfloat16"}``: the value
  sent for one written; ``otherwise``: for any other), ``above`` (the argument is ``value > n``), ``when``
  (``{"key": path, "is": v}`` or ``{"key": path, "above": n}``: passed only
  then), ``framework_accepts`` (a list, or bounds ``{"ge": 1}``: the framework
  rejects any other value itself, or fails on it, before vLLM starts), ``"null": "run-time"`` (null is decided at run time, not
  left to vLLM), ``replaced`` (patterns of values the framework may replace at
  run time), ``unless_empty`` (passed only when the value is truthy, over an
  earlier entry) and ``"repeated": "error"`` (the framework's own call fails
  when a prefix also gives the argument).  A prefix's ``framework_accepts``
  (``{"dtype": [...], "data_parallel_size": {"ge": 1}}``) names the keys the
  framework validates itself before vLLM sees them.  What vLLM would not receive is
  unknown.
  A prefix's ``reaches`` says what vLLM checks its names against:
  ``"engine-args"`` (the default: ``LLM``/``EngineArgs`` keywords),
  ``"serve-argv"`` (rendered as ``vllm serve`` options, which its parser
  rejects when unknown; a true boolean is the bare flag, a false one is left out), ``"engine-argv"``
  (rendered as engine-argument options, ``--no-x`` for a false boolean, for a parser of
  ``AsyncEngineArgs``' options: Dynamo's vLLM worker) or ``"serve-namespace"`` (set on the server's parsed
  arguments, where an unknown one is ignored);
* ``request``: ``{"key": path, "param": name[, "null": value]}``, the sampling
  parameters every request gets (``null`` says what the framework makes of null);
* ``defaults``: the framework's own value per key path; a value may be a table
  ``{"first release": value, ...}`` when it changed across releases;
* ``backend``: the key that chooses the inference engine, and its vLLM values;
* ``backends``: a backend value that runs vLLM another way (NeMo-RL's ``dynamo``: vLLM's
  engine arguments on ``python -m dynamo.vllm``'s command line), with what differs from
  the pack for it: ``read_from``, ``engine``, ``engine_unknown``, ``transforms``, ``sets``,
  ``passes`` and ``vllm_pins`` (the vLLM of the environment that backend runs in, for a
  project that pins the framework and names no vLLM);
* ``sets``: engine arguments and environment the framework sets itself
  (``when`` names an engine argument that must be certainly on);
* ``passes``: every other engine argument the framework passes to vLLM on its own,
  as the start-up checks (VLM4xx) read them: ``{"arg": name}`` (decided at run
  time: unknown), with ``"key": path`` (the value of that key) or ``"value": v``
  (always that), and ``"wins": "framework"`` when it replaces the user's own
  value; an argument not listed is not passed (vLLM's default).  A pack without
  ``passes`` may pass anything: the start-up checks read every argument it does
  not write as unknown;
* ``config_root`` and ``groups`` (Hydra): the framework's config folder, whose
  config groups a ``defaults:`` list or a ``group=option`` override may choose
  from, and the group options the recorded ``defaults`` stand for
  (``{"rollout/rollout": "actor_rollout_ref.rollout"}``);
* ``switches``: settings the framework's entry point turns on by itself, from
  other keys (``{"key": path, "value": v, "when_any": [condition, ...]}``, with
  ``requires`` (a table that must be present) and ``items`` (a list of tables,
  each read over ``inherit``, whose items decide instead of the group)); a
  condition is ``{"key": path, "below": n}`` or ``{"key": path, "set": true}``;
* ``version_file``: where the framework's source tree records its own release
  (verl's ``verl/version/version``): a project that holds it is the framework or a
  fork of it, and runs that release when it pins none;
* ``vllm_pins``: the vLLM the framework requires, per framework release (the
  release's own line, ``"0.6"`` for 0.6.x): a version (``"0.25"``), a PEP 440
  specifier (``">=0.8.5,<=0.12"``), or ``{extra: either}`` when the framework's
  extras differ.  It is the target version of a project that pins the framework
  but not vLLM, when every vLLM it admits behaves the same for the rules.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field


class PackError(ValueError):
    """A declared pack that cannot be used."""


@dataclass
class Pack:
    name: str
    read_from: str = ""
    detect: list[str] = field(default_factory=list)
    markers: list[str] = field(default_factory=list)
    engine: list[dict] = field(default_factory=list)
    request: list[dict] = field(default_factory=list)
    defaults: dict = field(default_factory=dict)
    own_configs: dict = field(default_factory=dict)
    implicit_base: bool = True
    distribution: str | None = None
    version_file: str | None = None
    launchers: dict = field(default_factory=dict)
    backend: dict | None = None
    engine_unknown: list[str] = field(default_factory=list)
    transforms: dict = field(default_factory=dict)
    sets: list[dict] = field(default_factory=list)
    # The engine arguments the framework passes on its own (None: not known, any of them).
    passes: list[dict] | None = None
    globs: list[str] = field(default_factory=list)
    # The vLLM release the framework pins, per framework release (first release -> vLLM).
    vllm_pins: dict = field(default_factory=dict)
    # Settings the framework's entry point turns on by itself (prime-rl's ``rl``).
    switches: list[dict] = field(default_factory=list)
    # Hydra: the framework's config folder (in its repository and its installed package), and
    # the group options whose keys are the recorded defaults ("group/option" -> package).
    config_root: str | None = None
    groups: dict = field(default_factory=dict)
    declared_in: str | None = None  # the pyproject.toml of a user-declared pack
    formats: tuple = ("yaml",)
    # Backend value -> what differs for it (``backends`` above); ``variants``: the pack for each.
    backends: dict = field(default_factory=dict)
    variants: dict = field(default_factory=dict, repr=False)
    backend_of: str | None = None  # the backend value a variant is for

    def for_backend(self, value) -> Pack:
        """The pack for a backend value: its variant, or this pack."""
        return self.variants.get(value, self) if isinstance(value, str) else self

    def detects(self, paths) -> str | None:
        """The first detect key path present in a config's key paths (``a+b``: both)."""
        for wanted in self.detect:
            if all(any(path == part or path.startswith(part + ".") for path in paths) for part in wanted.split("+")):
                return wanted
        return None

    def matches_glob(self, relative: str) -> bool:
        return any(fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch("/" + relative, "*/" + pattern) for pattern in self.globs)

    @property
    def modules(self) -> list[str]:
        return list(self.launchers.get("modules", []))

    @property
    def scripts(self) -> list[str]:
        return list(self.launchers.get("scripts", []))

    def launch_markers(self) -> list[bytes]:
        """Text one of whose pieces a command running this pack's entry points holds: the
        entry points it names, or (for one derived from source) the key paths its overrides set."""
        launchers = self.launchers
        words = [*launchers.get("modules", []), *launchers.get("engine_modules", []), *launchers.get("commands", [])]
        words += [script.rsplit("/", 1)[-1] for script in launchers.get("scripts", [])]
        if launchers.get("composes") or launchers.get("config_names"):
            words += [part.split(".", 1)[0] for entry in self.detect for part in entry.split("+")]
        return [word.encode() for word in words if word]


_FIELDS = {
    "name", "read_from", "detect", "markers", "engine", "request", "defaults", "own_configs",
    "implicit_base", "distribution", "launchers", "backend", "engine_unknown", "transforms",
    "sets", "globs", "vllm_pins", "formats", "switches", "config_root", "groups", "passes", "backends",
    "version_file",
}
# What a backend's variant may say differently from its pack.
_BACKEND_FIELDS = {"read_from", "engine", "engine_unknown", "transforms", "sets", "passes", "vllm_pins"}


_LAUNCHER_LISTS = {"modules", "engine_modules", "scripts", "commands", "engine_commands", "composes", "reaches", "config_names", "sends"}
_LAUNCHER_FIELDS = _LAUNCHER_LISTS | {"mounts", "style", "config_option"}


# The settings of an engine entry (see ``engine`` above).
_PREFIX_FIELDS = {"prefix", "reaches", "except", "framework_accepts"}
_KEY_FIELDS = {"key", "arg", "reaches", "values", "otherwise", "above", "when", "framework_accepts", "null", "replaced", "unless_empty", "repeated"}

# What a prefix's keys are checked against by vLLM (see ``engine`` above).
PASSTHROUGH_TARGETS = ("engine-args", "serve-argv", "engine-argv", "serve-namespace")


def _key_entry_problem(entry: dict) -> str | None:
    """What is wrong with a key entry's settings (a declared pack's), if anything."""
    def number(value) -> bool:
        return isinstance(value, (int, float)) and not isinstance(value, bool)

    if "values" in entry and not isinstance(entry["values"], dict):
        return "values is a table of written value = value sent"
    if "above" in entry and not number(entry["above"]):
        return "above is a number"
    if "when" in entry and "above" in entry["when"] and not number(entry["when"]["above"]):
        return "when.above is a number"
    accepts = entry.get("framework_accepts")
    if accepts is not None and not (
        isinstance(accepts, list) or (isinstance(accepts, dict) and accepts and set(accepts) <= {"ge", "le"} and all(map(number, accepts.values())))
    ):
        return "framework_accepts is a list of values or bounds { ge = n, le = n }"
    if entry.get("null", "run-time") != "run-time":
        return 'null is "run-time"'
    if "replaced" in entry and not (isinstance(entry["replaced"], list) and all(isinstance(p, str) for p in entry["replaced"])):
        return "replaced is a list of patterns"
    if entry.get("repeated", "error") != "error":
        return 'repeated is "error"'
    if not isinstance(entry.get("unless_empty", False), bool):
        return "unless_empty is true or false"
    return None


def pack_from_data(data: dict, declared_in: str | None = None) -> Pack:
    unknown = set(data) - _FIELDS
    if unknown:
        raise PackError(f"unknown pack setting(s): {', '.join(sorted(unknown))}")
    for entry in data.get("engine", []):
        if not isinstance(entry, dict) or not ({"key", "arg"} <= set(entry) or "prefix" in entry):
            raise PackError(f"engine entries need key and arg, or prefix: {entry!r}")
        if entry.get("reaches", "engine-args") not in PASSTHROUGH_TARGETS:
            raise PackError(f"reaches is one of {', '.join(PASSTHROUGH_TARGETS)}: {entry!r}")
        unknown_fields = set(entry) - (_PREFIX_FIELDS if "prefix" in entry else _KEY_FIELDS)
        if unknown_fields:
            raise PackError(f"unknown engine entry setting(s) {', '.join(sorted(unknown_fields))}: {entry!r}")
        if "prefix" in entry:
            accepts = entry.get("framework_accepts", {})
            if not isinstance(accepts, dict) or any(_key_entry_problem({"framework_accepts": v}) for v in accepts.values()):
                raise PackError(f"a prefix's framework_accepts is a table of name = values or bounds: {entry!r}")
            continue
        when = entry.get("when")
        if when is not None and not (isinstance(when, dict) and "key" in when and ({"is", "above"} & set(when))):
            raise PackError(f"an engine entry's when needs key and is or above: {entry!r}")
        problem = _key_entry_problem(entry)
        if problem:
            raise PackError(f"an engine entry's {problem}: {entry!r}")
    for entry in data.get("request", []):
        if not isinstance(entry, dict) or not {"key", "param"} <= set(entry):
            raise PackError(f"request entries need key and param: {entry!r}")
    passes = data.get("passes")
    if passes is not None and not (isinstance(passes, list) and all(isinstance(e, dict) and "arg" in e for e in passes)):
        raise PackError(f"passes is a list of tables with arg (and key or value): {passes!r}")
    for entry in data.get("switches", []):
        if not isinstance(entry, dict) or not {"key", "when_any"} <= set(entry):
            raise PackError(f"switches need key and when_any: {entry!r}")
        for condition in entry["when_any"]:
            if not isinstance(condition, dict) or "key" not in condition or not ({"below", "set"} & set(condition)):
                raise PackError(f"a switch condition needs key and below or set: {condition!r}")
    launchers = data.get("launchers", {})
    if not isinstance(launchers, dict) or set(launchers) - _LAUNCHER_FIELDS:
        known = ", ".join(sorted(_LAUNCHER_FIELDS))
        raise PackError(f"launchers is a table of {known}: {launchers!r}")
    for name, value in launchers.items():
        if name in _LAUNCHER_LISTS and not (isinstance(value, list) and all(isinstance(v, (str, list)) for v in value)):
            raise PackError(f"launchers.{name} must be a list: {value!r}")
    backends = data.get("backends", {})
    if not isinstance(backends, dict) or not all(isinstance(v, dict) for v in backends.values()):
        raise PackError(f"backends is a table of backend value = settings: {backends!r}")
    variants = {}
    for value, override in backends.items():
        unknown_fields = set(override) - _BACKEND_FIELDS
        if unknown_fields:
            raise PackError(f"backends.{value} may set {', '.join(sorted(_BACKEND_FIELDS))}, not {', '.join(sorted(unknown_fields))}")
        base = {key: item for key, item in data.items() if key != "backends"}
        variant = pack_from_data({**base, **override}, declared_in)
        variant.backend_of = value
        variants[value] = variant
    values = dict(data)
    if "formats" in values:
        values["formats"] = tuple(values["formats"])
    pack = Pack(declared_in=declared_in, **values)
    pack.variants = variants
    return pack


@dataclass
class Applied:
    """A pack that applied to a file, and why (``--show-settings``)."""

    pack: str
    reason: str
    defaults: str = ""
