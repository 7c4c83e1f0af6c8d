"""The vocabulary of the walk: flow state, scopes, source spans and small markers."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from vllm_lint.facts import ABSENT, Span
from vllm_lint.python.deferred import DEFERRING_MODULES
from vllm_lint.python.values import copy_value

# Where each request method takes its SamplingParams: (positional index, keyword).
REQUEST_METHODS = {"generate": (1, "sampling_params"), "chat": (1, "sampling_params"), "add_request": (2, "params")}
# Calls that read their arguments without keeping or changing them.
PURE_BUILTINS = frozenset(
    {"print", "len", "repr", "str", "isinstance", "bool", "id", "type", "hash", "format", "sorted", "any", "all"}
    | {"int", "float", "hasattr"}
)
LOGGER_NAMES = frozenset({"logger", "log", "logging", "LOGGER", "_logger", "LOG"})
DICT_READERS = frozenset({"get", "items", "keys", "values", "copy", "__contains__"})
LIST_READERS = frozenset({"index", "count", "copy"})
# Pure string methods evaluated on known arguments.
STR_METHODS = frozenset(
    {"replace", "lower", "upper", "strip", "lstrip", "rstrip", "startswith", "endswith", "split", "join",
     "removeprefix", "removesuffix"}
)
MAX_DEPTH = 200  # expression nesting we follow; deeper means unknown
RUNNER_ENV_VAR = "VLLM_USE_V2_MODEL_RUNNER"
STD_MODULES = frozenset(
    {
        "os",
        "os.environ",
        "json",
        "copy",
        "functools",
        "typing",
        "omegaconf",
        "omegaconf.OmegaConf",
        "ray",
        "ray.runtime_env",
    }
    | {"subprocess", "asyncio", "dataclasses", "shlex", "sys"}
    | DEFERRING_MODULES  # calls that call their first argument later (``deferred.py``)
)
_DICT_METHODS = frozenset(dir(dict))
MAX_UNROLLED_ITEMS = 64  # a loop over a longer known sequence is analysed as a whole
MAX_UNROLLED_ITERATIONS = 512  # per module pass, so that nested loops stay cheap
MAX_INLINE_DEPTH = 2  # same-module calls followed into their bodies
MAX_INLINED_CALLS = 200  # per module, so that analysis cost stays bounded
FIELD_FUNCTIONS = frozenset({"field", "Field", "ib", "attrib"})
# Decorators and bases that make a class's annotated attributes its constructor's fields.
DATACLASS_DECORATORS = frozenset({"dataclass", "define", "frozen", "mutable", "attrs", "s", "dataclasses.dataclass"})
FIELD_BASES = frozenset({"BaseModel", "BaseSettings", "NamedTuple"})


ENV_UNSET = ABSENT  # a variable removed from os.environ
# The state's name for ``self.<attr>`` while a method follows a container it assigned there
# (a dot never occurs in a Python name).
SELF_SHADOW = "self."


@dataclass
class State:
    """The flow state of one scope: name bindings and the process environment."""

    names: dict[str, object] = field(default_factory=dict)
    env: dict[str, object] = field(default_factory=dict)
    env_open: bool = False

    def fork(self) -> State:
        memo: dict = {}
        return State(
            {name: copy_value(value, memo) for name, value in self.names.items()}, dict(self.env), self.env_open
        )


@dataclass
class Scope:
    kind: str  # "module", "function", "class"
    node: ast.AST
    parent: Scope | None
    local_names: set[str] = field(default_factory=set)
    global_names: set[str] = field(default_factory=set)
    final: State | None = None
    class_node: ast.AST | None = None  # the class a method belongs to
    # Parameters bound to what the project's callers pass (``callers.py``) and never rebound:
    # a value written through one of them is the caller's (``Origin.from_caller``).
    caller_bound: frozenset = frozenset()


def span_of(node: ast.AST) -> Span:
    return Span(node.lineno, node.col_offset, getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None))


@dataclass
class LoopFrame:
    """The states of one iteration of an unrolled loop that reach ``break`` or ``continue``."""

    breaks: list = field(default_factory=list)
    continues: list = field(default_factory=list)


@dataclass(frozen=True, eq=False)
class BoundMethod:
    owner: object
    name: str


@dataclass(frozen=True)
class SelfAttribute:
    class_id: int
    attr: str


class Missing:
    pass


MISSING = Missing()
