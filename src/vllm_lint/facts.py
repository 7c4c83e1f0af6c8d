"""Three-valued facts about one engine construction or one request.

Every setting a rule looks at is one of

* ``Known(value, origin)`` -- the value is certain, and ``origin`` says where it
  was written (a keyword, a dict entry, a command-line flag, a YAML key);
* ``ABSENT`` -- nothing sets it, so vLLM's default applies;
* ``UNKNOWN`` -- it comes from runtime data (a parameter, ``args.x``, an
  unresolved ``**mapping``, a branch on runtime data).  Rules stay silent.

Values inside containers follow the same scheme: a ``Mapping`` holds a fact
per key and knows whether keys it has not seen may exist; a list is a plain
Python list whose elements may be ``UNKNOWN``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union


class _Marker:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self) -> str:
        return self.name

    def __deepcopy__(self, memo: dict) -> _Marker:
        return self

    def __copy__(self) -> _Marker:
        return self


UNKNOWN: Any = _Marker("UNKNOWN")
ABSENT: Any = _Marker("ABSENT")


@dataclass(frozen=True)
class Span:
    """A source range: 1-based lines, 0-based columns (as Python's ``ast``)."""

    line: int
    col: int
    end_line: int | None = None
    end_col: int | None = None


@dataclass(frozen=True)
class Origin:
    """Where a value was written.

    ``kind`` names the syntax: ``keyword``, ``positional``, ``dict-entry``,
    ``subscript``, ``call-keyword`` (``d.update(k=v)``), ``attribute``,
    ``flag`` (command line), ``config-key`` (YAML).  ``container`` identifies
    the dict the entry belongs to, so a fixer can tell whether the dict feeds
    one engine only.
    """

    span: Span
    kind: str
    container: int | None = None
    path: str | None = None  # set when the value was written in another file
    # How the value travelled to the engine (``vllm-lint explain`` only): a tuple of ``Step``.
    # Not part of equality: two paths that carry the same written value carry the same origin.
    via: tuple = field(default=(), compare=False)
    # Passed by a caller to a function analysed with what its callers pass (``python/callers.py``):
    # findings it decides are reported where the caller writes it, by the caller's own analysis.
    from_caller: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class Step:
    """One move of a value on its way to an engine: ``splatted`` (``**mapping``), ``called-from``
    (code run for a call), ``config-file`` (read through ``--config``), ``framework-key``."""

    kind: str
    span: Span
    path: str | None = None  # None: the file being read
    detail: str = ""


class Trace:
    """Whether the resolvers record how values travel (``Origin.via``).  Only ``vllm-lint explain``
    turns it on, so ``check`` pays one attribute test where a value moves."""

    active = False


def moved(origin: Origin | None, step: Step) -> Origin | None:
    """``origin`` with one more step on its way (explain mode)."""
    if origin is None:
        return None
    return Origin(origin.span, origin.kind, origin.container, origin.path, origin.via + (step,), origin.from_caller)


@dataclass(frozen=True)
class Assumption:
    """A channel read as carrying nothing the file decides: a script's own ``$@``, the command
    line that reads a standalone ``--config`` file.  The rules run as if it were empty; a finding
    that a setting passed through it would undo says so ("unless the arguments passed through
    at $@, line 31, set --logprobs-mode")."""

    channel: str  # "the arguments passed through at $@, line 31"
    verb: str = "set"  # agrees with ``channel``: "set", "sets", "override"
    style: str = "flag"  # how settings are named: "flag" (--logprobs-mode) or "name" (logprobs_mode)
    # Settings written after the channel: it cannot change them.
    decided_after: frozenset = frozenset()

    def spell(self, name: str) -> str:
        return "--" + name.replace("_", "-") if self.style == "flag" else name

    def unless(self, names) -> str:
        """``unless the arguments passed through at $@, line 31, set --logprobs-mode``."""
        return f"unless {self.channel} {self.verb} {' or '.join(self.spell(name) for name in names)}"


class Reading:
    """How channels that could add anything are read: ``"nothing"`` (they carry nothing the file
    decides; the default) or ``"anything"`` (the strict reading: they may set any setting).
    ``[tool.vllm-lint] assume-pass-through`` chooses; the linters set it around each file."""

    pass_through = "nothing"

    @classmethod
    def lenient(cls) -> bool:
        return cls.pass_through != "anything"


class DeclaredModels:
    """The project's ``[tool.vllm-lint.models]`` (``model_facts.declared_models``), set while
    its files are linted: (model id, config dict, where it is written)."""

    declared: tuple = ()


class reading:
    """``with reading(target):`` lints with the target's project settings that change how
    files are read: ``assume-pass-through``, ``server-images``, the declared models and the
    arguments the project's own vLLM plugin adds."""

    def __init__(self, target: object) -> None:
        self.value = getattr(target, "pass_through", None) or "nothing"
        self.images = tuple(getattr(target, "server_images", None) or ())
        self.models = tuple(getattr(target, "models", None) or ())
        self.plugin_arguments = frozenset(getattr(target, "plugin_arguments", None) or ())

    def __enter__(self) -> None:
        from vllm_lint.images import ServerImages
        from vllm_lint.plugins import PluginArguments

        self.saved, Reading.pass_through = Reading.pass_through, self.value
        self.saved_images, ServerImages.declared = ServerImages.declared, self.images
        self.saved_models, DeclaredModels.declared = DeclaredModels.declared, self.models
        self.saved_plugin, PluginArguments.names = PluginArguments.names, self.plugin_arguments

    def __exit__(self, *exc: object) -> None:
        from vllm_lint.images import ServerImages
        from vllm_lint.plugins import PluginArguments

        Reading.pass_through = self.saved
        ServerImages.declared = self.saved_images
        DeclaredModels.declared = self.saved_models
        PluginArguments.names = self.saved_plugin


@dataclass(frozen=True)
class Known:
    value: Any
    origin: Origin | None = None


@dataclass(frozen=True)
class Choice:
    """One of several values, each certain on some path (``ABSENT`` among them when a
    path does not set it).  Rules never see it: the checker runs them on each
    alternative and reports what every alternative breaks."""

    options: tuple  # of Known and ABSENT


Fact = Union[Known, Choice, Any]  # Known | Choice | ABSENT | UNKNOWN


@dataclass
class Mapping:
    """A dict value: a fact per key; ``complete`` says unseen keys are absent."""

    items: dict[str, Fact] = field(default_factory=dict)
    complete: bool = True

    def get(self, key: str) -> Fact:
        if key in self.items:
            return self.items[key]
        return ABSENT if self.complete else UNKNOWN

    def truthy(self) -> bool | None:
        """Whether ``bool(d)`` is certain: ``None`` when unknown."""
        if self.items:
            return True
        return False if self.complete else None


def is_known(fact: Fact) -> bool:
    return isinstance(fact, Known)


def truthiness(value: Any) -> bool | None:
    """``bool(value)`` where certain, else ``None``."""
    if value is UNKNOWN:
        return None
    if isinstance(value, Mapping):
        return value.truthy()
    if isinstance(value, (list, tuple)):
        return bool(value)
    if isinstance(value, (bool, int, float, str, bytes)) or value is None:
        return bool(value)
    return None


_PYDANTIC_TRUE = {"1", "on", "t", "true", "y", "yes"}
_PYDANTIC_FALSE = {"0", "off", "f", "false", "n", "no"}


def as_bool(value: Any) -> bool | None:
    """The bool a pydantic (lax) ``bool`` field makes of ``value``; ``None`` if unknown or invalid."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, float) and value in (0.0, 1.0):
        return bool(value)
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in _PYDANTIC_TRUE:
            return True
        if lowered in _PYDANTIC_FALSE:
            return False
    return None


def written_pairs(fact: Fact) -> list[tuple[str, Fact]] | None:
    """A dict value's keys that every path writes, each with its fact; None when the value is
    not a known dict."""
    if not (isinstance(fact, Known) and isinstance(fact.value, Mapping)):
        return None
    return [
        (key, item)
        for key, item in fact.value.items.items()
        if isinstance(item, Known) or (isinstance(item, Choice) and ABSENT not in item.options)
    ]


def known_bool(fact: Fact, default: bool | None = False) -> bool | None:
    """A boolean setting as vLLM sees it: ``default`` when absent, ``None`` if unknown."""
    if fact is ABSENT:
        return default
    if isinstance(fact, Known):
        if fact.value is None:
            return default
        return as_bool(fact.value)
    return None


def known_number(fact: Fact) -> float | None:
    if isinstance(fact, Known) and isinstance(fact.value, (int, float)) and not isinstance(fact.value, bool):
        return fact.value
    return None


@dataclass
class EngineFacts:
    """What one engine receives.

    ``fields`` holds the settings that were written (or resolved); a field not
    in it is ``ABSENT`` unless ``open`` (an unresolved ``**mapping``, a
    ``from_cli_args`` namespace) makes every unwritten field ``UNKNOWN``.
    ``env`` is the state of environment variables when the engine is built.
    ``anchor`` is where findings about missing settings point.
    """

    kind: str
    anchor: Span
    fields: dict[str, Fact] = field(default_factory=dict)
    # Where each present setting was written, known value or not.
    written: dict[str, Origin] = field(default_factory=dict)
    open: bool = False
    env: dict[str, Fact] = field(default_factory=dict)
    env_open: bool = False
    # Which front end produced the facts: "python" or "command-line".
    source: str = "python"
    # Set when the engine is built in code run for a call (a class constructed, a function of
    # another module): (file or None for this one, where the construction is written).
    # ``anchor`` is then the call in this file.
    built_at: tuple[str | None, Span] | None = None
    # The ``**mapping`` or ``*args`` of the construction that left ``open`` set, where one did.
    opened_by: Span | None = None
    # Codes not to report for this engine (the construction's own file reports them).
    suppressed: frozenset = frozenset()
    # How many calls deep the construction is below the call it is reported at.
    call_depth: int = 0
    # Command lines read by vLLM's own parser: every option written, in order, as
    # (option string, where, value text or None); None where the options are not all known.
    options: list | None = None
    # The server runs in an image that is not vLLM's own (``vllm/vllm-omni``, a platform's
    # build): plugins installed there may add options, so one no release has is unknown.
    extended_parser: bool = False
    # The file does not say which release runs the server (a KubeAI Model without an image
    # runs the operator's): only what no known release accepts is reported.
    release_unknown: bool = False
    # A framework's config: the settings it passes to vLLM verbatim, as written (prime-rl's
    # ``[inference.vllm]``, verl's ``engine_kwargs.vllm``), whose names vLLM itself checks.
    verbatim: set = field(default_factory=set)
    # What vLLM checks those names against (``frameworks.pack.PASSTHROUGH_TARGETS``).
    verbatim_to: str = "engine-args"
    # A framework's config: the engine arguments it passes from its own keys that the config
    # writes (verl's ``rollout.gpu_memory_utilization``), whose names vLLM checks the same way.
    from_keys: set = field(default_factory=set)
    # A framework's config: the engine arguments the framework passes on its own (pack
    # ``passes``), as facts, and those that replace the user's value; None: not known (any).
    passed: dict | None = None
    passed_over: frozenset = frozenset()
    # ``vllm-lint explain`` only: the calls whose code built it, innermost first (``Step``).
    via: tuple = ()
    # Built in an arm of a version or feature guard: the (major, minor) releases that can run
    # it (``vllm_lint.python.guards``), and where the guard is written; None: every release.
    releases: frozenset | None = None
    guard: str = ""
    # Channels read as carrying nothing (``Assumption``): findings that depend on them say so.
    assumed: tuple = ()
    # The engines of the paths a joined engine stands for (``join_engines``): explain lists
    # a request to it under each of them.
    joined: tuple = field(default=(), compare=False, repr=False)

    def get(self, name: str) -> Fact:
        if name in self.fields:
            return self.fields[name]
        return UNKNOWN if self.open else ABSENT

    def get_env(self, name: str) -> Fact:
        if name in self.env:
            return self.env[name]
        return UNKNOWN if self.env_open else ABSENT

    def present(self, name: str) -> bool:
        """The setting is certainly passed (whatever its value)."""
        return name in self.written or isinstance(self.fields.get(name), Known)

    def location_of(self, name: str) -> Span:
        """Where the setting is written in the constructor call itself, else the anchor.

        An engine built for a call (``built_at``) is reported in the caller's file: a value
        written there, wherever in it, is where the finding points."""
        origin = self.written.get(name)
        if self.built_at is not None and origin is not None and origin.path is None:
            return origin.span
        return _location(origin, self.anchor)


@dataclass
class RequestFacts:
    """One ``SamplingParams`` that reaches an engine."""

    anchor: Span
    engine: EngineFacts
    fields: dict[str, Fact] = field(default_factory=dict)
    written: dict[str, Origin] = field(default_factory=dict)
    open: bool = False
    # A SamplingParams built in another file (a base class of another module keeps it on
    # ``self``): (that file, the line it is built on); the request is reported at ``anchor``.
    set_in: tuple[str, int] | None = None

    def get(self, name: str) -> Fact:
        if name in self.fields:
            return self.fields[name]
        return UNKNOWN if self.open else ABSENT

    def location_of(self, name: str) -> Span:
        return _location(self.written.get(name), self.anchor)


def join_engines(engines: list[EngineFacts]) -> EngineFacts:
    """The engine a name holds after paths that built different ones (``if tp: llm = LLM(...)
    else: llm = LLM(...)``): each setting a Choice of the paths' values."""
    first = engines[0]
    if len(engines) == 1:
        return first
    joined = EngineFacts(kind=first.kind, anchor=first.anchor, open=any(e.open for e in engines), source=first.source)
    joined.assumed = tuple(dict.fromkeys(assumption for engine in engines for assumption in engine.assumed))
    for name in dict.fromkeys(key for engine in engines for key in engine.fields):
        joined.fields[name] = join_facts([engine.get(name) for engine in engines])
        origins = {engine.written.get(name) for engine in engines}
        if len(origins) == 1 and None not in origins:
            joined.written[name] = origins.pop()
    for name in dict.fromkeys(key for engine in engines for key in engine.env):
        values = [engine.get_env(name) for engine in engines]
        joined.env[name] = values[0] if all(v == values[0] for v in values) else UNKNOWN
    joined.env_open = any(e.env_open for e in engines)
    joined.joined = tuple(part for engine in engines for part in (engine.joined or (engine,)))
    return joined


def join_facts(facts: list[Fact]) -> Fact:
    """One setting on several paths: the same fact, a Choice, or UNKNOWN."""
    options: list[Fact] = []
    for fact in facts:
        if fact is UNKNOWN:
            return UNKNOWN
        for option in fact.options if isinstance(fact, Choice) else (fact,):
            if option not in options:
                options.append(option)
    return options[0] if len(options) == 1 else Choice(tuple(options))


# Origins that are part of the constructor call or command line itself.
_DIRECT_KINDS = frozenset({"keyword", "positional", "flag", "config-key"})


def _location(origin: Origin | None, anchor: Span) -> Span:
    if origin is not None and origin.path is None and origin.kind in _DIRECT_KINDS:
        return origin.span
    return anchor
