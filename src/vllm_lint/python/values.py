"""Abstract values the Python resolver tracks while it walks a scope.

Constants are plain Python values; ``UNKNOWN`` is anything runtime-dependent.
Mutable containers and vLLM objects are small classes here, so that aliases
(``a = kw``) see each other's mutations, and branches can be forked and joined.
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass, field

from vllm_lint.facts import ABSENT, UNKNOWN, Choice, EngineFacts, Known, Mapping, Origin, Span

_allocations = itertools.count(1)


def new_alloc() -> int:
    return next(_allocations)


@dataclass
class Slot:
    """A written value and where it was written."""

    value: object
    origin: Origin | None


class DictObj:
    """A ``dict`` whose keys are known strings.  ``complete=False``: unseen keys may exist."""

    __slots__ = ("alloc", "items", "complete", "escaped", "attribute_access", "fields_of")

    def __init__(self, items: dict[str, Slot] | None = None, complete: bool = True, alloc: int | None = None):
        self.alloc = alloc if alloc is not None else new_alloc()
        self.items: dict[str, Slot] = items if items is not None else {}
        self.complete = complete
        self.escaped = False
        self.attribute_access = False  # OmegaConf: cfg.key reads cfg["key"]
        # ``dataclasses.asdict(engine_args)``: the arguments object's call, whose every field the
        # dict holds (the unwritten ones at their defaults).
        self.fields_of: Span | None = None

    def get_value(self, key: str) -> object:
        """The value under ``key``: ABSENT when certainly missing, UNKNOWN when it may exist."""
        slot = self.items.get(key)
        if slot is not None:
            return read_slot(slot, ABSENT)
        return ABSENT if self.complete else UNKNOWN

    def forget(self) -> None:
        """Anything may have happened to it (an unknown call mutated it)."""
        self.items = {}
        self.complete = False
        self.escaped = True

    def __deepcopy__(self, memo: dict) -> DictObj:
        copy = DictObj({}, self.complete, self.alloc)
        memo[id(self)] = copy
        copy.items = {key: Slot(_deepcopy(slot.value, memo), slot.origin) for key, slot in self.items.items()}
        copy.escaped = self.escaped
        copy.attribute_access = self.attribute_access
        copy.fields_of = self.fields_of
        return copy


class ListObj:
    """A list or tuple; ``exact=False``: more elements of unknown value may exist."""

    __slots__ = ("alloc", "elems", "exact", "node", "spans", "optional", "through")

    def __init__(self, elems: list | None = None, exact: bool = True, node: ast.AST | None = None, alloc: int | None = None):
        self.alloc = alloc if alloc is not None else new_alloc()
        self.elems = elems if elems is not None else []
        self.exact = exact
        self.node = node
        # Where each element was written (argv lists: findings point at the flag); None if not kept.
        self.spans: list | None = None
        # A list that is not exact only because some elements may be absent (built differently
        # on two paths, ``if v is True: argv.append(flag) else: argv += [flag, str(v)]``): per
        # element, whether it may be absent.  None: not known which (more elements may exist).
        self.optional: list[bool] | None = None
        # The expression of the process's own arguments (``sys.argv[1:]``) that the unknown
        # elements are, after the known ones; None when they are anything else.
        self.through: ast.AST | None = None

    def forget(self) -> None:
        self.elems = []
        self.exact = False
        self.spans = None
        self.optional = None
        self.through = None

    def __deepcopy__(self, memo: dict) -> ListObj:
        copy = ListObj([], self.exact, self.node, self.alloc)
        memo[id(self)] = copy
        copy.elems = [_deepcopy(e, memo) for e in self.elems]
        copy.spans = None if self.spans is None else list(self.spans)
        copy.optional = None if self.optional is None else list(self.optional)
        copy.through = self.through
        return copy


def optional_flags(value: ListObj) -> list[bool] | None:
    """Which elements of a list may be absent: all False for an exact list, None when more
    elements of unknown value may exist."""
    if value.exact:
        return [False] * len(value.elems)
    if value.optional is not None and len(value.optional) == len(value.elems):
        return value.optional
    return None


def concatenated(first: ListObj, second: object) -> tuple[bool, list[bool] | None]:
    """``exact`` and ``optional`` of ``first + second``."""
    if not isinstance(second, ListObj):
        return False, None
    if first.exact and second.exact:
        return True, None
    a, b = optional_flags(first), optional_flags(second)
    return False, (a + b if a is not None and b is not None else None)


def joined_spans(first: ListObj, second: object) -> list | None:
    """Element spans of ``first + second`` when both lists kept theirs."""
    if not isinstance(second, ListObj) or first.spans is None or (second.spans is None and second.elems):
        return None
    if second.spans is None:
        return list(first.spans)  # nothing known added (``+ sys.argv[1:]``)
    if len(first.spans) != len(first.elems) or len(second.spans) != len(second.elems):
        return None
    return first.spans + second.spans


class ObjectArgs:
    """An ``EngineArgs``/``AsyncEngineArgs``/``*Config``/``SamplingParams`` object.

    ``slots`` are the fields written (constructor keywords, attribute
    assignments); ``open`` means unwritten fields are unknown (an unresolved
    ``**mapping``, ``from_cli_args``, an escape into unknown code).
    """

    __slots__ = ("kind", "node", "anchor", "slots", "open", "env", "facts", "fields", "built_at")

    def __init__(self, kind: str, node: ast.AST, anchor: Span, slots: dict[str, Slot], open_: bool, env=None):
        self.kind = kind
        self.node = node
        self.anchor = anchor
        self.slots = slots
        self.open = open_
        self.env = env
        self.facts: EngineFacts | None = None  # set once it has built an engine
        self.fields: list[str] | None = None  # a dataclass-like instance: its fields, in order
        self.built_at: tuple | None = None  # (file, span) when built in code run for a call elsewhere

    def __deepcopy__(self, memo: dict) -> ObjectArgs:
        copy = ObjectArgs(self.kind, self.node, self.anchor, {}, self.open, self.env)
        memo[id(self)] = copy
        copy.slots = {key: Slot(_deepcopy(slot.value, memo), slot.origin) for key, slot in self.slots.items()}
        copy.facts = self.facts
        copy.fields = self.fields
        copy.built_at = self.built_at
        return copy


@dataclass(eq=False)
class EngineObj:
    """A running engine (``LLM(...)``, ``AsyncLLM.from_engine_args(...)``); facts may be unknown."""

    facts: EngineFacts | None


@dataclass(eq=False)
class VllmConfigObj:
    facts: EngineFacts | None


@dataclass(frozen=True)
class Prefixed:
    """A string whose start is known and whose rest is not (``f"--port={port}"``).  ``pieces``:
    for an f-string, its text in order, None where a placeholder's value is unknown (read only
    where a shell runs the string: ``subprocesses``)."""

    prefix: str
    pieces: tuple | None = field(default=None, compare=False)


@dataclass(eq=False)
class EachOf:
    """A generator of tuples over data not known here (``((self.model_args, req) for req in
    requests)``): each tuple, evaluated with the loop's variables unknown.  Only a loop or a
    comprehension over it reads its element; anything else treats it as unknown."""

    element: ListObj


@dataclass(frozen=True)
class ShellJoined:
    """``shlex.join(argv)``: a command line the shell splits back into exactly ``argv``."""

    argv: object


@dataclass(frozen=True)
class SpaceJoined:
    """``" ".join(argv)`` of a list with elements of unknown value: a command line the shell
    splits again (an element with blanks becomes several words, an unknown one any number)."""

    argv: object


class JoinedText(str):
    """``" ".join(argv)`` of known strings: the text, which also remembers the list it joins
    (where each element was written) for a shell that runs it."""

    argv: object = None

    def __new__(cls, text: str, argv: object = None) -> JoinedText:
        joined = super().__new__(cls, text)
        joined.argv = argv
        return joined


def joined_words(value: object) -> object:
    """The list a ``" ".join(...)`` value joins (``SpaceJoined``, ``JoinedText``), else None."""
    return value.argv if isinstance(value, (SpaceJoined, JoinedText)) else None


@dataclass(frozen=True)
class StdName:
    """A standard-library module or function the resolver understands (``os``, ``os.environ``, ``json.loads``)."""

    path: str


@dataclass(frozen=True)
class Builtin:
    name: str


@dataclass(eq=False)
class FunctionRef:
    node: ast.AST
    scope: object = None
    class_node: ast.AST | None = None
    path: str | None = None  # the project file it is defined in, when not the analysed one


@dataclass(eq=False)
class ClassRef:
    node: ast.AST
    info: object = None  # what instances look like (calls.ClassInfo)
    path: str | None = None  # the project file it is defined in, when not the analysed one


@dataclass(eq=False)
class PartialObj:
    """``functools.partial(<vLLM class>, ...)``."""

    target: object
    slots: dict[str, Slot] = field(default_factory=dict)
    open: bool = False


IMMUTABLE = _IMMUTABLE = (str, bytes, int, float, bool, type(None))
MAX_OPTIONS = 8  # values a OneOf keeps before it gives up and becomes UNKNOWN


# Values a OneOf may hold several of: constants, and references to the project's classes and
# functions (``LLMRayActorAsync if args.async_train else LLMRayActor``), which nothing mutates.
_SHARED = _IMMUTABLE + (ClassRef, FunctionRef)


class OneOf:
    """A value that differs between paths: each option a (value, origin) pair.

    Options are constants, or ``ABSENT`` for a dict key some path does not set
    (with at most one container, the value on the paths that do).  Code that does
    not understand it treats it as unknown.
    """

    __slots__ = ("options",)

    def __init__(self, options: tuple) -> None:
        self.options = options

    @staticmethod
    def of(options: list[tuple[object, Origin | None]]) -> object:
        """The join of ``(value, origin)`` pairs: one value if they agree, else a OneOf or UNKNOWN."""
        flat: list[tuple[object, Origin | None]] = []
        for value, origin in options:
            if value is UNKNOWN:
                return UNKNOWN
            if isinstance(value, OneOf):
                flat.extend((inner, inner_origin or origin) for inner, inner_origin in value.options)
            else:
                flat.append((value, origin))
        dicts = [(value, origin) for value, origin in flat if isinstance(value, DictObj)]
        if len({id(value) for value, _ in dicts}) > 1:
            # ``kwargs.pop("lora_kwargs", {})`` where callers pass one dict or none: read as one
            # dict, each key the join of the paths' values (absent where a path lacks it).
            joined = _join_dicts([value for value, _ in dicts])
            flat = [(value, origin) for value, origin in flat if not isinstance(value, DictObj)] + [(joined, None)]
        unique: list[tuple[object, Origin | None]] = []
        for value, origin in flat:
            if not (value is ABSENT or isinstance(value, _SHARED)) and any(
                other is not value and not (other is ABSENT or isinstance(other, _SHARED)) for other, _ in unique
            ):
                return UNKNOWN  # two different containers: not tracked
            if not any(_same_option(value, origin, other, other_origin) for other, other_origin in unique):
                unique.append((value, origin))
        if len(unique) > MAX_OPTIONS:
            return UNKNOWN
        if len({id(v) if not isinstance(v, _IMMUTABLE) else (type(v), v) for v, _ in unique}) == 1 and len(
            {o for _, o in unique}
        ) == 1:
            return unique[0][0]
        return OneOf(tuple(unique))

    def read(self, default: object = None, default_origin: Origin | None = None) -> object:
        """The value read from a dict key that may be missing: ``default`` on the paths
        without it, or (``default=DROP``) only the paths with it, the others raising KeyError."""
        options = []
        for value, origin in self.options:
            if value is not ABSENT:
                options.append((value, origin))
            elif default is not DROP:
                options.append((default, default_origin))
        return OneOf.of(options) if options else UNKNOWN

    def __deepcopy__(self, memo: dict) -> OneOf:
        return OneOf(tuple((_deepcopy(v, memo), o) for v, o in self.options))


DROP = object()  # OneOf.read(DROP): the paths without the key raise KeyError


def _join_dicts(dicts: list[DictObj]) -> object:
    """Dicts that differ between paths, as one new dict whose every key is the join of the
    paths' values (``ABSENT`` on a path whose complete dict lacks it)."""
    joined = DictObj({}, all(d.complete for d in dicts))
    for key in dict.fromkeys(k for d in dicts for k in d.items):
        options = []
        for d in dicts:
            slot = d.items.get(key)
            if slot is not None:
                options.append((slot.value, slot.origin))
            elif d.complete:
                options.append((ABSENT, None))
            else:
                options.append((UNKNOWN, None))
        origins = {origin for _, origin in options if origin is not None}
        joined.items[key] = Slot(OneOf.of(options), origins.pop() if len(origins) == 1 else None)
    joined.escaped = any(d.escaped for d in dicts)
    return joined


def _same_option(a: object, a_origin: object, b: object, b_origin: object) -> bool:
    if a_origin != b_origin:
        return False
    if a is b:
        return True
    return isinstance(a, _IMMUTABLE) and type(a) is type(b) and a == b


def _deepcopy(value: object, memo: dict) -> object:
    if isinstance(value, OneOf):
        return value.__deepcopy__(memo)
    if isinstance(value, (DictObj, ListObj, ObjectArgs)):
        existing = memo.get(id(value))
        if existing is not None:
            return existing
        return value.__deepcopy__(memo)
    return value


def copy_value(value: object, memo: dict) -> object:
    return _deepcopy(value, memo)


def same_constant(a: object, b: object) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a == b  # a ``JoinedText`` is the text it joins
    return type(a) is type(b) and isinstance(a, _IMMUTABLE) and a == b


def to_fact_value(value: object, seen: set[int] | None = None) -> object:
    """Turn an abstract value into the front-end-neutral form rules read."""
    if isinstance(value, _IMMUTABLE):
        return value
    if seen is None:
        seen = set()
    if isinstance(value, DictObj):
        if id(value) in seen:
            return UNKNOWN
        seen.add(id(value))
        mapping = Mapping({}, value.complete)
        for key, slot in value.items.items():
            inner = to_fact_value(slot.value, seen)
            mapping.items[key] = UNKNOWN if inner is UNKNOWN else Known(inner, slot.origin)
        return mapping
    if isinstance(value, ListObj):
        if id(value) in seen:
            return UNKNOWN
        seen.add(id(value))
        elems = [to_fact_value(e, seen) for e in value.elems]
        if not value.exact:
            if not elems:
                return UNKNOWN
            elems.append(UNKNOWN)
        return elems
    if isinstance(value, ObjectArgs) and value.kind == "SpeculativeConfig":
        mapping = Mapping({}, not value.open)
        for key, slot in value.slots.items():
            inner = to_fact_value(slot.value, seen)
            mapping.items[key] = UNKNOWN if inner is UNKNOWN else Known(inner, slot.origin)
        return mapping
    if isinstance(value, (ClassRef, FunctionRef)):
        return value  # a class or function object: non-empty, opaque
    return UNKNOWN


def read_slot(slot: Slot, default: object = None) -> object:
    """A slot's value as a read sees it (``OneOf.read`` when some path did not write it)."""
    value = slot.value
    return value.read(default) if isinstance(value, OneOf) else value


def slot_fact(value: object, origin: Origin | None) -> object:
    """The fact for a value written at ``origin``: Known, a Choice of paths' values, or UNKNOWN."""
    if isinstance(value, OneOf):
        options = []
        for option, option_origin in value.options:
            if option is ABSENT:
                options.append(ABSENT)
                continue
            inner = to_fact_value(option)
            if inner is UNKNOWN:
                return UNKNOWN
            options.append(Known(inner, option_origin or origin))
        return Choice(tuple(options))
    inner = to_fact_value(value)
    return UNKNOWN if inner is UNKNOWN else Known(inner, origin)


def iteration_items(value: object) -> list | None:
    """The elements a ``for`` loop over ``value`` certainly visits, in order; None if unknown."""
    if isinstance(value, ListObj) and value.exact and not isinstance(value.node, ast.Set):  # sets: no order
        return list(value.elems)
    if isinstance(value, DictObj) and value.complete and not any(isinstance(s.value, OneOf) for s in value.items.values()):
        return list(value.items)
    return None


@dataclass(frozen=True)
class ProjectModule:
    """A project module bound by ``import pkg.settings as s`` or ``from pkg import settings``
    (``python.project`` reads and analyses it)."""

    path: str
