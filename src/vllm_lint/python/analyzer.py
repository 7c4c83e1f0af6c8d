"""Walk a module's ``ast`` and collect the facts of every vLLM engine and request.

The walk is flow-sensitive and straight-line within a scope: statements are
interpreted in order over abstract values (``values.py``).  Branches on a
resolvable constant follow that branch; other branches are analysed
separately and joined (a fact survives only when every branch agrees).  Loops
forget what they touch.  Unknown calls forget the containers passed to them.
This is a must-analysis: whatever is not certain becomes ``UNKNOWN`` and the
rules stay silent about it.
"""

from __future__ import annotations

import ast
import copy
import json
from dataclasses import dataclass, field

from vllm_lint.facts import ABSENT, UNKNOWN, EngineFacts, Known, Origin, RequestFacts, Span
from vllm_lint.python import symbols
from vllm_lint.python.project import ProjectModule, ProjectModules
from vllm_lint.python.symbols import VllmClass, VllmModule
from vllm_lint.commandline.pyhook import SUBPROCESS_CALLS
from vllm_lint.python.values import (
    Builtin,
    ClassRef,
    DictObj,
    EngineObj,
    FunctionRef,
    ListObj,
    ObjectArgs,
    PartialObj,
    Slot,
    StdName,
    VllmConfigObj,
    copy_value,
    joined_spans,
    same_constant,
    to_fact_value,
)

ENV_UNSET = ABSENT  # a variable removed from os.environ

# Where each request method takes its SamplingParams: (positional index, keyword).
REQUEST_METHODS = {
    "generate": (1, "sampling_params"),
    "chat": (1, "sampling_params"),
    "add_request": (2, "params"),
}
# Calls that read their arguments without keeping or changing them.
PURE_BUILTINS = frozenset(
    {"print", "len", "repr", "str", "isinstance", "bool", "id", "type", "hash", "format", "sorted", "any", "all"}
)
LOGGER_NAMES = frozenset({"logger", "log", "logging", "LOGGER", "_logger", "LOG"})
DICT_READERS = frozenset({"get", "items", "keys", "values", "copy", "__contains__"})
LIST_READERS = frozenset({"index", "count", "copy"})
MAX_DEPTH = 200  # expression nesting we follow; deeper means unknown
RUNNER_ENV_VAR = "VLLM_USE_V2_MODEL_RUNNER"
STD_MODULES = frozenset(
    {"os", "os.environ", "json", "copy", "functools", "typing", "omegaconf", "omegaconf.OmegaConf", "ray", "ray.runtime_env"}
    | {"subprocess", "asyncio"}
)
_DICT_METHODS = frozenset(dir(dict))
MAX_INLINE_DEPTH = 2  # same-module calls followed into their bodies
MAX_INLINED_CALLS = 200  # per module, so that analysis cost stays bounded
FIELD_FUNCTIONS = frozenset({"field", "Field", "ib", "attrib"})
# Decorators and bases that make a class's annotated attributes its constructor's fields.
DATACLASS_DECORATORS = frozenset({"dataclass", "define", "frozen", "mutable", "attrs", "s", "dataclasses.dataclass"})
FIELD_BASES = frozenset({"BaseModel", "BaseSettings", "NamedTuple"})


@dataclass
class State:
    """The flow state of one scope: name bindings and the process environment."""

    names: dict[str, object] = field(default_factory=dict)
    env: dict[str, object] = field(default_factory=dict)
    env_open: bool = False

    def fork(self) -> State:
        memo: dict = {}
        return State(
            {name: copy_value(value, memo) for name, value in self.names.items()},
            dict(self.env),
            self.env_open,
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


def span_of(node: ast.AST) -> Span:
    return Span(
        node.lineno,
        node.col_offset,
        getattr(node, "end_lineno", None),
        getattr(node, "end_col_offset", None),
    )


def _is_import_error_handler(handler: ast.ExceptHandler) -> bool:
    names = []
    if isinstance(handler.type, ast.Tuple):
        names = handler.type.elts
    elif handler.type is not None:
        names = [handler.type]
    return bool(names) and all(
        isinstance(n, ast.Name) and n.id in ("ImportError", "ModuleNotFoundError") for n in names
    )


class _Touched(ast.NodeVisitor):
    """Names a block may rebind or mutate, and whether it touches os.environ."""

    MUTATORS = frozenset(
        {"update", "setdefault", "pop", "popitem", "clear", "append", "extend", "insert", "remove", "__setitem__"}
    )

    def __init__(self, call_arguments: bool = True) -> None:
        self.names: set[str] = set()
        self.environ = False
        self.call_arguments = call_arguments

    def _base(self, node: ast.AST) -> None:
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            if isinstance(node, ast.Attribute) and node.attr == "environ":
                self.environ = True
            node = node.value
        if isinstance(node, ast.Name):
            self.names.add(node.id)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.names.add(node.id)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self._base(node.value)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self._base(node.value)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._base(node.target)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in self.MUTATORS:
            self._base(func.value)
        if isinstance(func, ast.Attribute) and func.attr in ("putenv", "unsetenv"):
            self.environ = True
        # Containers passed to calls may be changed by them.
        if self.call_arguments:
            for arg in list(node.args) + [k.value for k in node.keywords]:
                if isinstance(arg, ast.Name):
                    self.names.add(arg.id)
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.AST) -> None:
        self.names.add(node.name)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.names.add(node.name)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        return


def touched_by(nodes: list[ast.AST], call_arguments: bool = True) -> _Touched:
    visitor = _Touched(call_arguments)
    for node in nodes:
        visitor.visit(node)
    return visitor


class _ScopeNames(ast.NodeVisitor):
    """Names bound anywhere in a function body (Python makes them local)."""

    def __init__(self) -> None:
        self.bound: set[str] = set()
        self.globals: set[str] = set()

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.bound.add(node.id)

    def visit_Global(self, node: ast.Global) -> None:
        self.globals.update(node.names)

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        self.globals.update(node.names)

    def visit_FunctionDef(self, node: ast.AST) -> None:
        self.bound.add(node.name)
        for deco in node.decorator_list:
            self.visit(deco)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.bound.add(node.name)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        return

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.bound.add((alias.asname or alias.name).split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            self.bound.add(alias.asname or alias.name)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self.bound.add(node.name)
        self.generic_visit(node)

    def _comprehension(self, node: ast.AST) -> None:
        return  # comprehension variables are their own scope

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension


def function_locals(node: ast.AST) -> tuple[set[str], set[str]]:
    visitor = _ScopeNames()
    args = node.args
    params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    if args.vararg:
        params.append(args.vararg.arg)
    if args.kwarg:
        params.append(args.kwarg.arg)
    for stmt in node.body:
        visitor.visit(stmt)
    bound = (visitor.bound | set(params)) - visitor.globals
    return bound, visitor.globals


class ModuleAnalysis:
    """Analyse one module; results in ``engines`` and ``requests``."""

    def __init__(
        self,
        tree: ast.Module,
        volatile: set[str] | None = None,
        ray_envs: dict[int, list] | None = None,
        path: str | None = None,
        project: ProjectModules | None = None,
        summary: ModuleSummary | None = None,
    ) -> None:
        self.tree = tree
        self.path = path
        self.project = project if path else None
        self.summary = summary or ModuleSummary(tree)
        # VLLM_USE_V2_MODEL_RUNNER as each Ray actor class gets it from runtime_env, per
        # creation path (decorator, .options()): from the previous pass, and this one's.
        self._known_ray_envs = ray_envs or {}
        self.ray_envs: dict[int, list] = {}
        self.engines: list[EngineFacts] = []
        self.requests: list[RequestFacts] = []
        self._engine_nodes: set[int] = set()
        self._request_keys: set[tuple[int, int]] = set()
        self._created_args: dict[int, ObjectArgs] = {}
        self._pending_functions: list[tuple[ast.AST, Scope]] = []
        self._class_attrs: dict[tuple[int, str], list[object]] = {}
        self._pending_self_requests: list[tuple[object, object]] = []
        self._self_escaped: set[tuple[int, str]] = set()
        self.dict_feeds: dict[int, int] = {}
        # Module names functions may change: unknown when read from a function.  Explicit
        # mutations are found before the walk; escapes into unknown code during it
        # (``found_volatile``), after which the module is analysed again.
        self._volatile: set[str] = set(volatile or ())
        self.found_volatile: set[str] = set()
        self._global_copies: list[tuple[str, object, object]] = []
        self._volatile_env = False
        self._depth = 0
        self._returns: list[object] | None = None
        self._stopped = False
        self._inline_stack: list[ast.AST] = []
        self._inline_budget = MAX_INLINED_CALLS
        self._class_info: dict[int, _ClassInfo] = {}
        # Attribute names assigned on something other than self (``Defaults.X = ...``):
        # class attributes of those names are not constants.
        self._class_attr_stores = self.summary.class_attr_stores
        self.module_scope = Scope("module", tree, None)
        self.state = State()
        self.scope = self.module_scope

    # ----------------------------------------------------------------- driver

    def run(self) -> None:
        self._find_volatile()
        self._block(self.tree.body)
        self.module_scope.final = self.state
        while self._pending_functions:
            node, parent = self._pending_functions.pop(0)
            self._function(node, parent)
        self._resolve_self_requests()
        for obj in self._created_args.values():
            if obj.facts is None and obj.kind in symbols.ARGS_CONSTRUCTORS:
                self._finalize_args(obj, escaped=True)

    def _find_volatile(self) -> None:
        """Module names that functions rebind or mutate: unknown when read from a function."""
        self._volatile |= self.summary.volatile
        self._volatile_env |= self.summary.volatile_env

    def _function(self, node: ast.AST, parent: Scope) -> None:
        local, declared = self.summary.locals_of(node)
        scope = Scope("function", node, parent, local, declared, class_node=getattr(node, "_vllm_lint_class", None))
        saved_scope, saved_state = self.scope, self.state
        self.scope = scope
        entry_env = self._entry_env(parent)
        self.state = State({}, entry_env[0], entry_env[1])
        if scope.class_node is not None and id(scope.class_node) in self._known_ray_envs:
            self._apply_ray_env(self._known_ray_envs[id(scope.class_node)])
        for name in local:
            pass  # unbound until assigned: lookups of locals fall back to UNKNOWN
        args = node.args
        for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
            self._eval(default)
        copies_before = len(self._global_copies)
        self._stopped = False
        try:
            self._block(node.body)
        finally:
            scope.final = self.state
            self.scope, self.state = saved_scope, saved_state
            self._stopped = False
        for name, original, copy_ in self._global_copies[copies_before:]:
            if to_fact_value(original) != to_fact_value(copy_) or _opened(original, copy_):
                self.found_volatile.add(name)

    # ------------------------------------------------------------ Ray actors

    def _runtime_env_keyword(self, call: ast.Call) -> object:
        """The runner variable a ``runtime_env=`` keyword sets: a string, ABSENT or UNKNOWN."""
        runtime_env: object = ABSENT
        for keyword in call.keywords:
            value = self._eval(keyword.value)
            if keyword.arg == "runtime_env":
                runtime_env = value
            elif keyword.arg is None:
                runtime_env = UNKNOWN
        if runtime_env is ABSENT or runtime_env is None:
            return ABSENT
        if not isinstance(runtime_env, DictObj):
            return UNKNOWN
        env_vars = runtime_env.get_value("env_vars")
        if env_vars is ABSENT or env_vars is None:
            return ABSENT
        if not isinstance(env_vars, DictObj):
            return UNKNOWN
        value = env_vars.get_value(RUNNER_ENV_VAR)
        return value if isinstance(value, str) or value is ABSENT else UNKNOWN

    def _record_ray_env(self, class_node: ast.AST, value: object) -> None:
        self.ray_envs.setdefault(id(class_node), []).append(value)

    def _apply_ray_env(self, values: list) -> None:
        if all(v is ABSENT for v in values):
            return
        first = values[0]
        if all(same_constant(v, first) for v in values):
            self.state.env[RUNNER_ENV_VAR] = first
        else:
            self.state.env[RUNNER_ENV_VAR] = UNKNOWN

    def _entry_env(self, parent: Scope) -> tuple[dict, bool]:
        module_final = self.module_scope.final or State()
        if self._volatile_env:
            return {}, True
        return dict(module_final.env), module_final.env_open

    # ------------------------------------------------------------- statements

    def _block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            if self._stopped:
                break  # after return/raise/break/continue: unreachable
            self._stmt(stmt)

    def _stmt(self, node: ast.stmt) -> None:
        method = getattr(self, "_stmt_" + type(node).__name__, None)
        if method is not None:
            method(node)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self._eval(child)

    def _stmt_FunctionDef(self, node: ast.AST) -> None:
        for deco in node.decorator_list:
            self._eval(deco)
        self._bind(node.name, FunctionRef(node, self.scope, self.scope.class_node if self.scope.kind == "class" else None))
        parent = self.scope
        while parent.kind == "class":  # methods do not see class-level names
            parent = parent.parent
        if self.scope.kind == "class":
            node._vllm_lint_class = self.scope.node  # type: ignore[attr-defined]
        if not self._inline_stack:  # bodies of inlined calls are also analysed on their own
            self._pending_functions.append((node, parent))

    _stmt_AsyncFunctionDef = _stmt_FunctionDef

    def _stmt_ClassDef(self, node: ast.ClassDef) -> None:
        for expr in node.bases + [k.value for k in node.keywords]:
            self._eval(expr)
        for decorator in node.decorator_list:
            if isinstance(decorator, ast.Call) and self._eval(decorator.func) == StdName("ray.remote"):
                self._record_ray_env(node, self._runtime_env_keyword(decorator))
            elif self._eval(decorator) == StdName("ray.remote"):
                self._record_ray_env(node, ABSENT)
            else:
                self._eval(decorator)
        scope = Scope("class", node, self.scope, class_node=node)
        saved_scope, saved_state = self.scope, self.state
        self.scope = scope
        self.state = State({}, saved_state.env, saved_state.env_open)
        try:
            self._block(node.body)
        finally:
            scope.final = self.state
            env, env_open = self.state.env, self.state.env_open
            self.scope, self.state = saved_scope, saved_state
            self.state.env, self.state.env_open = env, env_open
        ref = ClassRef(node)
        if not self._inline_stack:
            assigned = self.summary.self_attributes.get(id(node), set())
            ref.info = self._class_info[id(node)] = _class_info(node, scope.final, assigned)
        self._bind(node.name, ref)

    def _stmt_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self._bind(alias.asname, self._module_value(alias.name))
            else:
                top = alias.name.split(".")[0]
                self._bind(top, self._module_value(top))

    def _project_module(self, dotted: str) -> object:
        if self.project is None:
            return UNKNOWN
        found = self.project.find(self.path, dotted, 0)
        return ProjectModule(found) if found else UNKNOWN

    def _module_value(self, dotted: str) -> object:
        if symbols.is_vllm_module(dotted):
            return VllmModule(dotted)
        if dotted in STD_MODULES:
            return StdName(dotted)
        return self._project_module(dotted)

    def _stmt_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module if node.level == 0 else None
        for alias in node.names:
            if alias.name == "*":
                if symbols.is_vllm_module(module):
                    for class_name in symbols.KNOWN_CLASSES:
                        self._bind(class_name, VllmClass(class_name))
                continue
            name = alias.asname or alias.name
            value = symbols.resolve_from_import(module, alias.name)
            if value is None:
                value = self._std_from_import(module, alias.name)
            if value is UNKNOWN and self.project is not None:
                found = self.project.find(self.path, node.module, node.level)
                if found is not None:
                    value = copy_value(self.project.name(found, alias.name), {})
            self._bind(name, value)

    @staticmethod
    def _std_from_import(module: str | None, name: str) -> object:
        if module == "os" and name in ("environ", "putenv", "unsetenv", "getenv"):
            return StdName(f"os.{name}")
        if module == "json" and name == "loads":
            return StdName("json.loads")
        if module == "copy" and name in ("copy", "deepcopy"):
            return StdName(f"copy.{name}")
        if module == "functools" and name == "partial":
            return StdName("functools.partial")
        if module == "omegaconf" and name == "OmegaConf":
            return StdName("omegaconf.OmegaConf")
        if module in ("ray.runtime_env", "ray") and name == "RuntimeEnv":
            return StdName("ray.runtime_env.RuntimeEnv")
        if module == "typing" and name == "TYPE_CHECKING":
            return False  # false at run time
        if f"{module}.{name}" in SUBPROCESS_CALLS:
            return StdName(f"{module}.{name}")
        return UNKNOWN

    def _stmt_Assign(self, node: ast.Assign) -> None:
        value = self._eval(node.value)
        for target in node.targets:
            self._assign(target, value, node.value)

    def _stmt_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._assign(node.target, self._eval(node.value), node.value)

    def _stmt_AugAssign(self, node: ast.AugAssign) -> None:
        current = self._eval(node.target) if not isinstance(node.target, ast.Name) else self._lookup(node.target.id)
        value = self._eval(node.value)
        if isinstance(node.op, ast.BitOr) and isinstance(current, DictObj):
            self._dict_update(current, [value], [], node.value)
            return
        if isinstance(node.op, ast.Add) and isinstance(current, ListObj):
            self._list_extend(current, value)
            return
        if isinstance(node.target, ast.Attribute) and isinstance(self._eval(node.target.value), StdName):
            pass
        result = self._binop(node.op, current, value)
        if isinstance(node.target, ast.Subscript) and self._is_environ(node.target.value):
            self._env_set(node.target.slice, UNKNOWN)
            return
        self._assign(node.target, result, node.value)

    def _stmt_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            if isinstance(target, ast.Subscript):
                base = self._eval(target.value)
                key = self._eval(target.slice)
                if self._is_environ(target.value):
                    self._env_set(target.slice, ENV_UNSET)
                elif isinstance(base, DictObj):
                    if isinstance(key, str):
                        base.items.pop(key, None)
                    else:
                        base.forget()
            elif isinstance(target, ast.Name):
                self._bind(target.id, UNKNOWN)

    def _stmt_Expr(self, node: ast.Expr) -> None:
        self._eval(node.value)

    def _stmt_Return(self, node: ast.Return) -> None:
        value = self._eval(node.value) if node.value is not None else None
        if self._returns is not None:
            self._returns.append(value)  # an inlined call: the caller receives it
        elif node.value is not None:
            self._escape(value)
        self._stopped = True

    def _stmt_Raise(self, node: ast.Raise) -> None:
        self._eval(node.exc)
        self._stopped = True

    def _stmt_Break(self, node: ast.stmt) -> None:
        self._stopped = True

    _stmt_Continue = _stmt_Break

    def _stmt_If(self, node: ast.If) -> None:
        condition = self._truth(self._eval(node.test))
        if condition is True:
            self._block(node.body)
            return
        if condition is False:
            self._block(node.orelse)
            return
        self._branches([node.body, node.orelse])

    def _branches(self, bodies: list[list[ast.stmt]], fallthrough: bool = False) -> None:
        start = self.state
        outcomes = []
        for body in bodies:
            self.state = start.fork()
            self._stopped = False
            self._block(body)
            if not self._stopped:
                outcomes.append(self.state)
        if fallthrough:
            outcomes.append(start.fork())
        self._stopped = not outcomes
        self.state = self._join(outcomes) if outcomes else start

    def _stmt_Match(self, node: ast.AST) -> None:
        self._eval(node.subject)
        self._branches([case.body for case in node.cases], fallthrough=True)

    def _loop(self, node: ast.AST, header: list[ast.AST]) -> None:
        touched = self.summary.touched_by_loop(node, header)
        self._forget(touched)
        for expr in header:
            if isinstance(expr, ast.expr):
                self._eval(expr)
        self._block(node.body)
        self._stopped = False  # break/continue end an iteration, not the code after the loop
        self._block(node.orelse)
        self._stopped = False
        self._forget(touched)

    def _stmt_For(self, node: ast.For) -> None:
        self._loop(node, [node.target, node.iter])
        self._assign(node.target, UNKNOWN, None)

    _stmt_AsyncFor = _stmt_For

    def _stmt_While(self, node: ast.While) -> None:
        self._loop(node, [node.test])

    def _stmt_With(self, node: ast.With) -> None:
        for item in node.items:
            self._eval(item.context_expr)
            if item.optional_vars is not None:
                self._assign(item.optional_vars, UNKNOWN, None)
        self._block(node.body)

    _stmt_AsyncWith = _stmt_With

    def _stmt_Try(self, node: ast.Try) -> None:
        start = self.state.fork()
        self._block(node.body)
        self._block(node.orelse)
        outcomes = [] if self._stopped else [self.state]
        touched = self.summary.touched_by_block(node)
        for handler in node.handlers:
            if _is_import_error_handler(handler):
                continue  # without vLLM importable, no engine is built
            self.state = start.fork()
            self._stopped = False
            self._forget(touched)
            if handler.name:
                self._bind(handler.name, UNKNOWN)
            self._block(handler.body)
            if not self._stopped:
                outcomes.append(self.state)
        self._stopped = False
        self.state = self._join(outcomes) if outcomes else start
        self._block(node.finalbody)
        self._stopped = not outcomes

    _stmt_TryStar = _stmt_Try

    def _stmt_Global(self, node: ast.Global) -> None:
        return

    _stmt_Nonlocal = _stmt_Global

    # ---------------------------------------------------------------- binding

    def _bind(self, name: str, value: object) -> None:
        self.state.names[name] = value

    def _assign(self, target: ast.AST, value: object, value_node: ast.AST | None) -> None:
        if isinstance(target, ast.Name):
            self._bind(target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            elems = value.elems if isinstance(value, ListObj) and value.exact else None
            if elems is not None and len(elems) == len(target.elts) and not any(
                isinstance(t, ast.Starred) for t in target.elts
            ):
                for sub, sub_value in zip(target.elts, elems):
                    self._assign(sub, sub_value, None)
            else:
                for sub in target.elts:
                    self._assign(sub.value if isinstance(sub, ast.Starred) else sub, UNKNOWN, None)
        elif isinstance(target, ast.Subscript):
            self._assign_subscript(target, value)
        elif isinstance(target, ast.Attribute):
            self._assign_attribute(target, value)
        elif isinstance(target, ast.Starred):
            self._assign(target.value, UNKNOWN, None)

    def _assign_subscript(self, target: ast.Subscript, value: object) -> None:
        if self._is_environ(target.value):
            self._env_set(target.slice, value)
            return
        base = self._eval(target.value)
        key = self._eval(target.slice)
        if isinstance(base, DictObj):
            if isinstance(key, str):
                base.items[key] = Slot(value, Origin(span_of(target), "subscript", base.alloc))
            else:
                base.forget()
        elif isinstance(base, ListObj):
            base.forget()
        self._escape(value)

    def _assign_attribute(self, target: ast.Attribute, value: object) -> None:
        base_node = target.value
        if isinstance(base_node, ast.Name) and base_node.id == "self" and self.scope.class_node is not None:
            key = (id(self.scope.class_node), target.attr)
            self._class_attrs.setdefault(key, []).append(value)
            if not (isinstance(value, ObjectArgs) and value.kind == "SamplingParams"):
                self._escape(value)
            return
        base = self._eval(base_node)
        if isinstance(base, ObjectArgs):
            base.slots[target.attr] = Slot(value, Origin(span_of(target), "attribute"))
        else:
            self._escape(base)
            self._escape(value)

    def _forget(self, touched: _Touched) -> None:
        for name in touched.names:
            current = self.state.names.get(name)
            if isinstance(current, (DictObj, ListObj)):
                current.forget()
            elif isinstance(current, ObjectArgs):
                current.open = True
                current.slots = {}
            if name in self.state.names:
                self.state.names[name] = UNKNOWN
        if touched.environ:
            self.state.env = {}
            self.state.env_open = True

    # ------------------------------------------------------------------ joins

    def _join(self, states: list[State]) -> State:
        if len(states) == 1:
            return states[0]
        first, rest = states[0], states[1:]
        memo: dict = {}
        names = {}
        for name in first.names:
            values = [first.names[name]] + [s.names.get(name, _MISSING) for s in rest]
            names[name] = self._join_values(values, memo)
        env: dict[str, object] = {}
        env_open = any(s.env_open for s in states)
        keys = set().union(*(s.env.keys() for s in states))
        for key in keys:
            values = [s.env.get(key, UNKNOWN if s.env_open else ENV_UNSET) for s in states]
            if all(v is ENV_UNSET for v in values):
                env[key] = ENV_UNSET
            elif all(same_constant(v, values[0]) for v in values):
                env[key] = values[0]
            else:
                env[key] = UNKNOWN
        return State(names, env, env_open)

    def _join_values(self, values: list[object], memo: dict) -> object:
        first = values[0]
        if any(v is _MISSING for v in values):
            return UNKNOWN
        if all(v is first for v in values):
            return first
        if isinstance(first, DictObj) and all(isinstance(v, DictObj) and v.alloc == first.alloc for v in values):
            if first.alloc in memo:
                return memo[first.alloc]
            joined = DictObj({}, all(v.complete for v in values), first.alloc)
            memo[first.alloc] = joined
            keys = set().union(*(v.items.keys() for v in values))
            for key in keys:
                slots = [v.items.get(key) for v in values]
                if any(s is None for s in slots):
                    joined.complete = False
                    continue
                inner = self._join_values([s.value for s in slots], memo)
                origins = {s.origin for s in slots}
                joined.items[key] = Slot(inner, slots[0].origin if len(origins) == 1 else None)
            joined.escaped = any(v.escaped for v in values)
            return joined
        if isinstance(first, ObjectArgs) and all(isinstance(v, ObjectArgs) and v.node is first.node for v in values):
            joined = ObjectArgs(first.kind, first.node, first.anchor, {}, any(v.open for v in values), first.env)
            keys = set().union(*(v.slots.keys() for v in values))
            for key in keys:
                slots = [v.slots.get(key) for v in values]
                if any(s is None for s in slots):
                    joined.open = True  # written on one path only
                    continue
                origins = {s.origin for s in slots}
                joined.slots[key] = Slot(
                    self._join_values([s.value for s in slots], memo), slots[0].origin if len(origins) == 1 else None
                )
            joined.facts = first.facts
            return joined
        if isinstance(first, ListObj) and all(
            isinstance(v, ListObj) and v.alloc == first.alloc and len(v.elems) == len(first.elems) for v in values
        ):
            return ListObj(
                [self._join_values(list(items), memo) for items in zip(*(v.elems for v in values))],
                all(v.exact for v in values),
                first.node,
                first.alloc,
            )
        if all(same_constant(v, first) for v in values):
            return first
        if all(type(v) is type(first) and v == first for v in values) and isinstance(
            first, (VllmClass, VllmModule, StdName, Builtin)
        ):
            return first
        return UNKNOWN

    # ------------------------------------------------------------ expressions

    def _lookup(self, name: str) -> object:
        if name in self.state.names:
            return self.state.names[name]
        scope = self.scope
        if scope.kind == "function" and name in scope.local_names:
            return UNKNOWN
        parent = scope.parent
        while parent is not None:
            if parent.kind == "class":
                parent = parent.parent
                continue
            final = parent.final
            if final is not None and name in final.names:
                if name in self._volatile and parent.kind == "module":
                    return UNKNOWN
                value = final.names[name]
                if isinstance(value, (DictObj, ListObj, ObjectArgs)):
                    if parent.kind == "function":
                        return UNKNOWN  # closures may see later mutations
                    # A private copy: what this function does to it must not leak into
                    # other functions' view; if it changes, the name is volatile.
                    copy_ = copy_value(value, {})
                    self._global_copies.append((name, value, copy_))
                    self.state.names[name] = copy_
                    return copy_
                return value
            if parent.kind == "function" and name in parent.local_names:
                return UNKNOWN
            parent = parent.parent
        if scope.kind == "module" or name not in scope.global_names:
            if name in ("dict", "list", "tuple") or name in PURE_BUILTINS:
                return Builtin(name)
        return UNKNOWN

    def _eval(self, node: ast.AST | None) -> object:
        if node is None:
            return None
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                return UNKNOWN
            method = getattr(self, "_eval_" + type(node).__name__, None)
            if method is not None:
                return method(node)
            self._eval_children(node)
            return UNKNOWN
        finally:
            self._depth -= 1

    def _eval_children(self, node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self._escape(self._eval(child))
            elif isinstance(child, ast.comprehension):
                self._eval(child.iter)

    def _eval_Constant(self, node: ast.Constant) -> object:
        return node.value

    def _eval_Name(self, node: ast.Name) -> object:
        return self._lookup(node.id)

    def _eval_NamedExpr(self, node: ast.NamedExpr) -> object:
        value = self._eval(node.value)
        self._assign(node.target, value, node.value)
        return value

    def _eval_Attribute(self, node: ast.Attribute) -> object:
        base = self._eval(node.value)
        if isinstance(base, VllmModule):
            return symbols.attribute_of(base, node.attr)
        if isinstance(base, ProjectModule):
            return copy_value(self.project.name(base.path, node.attr), {}) if self.project else UNKNOWN
        if isinstance(base, StdName):
            return StdName(f"{base.path}.{node.attr}") if base.path in STD_MODULES else UNKNOWN
        if isinstance(base, ObjectArgs):
            slot = base.slots.get(node.attr)
            if slot is not None:
                return slot.value
            return UNKNOWN
        if isinstance(base, VllmClass) or isinstance(base, EngineObj):
            return _BoundMethod(base, node.attr)
        if isinstance(base, DictObj):
            if base.attribute_access and node.attr not in _DICT_METHODS:
                slot = base.items.get(node.attr)
                return slot.value if slot is not None else UNKNOWN
            return _BoundMethod(base, node.attr)
        if isinstance(base, ListObj):
            return _BoundMethod(base, node.attr)
        if isinstance(node.value, ast.Name) and node.value.id == "self" and self.scope.class_node is not None:
            return _SelfAttr(id(self.scope.class_node), node.attr)
        if isinstance(base, ClassRef):
            if node.attr in ("options", "remote"):
                return _BoundMethod(base, node.attr)
            info = base.info or self._class_info.get(id(base.node))
            if info is not None and node.attr in info.defaults and node.attr not in self._class_attr_stores:
                value = info.defaults[node.attr]
                return value if isinstance(value, (str, int, float, bool, type(None))) else UNKNOWN
        return UNKNOWN

    def _eval_Subscript(self, node: ast.Subscript) -> object:
        if self._is_environ(node.value):
            key = self._eval(node.slice)
            return self._env_get(key)
        base = self._eval(node.value)
        key = self._eval(node.slice)
        if isinstance(base, DictObj) and isinstance(key, str):
            slot = base.items.get(key)
            return slot.value if slot is not None else UNKNOWN
        if isinstance(base, ListObj) and base.exact and isinstance(key, int) and -len(base.elems) <= key < len(base.elems):
            return base.elems[key]
        return UNKNOWN

    def _eval_Dict(self, node: ast.Dict) -> DictObj:
        result = DictObj()
        for key_node, value_node in zip(node.keys, node.values):
            value = self._eval(value_node)
            if key_node is None:  # {**other}
                self._dict_update(result, [value], [], value_node)
                continue
            key = self._eval(key_node)
            if isinstance(key, str):
                span = Span(key_node.lineno, key_node.col_offset, value_node.end_lineno, value_node.end_col_offset)
                result.items[key] = Slot(value, Origin(span, "dict-entry", result.alloc))
                self._note_feed(value)
            else:
                result.forget()
                result.escaped = False
        return result

    def _eval_List(self, node: ast.AST) -> ListObj:
        result = ListObj(node=node)
        spans: list | None = []
        for elt in node.elts:
            if isinstance(elt, ast.Starred):
                inner = self._eval(elt.value)
                if isinstance(inner, ListObj):
                    kept = inner.spans is not None and len(inner.spans) == len(inner.elems)
                    spans = spans + inner.spans if spans is not None and kept else None
                    result.elems.extend(inner.elems)
                    result.exact = result.exact and inner.exact
                else:
                    self._escape(inner)
                    result.exact = False
            else:
                value = self._eval(elt)
                self._note_feed(value)
                result.elems.append(value)
                if spans is not None:
                    spans.append(span_of(elt))
        result.spans = spans
        return result

    _eval_Tuple = _eval_List
    _eval_Set = _eval_List

    def _eval_IfExp(self, node: ast.IfExp) -> object:
        condition = self._truth(self._eval(node.test))
        if condition is True:
            return self._eval(node.body)
        if condition is False:
            return self._eval(node.orelse)
        return self._join_values([self._eval(node.body), self._eval(node.orelse)], {})

    def _eval_UnaryOp(self, node: ast.UnaryOp) -> object:
        operand = self._eval(node.operand)
        if isinstance(node.op, ast.Not):
            truth = self._truth(operand)
            return UNKNOWN if truth is None else not truth
        if isinstance(node.op, ast.USub) and isinstance(operand, (int, float)) and not isinstance(operand, bool):
            return -operand
        if isinstance(node.op, ast.UAdd) and isinstance(operand, (int, float)):
            return operand
        return UNKNOWN

    def _eval_BoolOp(self, node: ast.BoolOp) -> object:
        result: object = UNKNOWN
        for index, value_node in enumerate(node.values):
            value = self._eval(value_node)
            truth = self._truth(value)
            if truth is None:
                for rest in node.values[index + 1 :]:
                    self._eval(rest)
                return UNKNOWN
            result = value
            if isinstance(node.op, ast.And) and not truth:
                return value
            if isinstance(node.op, ast.Or) and truth:
                return value
        return result

    def _eval_Compare(self, node: ast.Compare) -> object:
        left = self._eval(node.left)
        result: object = True
        for op, right_node in zip(node.ops, node.comparators):
            right = self._eval(right_node)
            if result is UNKNOWN:
                continue
            if not (isinstance(left, (str, int, float, bool, type(None))) and isinstance(right, (str, int, float, bool, type(None)))):
                result = UNKNOWN
                continue
            try:
                outcome = _COMPARE[type(op)](left, right)
            except (KeyError, TypeError):
                result = UNKNOWN
                continue
            if not outcome:
                result = False
            left = right
        return result

    def _eval_BinOp(self, node: ast.BinOp) -> object:
        return self._binop(node.op, self._eval(node.left), self._eval(node.right))

    def _binop(self, op: ast.operator, left: object, right: object) -> object:
        if isinstance(op, ast.BitOr) and isinstance(left, DictObj) and isinstance(right, DictObj):
            result = DictObj()
            self._dict_update(result, [left, right], [], None)
            return result
        if isinstance(op, ast.Add) and isinstance(left, ListObj) and isinstance(right, ListObj):
            result = ListObj(list(left.elems) + list(right.elems), left.exact and right.exact)
            result.spans = joined_spans(left, right)
            return result
        if isinstance(left, (int, float, str)) and isinstance(right, type(left)) and not isinstance(left, bool):
            try:
                return _BINOPS[type(op)](left, right)
            except (KeyError, TypeError, ValueError, ZeroDivisionError, OverflowError, MemoryError):
                return UNKNOWN
        self._escape(left)
        self._escape(right)
        return UNKNOWN

    def _eval_JoinedStr(self, node: ast.JoinedStr) -> object:
        for child in ast.walk(node):
            if isinstance(child, ast.FormattedValue):
                self._eval(child.value)  # formatting reads, it does not change
        return UNKNOWN

    def _eval_Lambda(self, node: ast.Lambda) -> object:
        return UNKNOWN  # its body runs later, with parameters we cannot know

    def _comprehension(self, node: ast.AST) -> object:
        # Comprehension variables are local to it: evaluate the iterables only,
        # and the element expressions with those variables unknown.
        saved = self.state
        self.state = saved.fork()
        for gen in node.generators:
            self._eval(gen.iter)
            self._assign(gen.target, UNKNOWN, None)
            for cond in gen.ifs:
                self._eval(cond)
        for part in ("elt", "key", "value"):
            child = getattr(node, part, None)
            if child is not None:
                self._escape(self._eval(child))
        self.state = saved
        return UNKNOWN

    _eval_ListComp = _eval_SetComp = _eval_DictComp = _eval_GeneratorExp = _comprehension

    def _eval_Await(self, node: ast.Await) -> object:
        return self._eval(node.value)

    def _eval_Starred(self, node: ast.Starred) -> object:
        self._escape(self._eval(node.value))
        return UNKNOWN

    # ------------------------------------------------------------------ calls

    def _eval_Call(self, node: ast.Call) -> object:
        func = self._eval(node.func)
        if isinstance(func, VllmClass):
            return self._construct(func.name, node)
        if isinstance(func, PartialObj):
            return self._construct(func.target.name, node, func)
        if isinstance(func, _BoundMethod):
            return self._method_call(func, node)
        if isinstance(func, _SelfAttr):
            self._args_escape(node)
            return UNKNOWN
        if isinstance(func, StdName):
            return self._std_call(func.path, node)
        if isinstance(func, Builtin):
            return self._builtin_call(func.name, node)
        if isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id in LOGGER_NAMES:
                self._args_read(node)
                return UNKNOWN
            if isinstance(owner, ast.Attribute) and owner.attr == "self" or (
                isinstance(owner, ast.Attribute)
                and isinstance(owner.value, ast.Name)
                and owner.value.id == "self"
                and node.func.attr in REQUEST_METHODS
            ):
                return self._self_request(node)
        if isinstance(func, FunctionRef):
            result = self._inline_call(func, node)
            if result is not _NOT_INLINED:
                return result
            if self.scope.kind == "module":
                self._forget_volatile()
        if isinstance(func, ClassRef):
            return self._instantiate(func, node)
        if self.scope.kind == "class" and _call_name(node.func) in FIELD_FUNCTIONS:
            return self._field_default(node)
        self._args_escape(node)
        return UNKNOWN

    # ------------------------------------------------- same-module functions

    def _inline_call(self, func: FunctionRef, node: ast.Call) -> object:
        """Analyse a same-module function's body with this call's arguments.

        One or two levels deep: enough for ``build_engine(**kwargs)`` helpers and
        functions returning a kwargs dict or a ``SamplingParams``.
        """
        fn = func.node
        if (
            func.class_node is not None
            or fn in self._inline_stack
            or len(self._inline_stack) >= MAX_INLINE_DEPTH
            or self._inline_budget <= 0
        ):
            return _NOT_INLINED
        self._inline_budget -= 1
        bindings = self._bind_arguments(fn, node)
        local, declared = self.summary.locals_of(fn)
        parent = func.scope if isinstance(func.scope, Scope) else self.module_scope
        while parent.kind == "class":
            parent = parent.parent
        scope = Scope("function", fn, parent, local, declared)
        saved = (self.scope, self.state, self._returns)
        self.scope = scope
        self.state = State(bindings, self.state.env, self.state.env_open)
        self._returns = []
        self._inline_stack.append(fn)
        stopped = self._stopped
        self._stopped = False
        try:
            self._block(fn.body)
            env, env_open = self.state.env, self.state.env_open
            returns = list(self._returns)
            if not self._stopped:
                returns.append(None)  # falls off the end
        finally:
            self._inline_stack.pop()
            self._stopped = stopped
            self.scope, self.state, self._returns = saved
        self.state.env, self.state.env_open = env, env_open
        if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(fn)):
            return UNKNOWN
        return self._join_values(returns, {}) if returns else None

    def _bind_arguments(self, fn: ast.AST, call: ast.Call) -> dict[str, object]:
        args = fn.args
        positional_names = [a.arg for a in args.posonlyargs + args.args]
        keyword_names = [a.arg for a in args.kwonlyargs]
        bound: dict[str, object] = {}
        values: list[object] = []
        positional_open = False
        for arg in call.args:
            if isinstance(arg, ast.Starred):
                inner = self._eval(arg.value)
                if isinstance(inner, ListObj) and inner.exact and not positional_open:
                    values.extend(inner.elems)
                else:
                    self._escape(inner)
                    positional_open = True
            elif not positional_open:
                values.append(self._eval(arg))
            else:
                self._escape(self._eval(arg))
        for name, value in zip(positional_names, values):
            bound[name] = value
        extra = DictObj()
        keywords_open = False
        for keyword in call.keywords:
            value = self._eval(keyword.value)
            if keyword.arg is not None:
                if keyword.arg in positional_names or keyword.arg in keyword_names:
                    bound[keyword.arg] = value
                else:
                    extra.items[keyword.arg] = Slot(value, Origin(span_of(keyword), "call-keyword", extra.alloc))
                continue
            if isinstance(value, DictObj):
                self._feed(value)
                keywords_open = keywords_open or not value.complete
                for key, slot in value.items.items():
                    if key in positional_names or key in keyword_names:
                        bound[key] = slot.value
                    else:
                        extra.items[key] = slot
            else:
                self._escape(value)
                keywords_open = True
        defaults = dict(zip(positional_names[len(positional_names) - len(args.defaults) :], args.defaults))
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        for name in positional_names + keyword_names:
            if name in bound:
                continue
            if keywords_open or positional_open or name not in defaults:
                bound[name] = UNKNOWN
            else:
                bound[name] = self._eval(defaults[name])
        if args.vararg:
            bound[args.vararg.arg] = ListObj(values[len(positional_names) :], not positional_open)
        if args.kwarg:
            extra.complete = not keywords_open
            bound[args.kwarg.arg] = extra
        elif extra.items or keywords_open:
            pass  # a TypeError at run time; not ours to report
        return bound

    # ------------------------------------------------------ config objects

    def _instantiate(self, ref: ClassRef, node: ast.Call) -> object:
        """An instance of a same-module class: its attributes are the class defaults and the
        constructor arguments (dataclass-like classes), unknown where methods assign them."""
        info = ref.info or self._class_info.get(id(ref.node))
        if info is None:
            self._args_escape(node)
            return UNKNOWN
        slots = {name: Slot(value, None) for name, value in info.defaults.items()}
        open_ = info.open
        if info.fields is not None:
            field_open, written = self._call_slots(node, positional_names=tuple(info.fields))
            slots.update(written)
            open_ = open_ or field_open
        else:
            self._args_escape(node)
        for name in info.assigned_in_methods:  # __init__/__post_init__ may change them
            slots.pop(name, None)
        return ObjectArgs("instance", node, span_of(node), slots, open_)

    def _field_default(self, node: ast.Call) -> object:
        """``dataclasses.field(default=...)``, pydantic ``Field(default, ...)``, attrs ``field(default=...)``."""
        for keyword in node.keywords:
            if keyword.arg == "default":
                return self._eval(keyword.value)
        if node.args and _call_name(node.func) == "Field" and not isinstance(node.args[0], ast.Starred):
            value = self._eval(node.args[0])
            return UNKNOWN if value is Ellipsis else value
        return UNKNOWN

    def _args_read(self, node: ast.Call) -> None:
        for arg in node.args:
            self._eval(arg.value if isinstance(arg, ast.Starred) else arg)
        for keyword in node.keywords:
            self._eval(keyword.value)

    def _args_escape(self, node: ast.Call) -> None:
        for arg in node.args:
            self._escape(self._eval(arg.value if isinstance(arg, ast.Starred) else arg))
        for keyword in node.keywords:
            self._escape(self._eval(keyword.value))

    def _forget_volatile(self) -> None:
        for name in self._volatile:
            if name in self.state.names:
                self.state.names[name] = UNKNOWN
        if self._volatile_env:
            self.state.env = {}
            self.state.env_open = True

    def _escape(self, value: object, seen: set[int] | None = None) -> None:
        """``value`` goes where the analysis cannot follow it (an unknown call, a return, an attribute)."""
        if seen is None:
            seen = set()
        if id(value) in seen:  # a container that holds itself
            return
        seen.add(id(value))
        if isinstance(value, _SelfAttr):
            self._self_escaped.add((value.class_id, value.attr))
            return
        if isinstance(value, DictObj):
            if value.escaped:
                return
            for slot in value.items.values():
                self._escape(slot.value, seen)
            value.forget()  # unknown code may change it
            self._feed(value)
            return
        if isinstance(value, ListObj):
            for elem in value.elems:
                self._escape(elem, seen)
            return
        if isinstance(value, ObjectArgs):
            if value.kind in symbols.ARGS_CONSTRUCTORS and value.facts is None:
                self._finalize_args(value, escaped=True)
            if value.kind == "instance":
                value.slots = {}  # unknown code may set any attribute
            value.open = True

    def _note_feed(self, value: object) -> None:
        if isinstance(value, DictObj):
            self._feed(value)

    def _feed(self, value: DictObj) -> None:
        """Count a reader of a dict: an engine, another dict, unknown code."""
        self.dict_feeds[value.alloc] = self.dict_feeds.get(value.alloc, 0) + 1

    def shared_container(self, alloc: int | None) -> bool:
        """The dict an entry was written in feeds more than one reader: editing it is not local."""
        return alloc is not None and self.dict_feeds.get(alloc, 0) != 1

    def _builtin_call(self, name: str, node: ast.Call) -> object:
        if name == "dict":
            result = DictObj()
            sources = []
            for arg in node.args:
                sources.append(UNKNOWN if isinstance(arg, ast.Starred) else self._eval(arg))
            self._dict_update(result, sources, node.keywords, None, kind="call-keyword")
            return result
        if name in ("list", "tuple") and len(node.args) == 1 and not node.keywords:
            value = self._eval(node.args[0])
            if isinstance(value, ListObj):
                return ListObj(list(value.elems), value.exact)
            return UNKNOWN
        self._args_read(node)
        return UNKNOWN

    def _std_call(self, path: str, node: ast.Call) -> object:
        if path in SUBPROCESS_CALLS:  # a server started with an argv: the command-line front end reads it
            from vllm_lint.commandline.pyhook import subprocess_call

            return subprocess_call(self, path, node)
        if path in ("os.environ.update", "os.environ.setdefault", "os.environ.pop", "os.environ.clear", "os.environ.get"):
            return self._environ_method(path.rsplit(".", 1)[1], node)
        if path == "os.getenv":
            return self._env_get(self._eval(node.args[0]) if node.args else UNKNOWN)
        if path in ("os.putenv", "os.unsetenv"):
            # putenv/unsetenv change the C environment, not os.environ, which vLLM reads
            # in this process while child processes see the new value: unknowable.
            key = self._eval(node.args[0]) if node.args else UNKNOWN
            self._args_read(node)
            if isinstance(key, str):
                self.state.env[key] = UNKNOWN
            else:
                self.state.env, self.state.env_open = {}, True
            return None
        if path == "json.loads" and len(node.args) == 1 and not node.keywords:
            text = self._eval(node.args[0])
            if isinstance(text, (str, bytes)):
                try:
                    return _from_json(json.loads(text))
                except (ValueError, RecursionError):
                    return UNKNOWN
            return UNKNOWN
        if path in ("copy.copy", "copy.deepcopy") and len(node.args) == 1:
            value = self._eval(node.args[0])
            if isinstance(value, DictObj):
                result = DictObj()
                self._dict_update(result, [value], [], None)
                return result
            if isinstance(value, ListObj):
                return ListObj(list(value.elems), value.exact)
            return UNKNOWN
        if path == "omegaconf.OmegaConf.create" and len(node.args) == 1 and not node.keywords:
            value = self._eval(node.args[0])
            if isinstance(value, DictObj):
                return _omegaconf(value, {})
            self._escape(value)
            return UNKNOWN
        if path == "ray.remote" and len(node.args) == 1 and not node.keywords:
            target = self._eval(node.args[0])
            if isinstance(target, ClassRef):
                return target  # ray.remote(Actor): the actor class, whose .options() we follow
            self._escape(target)
            return UNKNOWN
        if path == "ray.runtime_env.RuntimeEnv":
            result = DictObj()
            self._dict_update(result, [], node.keywords, node)
            return result
        if path == "functools.partial" and node.args:
            target = self._eval(node.args[0])
            if isinstance(target, VllmClass) and target.name in symbols.ENGINE_CONSTRUCTORS | symbols.ARGS_CONSTRUCTORS:
                partial = PartialObj(target)
                open_, slots = self._call_slots(node, skip_positional=1)
                partial.slots, partial.open = slots, open_
                return partial
        self._args_escape(node)
        return UNKNOWN

    def _environ_method(self, method: str, node: ast.Call) -> object:
        args = [self._eval(a) for a in node.args]
        if method == "get":
            value = self._env_get(args[0] if args else UNKNOWN)
            if value is ENV_UNSET:
                return args[1] if len(args) > 1 else None
            return value
        if method == "update":
            for keyword in node.keywords:
                value = self._eval(keyword.value)
                if keyword.arg is None:
                    self._env_update_from(value)
                else:
                    self.state.env[keyword.arg] = value if isinstance(value, str) else UNKNOWN
            for arg in args:
                self._env_update_from(arg)
            return None
        if method == "setdefault":
            key = args[0] if args else UNKNOWN
            if not isinstance(key, str):
                self.state.env, self.state.env_open = {}, True
                return UNKNOWN
            # Counts as set: the variable is taken as unset unless this code set it.
            current = self.state.env.get(key, UNKNOWN if self.state.env_open else ENV_UNSET)
            if current is ENV_UNSET:
                value = args[1] if len(args) > 1 else UNKNOWN
                self.state.env[key] = value if isinstance(value, str) else UNKNOWN
                return value
            return current
        if method == "pop":
            key = args[0] if args else UNKNOWN
            if isinstance(key, str):
                current = self._env_get(key)
                self.state.env[key] = ENV_UNSET
                return current
            self.state.env, self.state.env_open = {}, True
            return UNKNOWN
        if method == "clear":
            self.state.env, self.state.env_open = {}, False
            self.state.env["*cleared*"] = ENV_UNSET
            return None
        return UNKNOWN

    def _env_update_from(self, value: object) -> None:
        if isinstance(value, DictObj):
            if not value.complete:
                self.state.env, self.state.env_open = {}, True
            for key, slot in value.items.items():
                self.state.env[key] = slot.value if isinstance(slot.value, str) else UNKNOWN
        else:
            self.state.env, self.state.env_open = {}, True

    def _is_environ(self, node: ast.AST) -> bool:
        value = self._eval(node)
        return isinstance(value, StdName) and value.path == "os.environ"

    def _env_set(self, key_node: ast.AST, value: object) -> None:
        key = self._eval(key_node)
        if isinstance(key, str):
            if value is ENV_UNSET:
                self.state.env[key] = ENV_UNSET
            else:
                self.state.env[key] = value if isinstance(value, str) else UNKNOWN
        else:
            self.state.env, self.state.env_open = {}, True

    def _env_get(self, key: object) -> object:
        if not isinstance(key, str):
            return UNKNOWN
        if key in self.state.env:
            return self.state.env[key]
        return UNKNOWN  # whatever the shell set

    # --------------------------------------------------------- dict mutation

    def _dict_update(self, target: DictObj, sources: list[object], keywords: list[ast.keyword], node, kind: str = "call-keyword") -> None:
        for source in sources:
            if isinstance(source, DictObj):
                self._feed(source)
                if not source.complete:
                    # Keys we have not seen may override everything written so far.
                    target.items = {}
                    target.complete = False
                for key, slot in source.items.items():
                    target.items[key] = slot
            else:
                target.items = {}
                target.complete = False
                self._escape(source)
        for keyword in keywords:
            value = self._eval(keyword.value)
            if keyword.arg is None:
                self._dict_update(target, [value], [], keyword.value)
            else:
                target.items[keyword.arg] = Slot(value, Origin(span_of(keyword), kind, target.alloc))
                self._note_feed(value)

    def _method_call(self, bound: _BoundMethod, node: ast.Call) -> object:
        owner, name = bound.owner, bound.name
        if isinstance(owner, DictObj):
            return self._dict_method(owner, name, node)
        if isinstance(owner, ListObj):
            return self._list_method(owner, name, node)
        if isinstance(owner, VllmClass):
            return self._class_method(owner, name, node)
        if isinstance(owner, ClassRef) and name == "options":
            if any(k.arg == "runtime_env" for k in node.keywords):
                self._record_ray_env(owner.node, self._runtime_env_keyword(node))
            else:
                self._args_read(node)
            return owner
        if isinstance(owner, EngineObj):
            if name in REQUEST_METHODS:
                self._request(owner, name, node)
            else:
                self._args_escape(node)
            return UNKNOWN
        self._args_escape(node)
        return UNKNOWN

    def _dict_method(self, target: DictObj, name: str, node: ast.Call) -> object:
        args = [UNKNOWN if isinstance(a, ast.Starred) else self._eval(a) for a in node.args]
        if name == "update":
            self._dict_update(target, args, node.keywords, node)
            return None
        if name == "setdefault" and args and isinstance(args[0], str):
            slot = target.items.get(args[0])
            if slot is not None:
                return slot.value
            if not target.complete:
                target.items.pop(args[0], None)
                return UNKNOWN
            value = args[1] if len(args) > 1 else None
            target.items[args[0]] = Slot(value, Origin(span_of(node), "call", target.alloc))
            return value
        if name == "pop" and args and isinstance(args[0], str):
            slot = target.items.pop(args[0], None)
            if slot is not None:
                return slot.value
            if target.complete and len(args) > 1:
                return args[1]
            return UNKNOWN
        if name == "get" and args and isinstance(args[0], str):
            slot = target.items.get(args[0])
            if slot is not None:
                return slot.value
            if target.complete:
                return args[1] if len(args) > 1 else None
            return UNKNOWN
        if name == "copy" and not args:
            result = DictObj()
            self._dict_update(result, [target], [], node)
            return result
        if name == "clear":
            target.items, target.complete = {}, True
            return None
        if name in DICT_READERS:
            return UNKNOWN
        target.forget()
        for arg in args:
            self._escape(arg)
        return UNKNOWN

    def _list_method(self, target: ListObj, name: str, node: ast.Call) -> object:
        args = [UNKNOWN if isinstance(a, ast.Starred) else self._eval(a) for a in node.args]
        if name == "append" and len(args) == 1:
            if target.spans is not None and len(target.spans) == len(target.elems):
                target.spans.append(span_of(node.args[0]))
            else:
                target.spans = None
            target.elems.append(args[0])
            return None
        if name == "extend" and len(args) == 1:
            self._list_extend(target, args[0])
            return None
        if name in LIST_READERS:
            return UNKNOWN
        target.forget()
        return UNKNOWN

    def _list_extend(self, target: ListObj, value: object) -> None:
        if isinstance(value, ListObj):
            target.spans = joined_spans(target, value)
            target.elems.extend(value.elems)
            target.exact = target.exact and value.exact
        else:
            target.exact = False

    # ------------------------------------------------------- vLLM constructs

    def _call_slots(
        self,
        node: ast.Call,
        skip_positional: int = 0,
        positional_names: tuple[str, ...] = (),
        keyword_only_rest: bool = False,
    ) -> tuple[bool, dict[str, Slot]]:
        """The keyword slots a call writes; ``open`` when an unresolved splat or positional may add more.

        ``keyword_only_rest``: parameters after ``positional_names`` are keyword-only
        (``LLM(model, *, ...)``), so ``*args`` can only supply those names."""
        slots: dict[str, Slot] = {}
        open_ = False
        positional = node.args[skip_positional:]
        for index, arg in enumerate(positional):
            if isinstance(arg, ast.Starred):
                self._escape(self._eval(arg.value))
                if keyword_only_rest:
                    for name in positional_names[index:]:
                        slots[name] = Slot(UNKNOWN, None)
                    break
                open_ = True
                continue
            value = self._eval(arg)
            if index < len(positional_names):
                slots[positional_names[index]] = Slot(value, Origin(span_of(arg), "positional"))
            else:
                self._escape(value)
                open_ = True
        for keyword in node.keywords:
            value = self._eval(keyword.value)
            if keyword.arg is not None:
                slots[keyword.arg] = Slot(value, Origin(span_of(keyword), "keyword"))
                self._note_feed(value)
                continue
            if isinstance(value, DictObj):
                self._feed(value)
                if not value.complete:
                    open_ = True
                for key, slot in value.items.items():
                    slots.setdefault(key, slot)
            else:
                self._escape(value)
                open_ = True
        return open_, slots

    def _construct(self, kind: str, node: ast.Call, partial: PartialObj | None = None) -> object:
        names = ("model",) if kind in ("LLM", "EngineArgs", "AsyncEngineArgs", "ModelConfig") else ()
        open_, slots = self._call_slots(node, positional_names=names, keyword_only_rest=kind == "LLM")
        if partial is not None:
            open_ = open_ or partial.open
            for key, slot in partial.slots.items():
                slots.setdefault(key, slot)
        anchor = span_of(node)
        if kind == "LLM":
            facts = self._engine_facts("LLM", node, anchor, slots, open_)
            return EngineObj(facts)
        if kind in symbols.ARGS_CONSTRUCTORS or kind in ("ModelConfig", "ParallelConfig", "SpeculativeConfig", "SamplingParams"):
            obj = ObjectArgs(kind, node, anchor, slots, open_, (dict(self.state.env), self.state.env_open))
            if kind in symbols.ARGS_CONSTRUCTORS:
                self._created_args.setdefault(id(node), copy.deepcopy(obj))
            return obj
        if kind == "VllmConfig":
            return VllmConfigObj(self._vllm_config_facts(node, slots, open_))
        self._escape_slots(slots)
        return UNKNOWN

    def _escape_slots(self, slots: dict[str, Slot]) -> None:
        for slot in slots.values():
            self._escape(slot.value)

    def _vllm_config_facts(self, node: ast.Call, slots: dict[str, Slot], open_: bool) -> EngineFacts | None:
        model_slot = slots.get("model_config")
        if model_slot is None:
            if open_:
                return None
            return None  # model_config=None skips every replay check
        model = model_slot.value
        if not isinstance(model, ObjectArgs) or model.kind != "ModelConfig":
            return None
        merged = dict(model.slots)
        merged_open = model.open or open_
        for key in ("speculative_config",):
            if key in slots:
                merged[key] = slots[key]
        parallel_slot = slots.get("parallel_config")
        if parallel_slot is not None:
            parallel = parallel_slot.value
            if isinstance(parallel, ObjectArgs) and parallel.kind == "ParallelConfig":
                for key, slot in parallel.slots.items():
                    merged.setdefault(key, slot)
                if parallel.open:
                    merged_open = True
            else:
                merged_open = True
        return self._engine_facts("VllmConfig", model.node, model.anchor, merged, merged_open)

    def _class_method(self, owner: VllmClass, name: str, node: ast.Call) -> object:
        if name == "from_engine_args" and owner.name in symbols.ENGINE_FACTORIES and node.args:
            args = self._eval(node.args[0])
            for extra in node.args[1:]:
                self._eval(extra)
            for keyword in node.keywords:
                self._eval(keyword.value)
            if isinstance(args, ObjectArgs) and args.kind in symbols.ARGS_CONSTRUCTORS:
                return EngineObj(self._finalize_args(args, escaped=False))
            return EngineObj(None)
        if name == "from_vllm_config" and owner.name in symbols.ENGINE_FACTORIES:
            config = self._eval(node.args[0]) if node.args else None
            for keyword in node.keywords:
                value = self._eval(keyword.value)
                if keyword.arg == "vllm_config":
                    config = value
            return EngineObj(config.facts if isinstance(config, VllmConfigObj) else None)
        if name == "from_cli_args" and owner.name in symbols.ARGS_CONSTRUCTORS:
            self._args_escape(node)
            obj = ObjectArgs(owner.name, node, span_of(node), {}, True, (dict(self.state.env), self.state.env_open))
            self._created_args.setdefault(id(node), copy.deepcopy(obj))
            return obj
        self._args_escape(node)
        return UNKNOWN

    def _finalize_args(self, obj: ObjectArgs, escaped: bool) -> EngineFacts | None:
        """The engine an ``EngineArgs`` object builds, as it is now."""
        if obj.facts is not None:
            return obj.facts
        env = None if escaped else (dict(self.state.env), self.state.env_open)
        facts = self._engine_facts(obj.kind, obj.node, obj.anchor, obj.slots, obj.open or escaped, env or obj.env)
        obj.facts = facts
        created = self._created_args.get(id(obj.node))
        if created is not None:
            created.facts = facts
        return facts

    def _engine_facts(self, kind, node, anchor, slots, open_, env=None) -> EngineFacts | None:
        env_map, env_open = env if env is not None else (self.state.env, self.state.env_open)
        facts = EngineFacts(kind=kind, anchor=anchor, open=open_)
        for key, slot in slots.items():
            value = to_fact_value(slot.value)
            facts.fields[key] = UNKNOWN if value is UNKNOWN else Known(value, slot.origin)
            if slot.origin is not None:
                facts.written[key] = slot.origin
        if "*cleared*" in env_map:
            env_open = False
        for key, value in env_map.items():
            if key != "*cleared*":
                facts.env[key] = value if value is ENV_UNSET or isinstance(value, str) else UNKNOWN
        facts.env_open = env_open
        self.engines.append(facts)
        return facts

    # -------------------------------------------------------------- requests

    def _sampling_argument(self, method: str, node: ast.Call) -> ast.AST | None:
        index, keyword_name = REQUEST_METHODS[method]
        for keyword in node.keywords:
            if keyword.arg == keyword_name:
                return keyword.value
        positional = [a for a in node.args]
        if any(isinstance(a, ast.Starred) for a in positional[: index + 1]):
            return None
        if len(positional) > index:
            return positional[index]
        return None

    def _request(self, engine: EngineObj, method: str, node: ast.Call) -> None:
        argument = self._sampling_argument(method, node)
        values = {}
        for arg in node.args:
            if not isinstance(arg, ast.Starred):
                values[id(arg)] = self._eval(arg)
        for keyword in node.keywords:
            values[id(keyword.value)] = self._eval(keyword.value)
        if argument is None or engine.facts is None:
            return
        sampling = values.get(id(argument), UNKNOWN)
        if isinstance(sampling, _SelfAttr):
            self._pending_self_requests.append((engine, sampling))
            return
        self._record_requests(engine.facts, sampling)

    def _record_requests(self, engine: EngineFacts, value: object) -> None:
        candidates = value.elems if isinstance(value, ListObj) else [value]
        for candidate in candidates:
            if not isinstance(candidate, ObjectArgs) or candidate.kind != "SamplingParams":
                continue
            key = (id(candidate.node), id(engine))
            if key in self._request_keys:
                continue
            self._request_keys.add(key)
            request = RequestFacts(anchor=candidate.anchor, engine=engine, open=candidate.open)
            for name, slot in candidate.slots.items():
                inner = to_fact_value(slot.value)
                request.fields[name] = UNKNOWN if inner is UNKNOWN else Known(inner, slot.origin)
                if slot.origin is not None:
                    request.written[name] = slot.origin
            self.requests.append(request)

    def _self_request(self, node: ast.Call) -> object:
        attr_node = node.func.value
        method = node.func.attr
        argument = self._sampling_argument(method, node)
        values = {}
        for arg in node.args:
            if not isinstance(arg, ast.Starred):
                values[id(arg)] = self._eval(arg)
        for keyword in node.keywords:
            values[id(keyword.value)] = self._eval(keyword.value)
        if argument is not None and self.scope.class_node is not None:
            sampling = values.get(id(argument), UNKNOWN)
            self._pending_self_requests.append((_SelfAttr(id(self.scope.class_node), attr_node.attr), sampling))
        return UNKNOWN

    def _self_attribute(self, value: object) -> object:
        """``self.x`` of a class whose methods bind ``x`` exactly once."""
        if isinstance(value, _SelfAttr):
            bound = self._class_attrs.get((value.class_id, value.attr), [])
            if len(bound) != 1:
                return UNKNOWN
            if isinstance(bound[0], ObjectArgs) and (value.class_id, value.attr) in self._self_escaped:
                return UNKNOWN  # changed or handed to unknown code somewhere in the class
            return bound[0]
        return value

    def _resolve_self_requests(self) -> None:
        for engine, sampling in self._pending_self_requests:
            engine = self._self_attribute(engine)
            if isinstance(engine, EngineObj) and engine.facts is not None:
                self._record_requests(engine.facts, self._self_attribute(sampling))

    # --------------------------------------------------------------- helpers

    def _truth(self, value: object) -> bool | None:
        if isinstance(value, (bool, int, float, str, bytes)) or value is None:
            return bool(value)
        if isinstance(value, DictObj):
            if value.items:
                return True
            return False if value.complete else None
        if isinstance(value, ListObj):
            if value.elems:
                return True
            return False if value.exact else None
        return None


@dataclass(frozen=True, eq=False)
class _BoundMethod:
    owner: object
    name: str


@dataclass(frozen=True)
class _SelfAttr:
    class_id: int
    attr: str


class _Missing:
    pass


_MISSING = _Missing()

_COMPARE = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.Is: lambda a, b: a is b if a is None or b is None or isinstance(a, bool) else a == b,
    ast.IsNot: lambda a, b: a is not b if a is None or b is None or isinstance(a, bool) else a != b,
}

_BINOPS = {
    ast.Add: lambda a, b: a + b if not (isinstance(a, str) and len(a) + len(b) > 100_000) else UNKNOWN,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b if isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a) < 1e12 and abs(b) < 1e12 else UNKNOWN,
    ast.Div: lambda a, b: a / b,
}


def _from_json(value: object) -> object:
    if isinstance(value, dict):
        result = DictObj()
        for key, inner in value.items():
            result.items[str(key)] = Slot(_from_json(inner), None)
        return result
    if isinstance(value, list):
        return ListObj([_from_json(v) for v in value])
    return value


def _opened(original: object, copy_: object) -> bool:
    return isinstance(original, ObjectArgs) and isinstance(copy_, ObjectArgs) and copy_.open and not original.open


class _SummaryCollector(_Touched):
    """One walk of a module: what each function mutates, and attribute stores."""

    def __init__(self, summary: ModuleSummary) -> None:
        super().__init__(call_arguments=False)
        self.summary = summary
        self.functions: list[ast.AST] = []
        self.classes: list[ast.AST] = []
        self.mutations: dict[ast.AST, _Touched] = {}

    def _record(self) -> _Touched | None:
        if not self.functions:
            return None
        return self.mutations.setdefault(self.functions[-1], _Touched(call_arguments=False))

    # Each inherited handler records into the current function's _Touched.
    def _with_function(self, method, node) -> None:
        target = self._record()
        if target is not None:
            method(target, node)

    def visit_FunctionDef(self, node: ast.AST) -> None:
        self.functions.append(node)
        self.mutations.setdefault(node, _Touched(call_arguments=False))
        for child in ast.iter_child_nodes(node):
            self.visit(child)
        self.functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(node)
        self.summary.self_attributes.setdefault(id(node), set())
        saved, self.functions = self.functions, []  # a class body is not its enclosing function
        self.generic_visit(node)
        self.functions = saved
        self.classes.pop()

    def visit_Name(self, node: ast.Name) -> None:
        self._with_function(_Touched.visit_Name, node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        target = self._record()
        if target is not None and isinstance(node.ctx, (ast.Store, ast.Del)):
            target._base(node.value)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                if self.classes:
                    self.summary.self_attributes[id(self.classes[-1])].add(node.attr)
            else:
                # ``Defaults.X = ...``: class attributes of that name are not constants.
                self.summary.class_attr_stores.add(node.attr)
            target = self._record()
            if target is not None:
                target._base(node.value)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        target = self._record()
        if target is not None:
            target._base(node.target)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        target = self._record()
        if target is not None:
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in _Touched.MUTATORS:
                target._base(func.value)
            if isinstance(func, ast.Attribute) and func.attr in ("putenv", "unsetenv"):
                target.environ = True
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        target = self._record()
        if target is not None:
            target.names.update(node.names)

    visit_Nonlocal = visit_Global


class ModuleSummary:
    """Syntactic facts about a module, computed once and shared by the analysis passes."""

    def __init__(self, tree: ast.Module) -> None:
        self.volatile: set[str] = set()
        self.volatile_env = False
        self.class_attr_stores: set[str] = set()
        # Attributes each class's methods assign on ``self``.
        self.self_attributes: dict[int, set[str]] = {}
        self._locals: dict[int, tuple[set[str], set[str]]] = {}
        self._touched: dict[int, _Touched] = {}
        collector = _SummaryCollector(self)
        collector.visit(tree)
        for function, touched in collector.mutations.items():
            local, declared = self.locals_of(function)
            self.volatile |= declared | (touched.names - local)
            self.volatile_env |= touched.environ

    def locals_of(self, node: ast.AST) -> tuple[set[str], set[str]]:
        key = id(node)
        if key not in self._locals:
            self._locals[key] = function_locals(node)
        return self._locals[key]

    def touched_by_loop(self, node: ast.AST, header: list[ast.AST]) -> _Touched:
        key = id(node)
        if key not in self._touched:
            self._touched[key] = touched_by(node.body + node.orelse + header)
        return self._touched[key]

    def touched_by_block(self, node: ast.AST) -> _Touched:
        key = id(node)
        if key not in self._touched:
            self._touched[key] = touched_by(node.body)
        return self._touched[key]


def analyze_module(
    tree: ast.Module, path: str | None = None, project: ProjectModules | None = None, max_passes: int = 3
) -> ModuleAnalysis:
    """Analyse a module; again while a pass learns what the previous one could not know:
    functions that change module-level values, Ray actors' runtime environments."""
    volatile: set[str] = set()
    ray_envs: dict[int, list] = {}
    summary = ModuleSummary(tree)
    for _ in range(max_passes):
        analysis = ModuleAnalysis(tree, volatile, ray_envs, path, project, summary)
        analysis.run()
        if analysis.found_volatile <= volatile and _same_envs(analysis.ray_envs, ray_envs):
            return analysis
        volatile |= analysis.found_volatile
        ray_envs = analysis.ray_envs
    return analysis


def _same_envs(a: dict[int, list], b: dict[int, list]) -> bool:
    if a.keys() != b.keys():
        return False
    return all(len(a[k]) == len(b[k]) and all(x is y or same_constant(x, y) for x, y in zip(a[k], b[k])) for k in a)


class _NotInlined:
    pass


_NOT_INLINED = _NotInlined()


def _call_name(func: ast.AST) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


@dataclass
class _ClassInfo:
    defaults: dict[str, object]
    fields: list[str] | None  # constructor fields, for dataclass-like classes
    assigned_in_methods: set[str]
    open: bool  # attributes may come from a base class we cannot see


def _class_info(node: ast.ClassDef, final: State, assigned: set[str]) -> _ClassInfo:
    decorators = {
        _call_name(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list
    }
    bases = {_call_name(b) for b in node.bases}
    dataclass_like = bool(decorators & DATACLASS_DECORATORS) or bool(bases & FIELD_BASES)
    fields = None
    if dataclass_like:
        fields = [
            stmt.target.id
            for stmt in node.body
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
            and not (isinstance(stmt.annotation, ast.Subscript) and _call_name(stmt.annotation.value) == "ClassVar")
        ]
    defaults = {
        name: value
        for name, value in final.names.items()
        if not isinstance(value, (FunctionRef, ClassRef)) and value is not UNKNOWN
    }
    known_bases = bases <= (FIELD_BASES | {"object"})
    return _ClassInfo(defaults, fields, assigned, open=not known_bases)


def _omegaconf(value: DictObj, memo: dict) -> DictObj:
    """``OmegaConf.create(dict)``: a copy whose keys are also attributes, at every level."""
    if id(value) in memo:
        return memo[id(value)]
    result = DictObj({}, value.complete)
    memo[id(value)] = result
    result.attribute_access = True
    for key, slot in value.items.items():
        inner = _omegaconf(slot.value, memo) if isinstance(slot.value, DictObj) else slot.value
        result.items[key] = Slot(inner, slot.origin)
    return result
