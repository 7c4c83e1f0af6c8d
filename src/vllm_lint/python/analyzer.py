"""Walk a module's ``ast`` and collect the facts of every vLLM engine and request.

The walk is flow-sensitive and straight-line within a scope: statements are
interpreted in order over abstract values (``values.py``).  Branches on a
resolvable constant follow that branch; other branches are analysed
separately and joined (a fact survives only when every branch agrees).  Loops
forget what they touch.  Unknown calls forget the containers passed to them.
This is a must-analysis: whatever is not certain becomes ``UNKNOWN`` and the
rules stay silent about it.

The walk is split by concern: this module drives it (scopes, statements,
joins); ``expressions.py`` evaluates expressions, ``calls.py`` the calls it
understands, ``engines.py`` turns vLLM constructs into facts; ``summary.py``
holds the syntactic facts collected once per module and ``state.py`` the
shared vocabulary.
"""

from __future__ import annotations

import ast
import builtins
import os

import vllm_lint.python.symbols as symbols
from vllm_lint.launch.project import outside_project
from vllm_lint.facts import ABSENT, UNKNOWN, EngineFacts, RequestFacts
from vllm_lint.python.calls import CallsMixin, ClassInfo, class_info
from vllm_lint.python.deferred import EXECUTOR, MODULE_ALIASES, deferred_name, spelled_target
from vllm_lint.python.engines import EnginesMixin, join_engine_objects
from vllm_lint.python.expressions import ExpressionsMixin
from vllm_lint.python.instances import InstancesMixin, builds_engine
from vllm_lint.python.state import (
    ENV_UNSET,
    MAX_DEPTH,
    MAX_INLINED_CALLS,
    MAX_UNROLLED_ITEMS,
    MAX_UNROLLED_ITERATIONS,
    MISSING,
    SELF_SHADOW,
    STD_MODULES,
    LoopFrame,
    Scope,
    SelfAttribute,
    State,
    span_of,
)
from vllm_lint.python.subprocesses import SUBPROCESS_CALLS, command_hook
from vllm_lint.python.guards import catches_type_error
from vllm_lint.python.parametrised import FIXTURE_REQUEST, MAX_PARAMETRISED_ARMS, parametrisations, pytest_param_values
from vllm_lint.python.summary import ModuleSummary, Touched, is_import_error_handler, nodes, vllm_world_arm
from vllm_lint.python.symbols import VllmClass, VllmModule
from vllm_lint.python.values import (
    Builtin,
    ClassRef,
    EachOf,
    DictObj,
    EngineObj,
    FunctionRef,
    ListObj,
    IMMUTABLE,
    ObjectArgs,
    OneOf,
    ProjectModule,
    Slot,
    StdName,
    copy_value,
    iteration_items,
    optional_flags,
    same_constant,
    to_fact_value,
)


class ModuleAnalysis(ExpressionsMixin, CallsMixin, InstancesMixin, EnginesMixin):
    """Analyse one module; results in ``engines`` and ``requests``."""

    def __init__(
        self,
        tree: ast.Module,
        volatile: set[str] | None = None,
        ray_envs: dict[int, list] | None = None,
        path: str | None = None,
        project=None,  # python.project.ProjectModules: the project's modules, followed through imports
        summary: ModuleSummary | None = None,
        watch: dict | None = None,
        bind_callers: bool = False,
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
        # argv lists that run an RL framework's entry point: (words, call span).
        self.framework_launches: list = []
        self.requests: list[RequestFacts] = []
        self._engine_nodes: set[int] = set()
        self._request_keys: set[tuple[int, int]] = set()
        self._created_args: dict[int, ObjectArgs] = {}
        self._pending_functions: list[tuple[ast.AST, Scope]] = []
        # Per (class, attribute): (the method that binds it, or None, the value), one per binding.
        self._class_attrs: dict[tuple[int, str], list[tuple[str | None, object]]] = {}
        self._pending_self_requests: list[tuple[object, object]] = []
        # ``from_engine_args(self.engine_args)``: (the attribute, the engine built, the environment
        # then), resolved once every method has run and bound what it binds.
        self._pending_self_engines: list[tuple[SelfAttribute, EngineObj, tuple]] = []
        # Calls another module's function asks about (``callers.py``): (line, col) -> (the
        # function called, whether it is a method); what each passes is kept in ``watched``.
        self._watch = watch or {}
        # Whether functions that build engines are analysed with what the project's callers pass:
        # for the file being linted (a module read for its names, or for a caller's values, binds
        # only the functions whose calls it is asked about).
        self._bind_callers = bind_callers
        self.watched: dict[tuple[int, int], dict] = {}
        self._watched_inlined: dict[tuple[int, int], list[dict]] = {}
        self._watched_standalone: dict[tuple[int, int], list[dict]] = {}
        self._watched_joined: set[tuple[int, int]] = set()
        self._self_escaped: set[tuple[int, str]] = set()
        # What each class's own ``__init__`` binds on ``self`` (its analysis, not a call's).
        self._init_bindings: dict[tuple[int, str], list[object]] = {}
        # The bindings on ``self`` the method being analysed on its own makes: (key, index in
        # ``_class_attrs[key]``), updated to what the method leaves when it ends.
        self._method_binds: list[tuple[tuple[int, str], int]] = []
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
        self._return_states: list[State] = []  # the states at an inlined call's returns
        self._stopped = False
        self._inline_stack: list[ast.AST] = []
        # Explain mode (``Trace.active``): the calls whose code is running, innermost last, as Steps.
        self._trace_calls: list = []
        self._inline_budget = MAX_INLINED_CALLS
        self._unroll_budget = MAX_UNROLLED_ITERATIONS
        # Set while a function of another project module is inlined: the file its code is in.
        self._foreign_path: str | None = None
        # The module's state while a call in the module body is inlined.
        self._module_live: State | None = None
        # Classes that build engines (their methods, by name), and the instances being followed.
        self._engine_classes: dict[int, dict | None] = {}
        self._instances: list = []
        self._followed_self_call = False
        # Per inlined function: the functions it defines that build engines (closures run at its end).
        self._nested_defs: list[list] = []
        # While a class or another module's function runs for a call: that call, where engines are reported.
        self._anchor_site = None
        self._splatted_fields_of = None  # see EnginesMixin._call_slots
        self._opened_by: dict = {}  # per construction call: the span of the splat whose keys are not all known
        self._other_writes: dict[int, set[str]] = {}  # per class: attributes methods other than __init__ set
        # One frame per enclosing loop: an unrolled loop collects the states that break
        # or continue; None for a loop analysed as a whole.
        self._loop_frames: list[LoopFrame | None] = []
        self._classes: dict[int, ClassInfo] = {}
        self._class_constants_read = False  # a ``Settings.attr`` copy is kept in some state
        # Attribute names assigned on something other than self (``Defaults.X = ...``):
        # class attributes of those names are not constants.
        self._class_attr_stores = self.summary.class_attr_stores
        self._consumed_at_once: set[int] = set()  # ``vars(x)``/``x.__dict__`` read where written (expressions._fields_view)
        self.module_scope = Scope("module", tree, None)
        self.state = State()
        self.scope = self.module_scope
        # Version guards (``python.guards``): read on the first ``if`` or ``try``; the releases
        # that can run the code being analysed (None: any), and whether a feature guard hides them.
        self._guards = None
        self._releases: frozenset | None = None
        self._guard_line = 0
        self._feature_guarded = False

    # ----------------------------------------------------------------- driver

    def run(self) -> None:
        self._find_volatile()
        self._block(self.tree.body)
        self.module_scope.final = self.state
        while self._pending_functions:
            node, parent = self._pending_functions.pop(0)
            self._function(node, parent)
        self._resolve_self_engines()
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
        args = node.args
        # Parameters are bound on every path (a join must not take one for an unbound name).
        for parameter in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg]:
            if parameter is not None:
                self.state.names[parameter.arg] = UNKNOWN
                if parameter is not args.vararg and parameter.annotation is not None:
                    self.state.names[parameter.arg] = self._annotated_instance(parameter.annotation)
        for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
            self._eval(default)
        if args.kwarg is not None:
            # A new dict on every call, seen by nothing else: its writes are certain, its other keys not.
            self.state.names[args.kwarg.arg] = DictObj({}, complete=False)
        self._bind_from_callers(node, parent, scope.class_node)
        arms = self._parametrised_arms(node)
        copies_before = len(self._global_copies)
        self._stopped = False
        saved_guard = self._guard_context()
        self._method_binds = []
        self._releases, self._guard_line, self._feature_guarded = None, 0, False  # called from anywhere
        try:
            if arms is None:
                self._block(node.body)
            else:
                self._run_arms(node, arms)
        finally:
            scope.final = self.state
            if scope.class_node is not None:
                self._left_by_method(node.name, self.state)
            self.scope, self.state = saved_scope, saved_state
            self._stopped = False
            self._releases, self._guard_line, self._feature_guarded = saved_guard
        for name, original, copy_ in self._global_copies[copies_before:]:
            if to_fact_value(original) != to_fact_value(copy_) or _opened(original, copy_):
                self.found_volatile.add(name)

    def _parametrised_arms(self, node: ast.AST) -> list[dict[str, object]] | None:
        """A pytest fixture or test parametrised with a known, short collection
        (``python.parametrised``): the names each run binds; None when it is not one."""
        found = parametrisations(node) if node.decorator_list else []
        if not found:
            return None
        arms: list[dict[str, object]] = [{}]
        for parametrisation in found:
            rows = self._parametrised_rows(parametrisation.values, parametrisation.names)
            if rows is None or not rows or len(arms) * len(rows) > MAX_PARAMETRISED_ARMS:
                return None
            arms = [{**arm, **row} for arm in arms for row in rows]
        if len(arms) > self._unroll_budget:
            return None
        self._unroll_budget -= len(arms)
        return arms

    def _parametrised_rows(self, values: ast.expr, names: tuple[str, ...] | None) -> list[dict[str, object]] | None:
        """What each value of a parametrisation binds: the named arguments, or a fixture's
        ``request`` whose ``param`` is the value."""
        width = 1 if names is None else len(names)
        if isinstance(values, (ast.List, ast.Tuple)):
            rows = []
            for element in values.elts:
                if isinstance(element, ast.Starred):
                    return None
                wrapped = pytest_param_values(element)
                if wrapped is None:
                    rows.append(self._eval(element))
                elif len(wrapped) == width:
                    evaluated = [self._eval(value) for value in wrapped]
                    rows.append(evaluated[0] if width == 1 else ListObj(evaluated, exact=True))
                else:
                    rows.append(UNKNOWN)
        else:
            rows = iteration_items(self._eval(values))
            if rows is None:
                return None
        bound = []
        for row in rows:
            if names is None:
                request = DictObj({"param": Slot(row, None)}, complete=False)
                request.attribute_access = True
                bound.append({FIXTURE_REQUEST: request})
            elif width == 1:
                bound.append({names[0]: row})
            elif isinstance(row, ListObj) and row.exact and len(row.elems) == width:
                bound.append(dict(zip(names, row.elems)))
            else:
                bound.append(dict.fromkeys(names, UNKNOWN))
        return bound

    def _run_arms(self, node: ast.AST, arms: list[dict[str, object]]) -> None:
        """The body once per arm of a parametrisation, from the same entry state; the state
        after is the join of the arms'."""
        entry = self.state
        ends: list[State] = []
        for arm in arms:
            self.state = entry.fork()
            self.state.names.update(arm)
            self._stopped = False
            self._block(node.body)
            ends.append(self.state)
        self._stopped = False
        self.state = self._join(ends)

    def _left_by_method(self, method: str, final: State) -> None:
        """A container a method binds on ``self`` is followed until the method ends
        (``self.x[k] = v`` in a branch joins): what it leaves is what the other methods read;
        one it handed to other code (its shadow dropped) is not known."""
        for key, index in self._method_binds:
            name, value = self._class_attrs[key][index]
            if isinstance(value, (DictObj, ListObj)) or _is_engine_args(value):
                left = final.names.get(SELF_SHADOW + key[1], MISSING)
                value = left if left is not MISSING else UNKNOWN
                self._class_attrs[key][index] = (name, value)
            if method == "__init__":
                self._init_bindings.setdefault(key, []).append(value)
        self._method_binds = []

    def _bind_from_callers(self, node: ast.AST, parent: Scope, owner: ast.ClassDef | None) -> None:
        """Parameters bound to what every call in the project passes (``callers.py``), for a
        function that builds an engine (or the ``__init__`` of a class one of whose methods
        does), or one whose calls another module's analysis is following."""
        if self.project is None or self.path is None or not (self._bind_callers or self._watch):
            return
        if outside_project(self.path):
            return  # vLLM's own code, an installed package: its callers are everyone's
        at_top = parent is self.module_scope or (parent.kind == "class" and parent.parent is self.module_scope)
        args = node.args
        parameters = args.posonlyargs + args.args + args.kwonlyargs
        if owner is not None:
            parameters = parameters[1:]
        if not at_top or not (parameters or args.vararg or args.kwarg):
            return
        if not (self._holds_watched_call(node) or self._bind_callers and self._wants_callers(node, owner)):
            return
        sites = self.project.call_bindings(self.path, node, owner)
        if not sites:
            return
        defaults = dict(zip([a.arg for a in args.posonlyargs + args.args][-len(args.defaults) or len(args.args) + 1 :], args.defaults))
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        names = [a.arg for a in parameters] + [a.arg for a in (args.vararg, args.kwarg) if a is not None]
        self.scope.caller_bound = frozenset(names) - _rebound_names(node)
        for name in names:
            values = []
            for site in sites:
                value = self._own_definitions(site.get(name, MISSING))
                if value is MISSING:
                    value = self._eval(defaults[name]) if name in defaults else UNKNOWN
                values.append(value)
            self.state.names[name] = self._join_values(values, {}, fresh=True)

    def _own_definitions(self, value: object) -> object:
        """A class or function of this module that a caller passes (``create_engines(..., LLMActor)``),
        read by the caller's analysis of this file: this analysis's own definition of it."""
        if isinstance(value, OneOf):
            return OneOf(tuple((self._own_definitions(option), origin) for option, origin in value.options))
        if isinstance(value, (ClassRef, FunctionRef)) and value.path is not None and self.path is not None:
            if os.path.abspath(value.path) == os.path.abspath(self.path):
                for node in self.tree.body:
                    if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and (
                        node.lineno, node.name) == (value.node.lineno, value.node.name):
                        found = self.module_scope.final.names.get(node.name) if self.module_scope.final else None
                        return found if isinstance(found, (ClassRef, FunctionRef)) and found.node is node else value
        return value

    def _wants_callers(self, node: ast.AST, owner: ast.ClassDef | None) -> bool:
        if builds_engine(node) or _calls_a_parameter(node):
            return True
        return owner is not None and node.name == "__init__" and any(
            builds_engine(item) for item in owner.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
        )

    def _holds_watched_call(self, node: ast.AST) -> bool:
        """A call another module's analysis asks about is in this function: its values depend on
        what this function's own callers pass."""
        end = node.end_lineno or node.lineno
        return any(node.lineno <= line <= end for line, _ in self._watch)

    def _annotated_instance(self, annotation: ast.AST) -> object:
        """A parameter annotated with a project dataclass (``cfg: ServeConfig``): an instance whose
        fields are that class's, every value unknown (``dataclasses.asdict(cfg)`` has exactly those keys)."""
        if not isinstance(annotation, (ast.Name, ast.Attribute)):
            return UNKNOWN
        ref = self._eval(annotation)
        if not isinstance(ref, ClassRef):
            return UNKNOWN
        info = ref.info or self._classes.get(id(ref.node))
        if info is None or info.fields is None:
            return UNKNOWN
        instance = ObjectArgs("instance", annotation, span_of(annotation), {}, info.open)
        instance.fields = info.fields
        return instance

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
        self._bind(
            node.name, FunctionRef(node, self.scope, self.scope.class_node if self.scope.kind == "class" else None)
        )
        parent = self.scope
        while parent.kind == "class":  # methods do not see class-level names
            parent = parent.parent
        if self.scope.kind == "class":
            node._vllm_lint_class = self.scope.node  # type: ignore[attr-defined]
        if not self._inline_stack:  # bodies of inlined calls are also analysed on their own
            if node.name == "__init__" and self.scope.kind == "class":
                # First of its class: the other methods read what it binds on ``self``.
                index = next(
                    (i for i, (n, _) in enumerate(self._pending_functions)
                     if getattr(n, "_vllm_lint_class", None) is self.scope.node),
                    len(self._pending_functions),
                )
                self._pending_functions.insert(index, (node, parent))
            else:
                self._pending_functions.append((node, parent))
        elif self._nested_defs and builds_engine(node):
            self._nested_defs[-1].append(node)  # run when the inlined function ends, as its closure

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
            ref.info = self._classes[id(node)] = class_info(node, scope.final, assigned)
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
        dotted = MODULE_ALIASES.get(dotted, dotted)
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
        if module == "sys" and name == "argv":
            return StdName("sys.argv")
        if module == "copy" and name in ("copy", "deepcopy"):
            return StdName(f"copy.{name}")
        if module == "dataclasses" and name == "asdict":
            return StdName("dataclasses.asdict")
        if module == "functools" and name == "partial":
            return StdName("functools.partial")
        if module == "omegaconf" and name == "OmegaConf":
            return StdName("omegaconf.OmegaConf")
        if module in ("ray.runtime_env", "ray") and name == "RuntimeEnv":
            return StdName("ray.runtime_env.RuntimeEnv")
        if module == "shlex" and name == "join":
            return StdName("shlex.join")
        if module == "typing" and name == "cast":
            return StdName("typing.cast")
        if module == "typing" and name == "TYPE_CHECKING":
            return False  # false at run time
        if f"{module}.{name}" in SUBPROCESS_CALLS:
            return StdName(f"{module}.{name}")
        deferring = deferred_name(module, name)
        if deferring is not None:
            return StdName(deferring)
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
            self._return_states.append(self.state)  # and goes on from here
        elif node.value is not None:
            command_hook(self, node, value)  # a framework runs the argv a service's hook returns
            self._escape(value)
        self._stopped = True

    def _stmt_Raise(self, node: ast.Raise) -> None:
        self._eval(node.exc)
        self._stopped = True

    def _stmt_Break(self, node: ast.stmt) -> None:
        frame = self._loop_frames[-1] if self._loop_frames else None
        if frame is not None:
            frame.breaks.append(self.state)
        self._stopped = True

    def _stmt_Continue(self, node: ast.stmt) -> None:
        frame = self._loop_frames[-1] if self._loop_frames else None
        if frame is not None:
            frame.continues.append(self.state)
        self._stopped = True

    def _stmt_If(self, node: ast.If) -> None:
        vllm_world = vllm_world_arm(node)
        if vllm_world is not None:  # without vLLM installed the program builds no engine
            self._eval(node.test)
            self._block(vllm_world)
            return
        guard = self._guard_of(node.test)
        if guard is not None:
            self._eval(node.test)
            self._guarded_branches([(node.body, guard.true), (node.orelse, guard.false)], guard)
            return
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

    # ---------------------------------------------------------- version guards

    def _guard_context(self) -> tuple:
        return (self._releases, self._guard_line, self._feature_guarded)

    def _guard_of(self, test: ast.AST):
        if self._guards is None:
            from vllm_lint.python.guards import Guards

            self._guards = Guards(self.tree, self.path, self.project)
        return self._guards.of(test) if self._guards.active else None

    def _guarded_branches(self, arms: list, guard) -> None:
        """``_branches`` where each arm runs only on the releases its guard admits; the code
        after runs on the releases of the arms that reach it."""
        from vllm_lint.python.guards import narrowed, widened

        start, saved = self.state, self._guard_context()
        outcomes, contexts = [], []
        for body, releases in arms:
            self.state = start.fork()
            self._stopped = False
            self._releases = narrowed(saved[0], releases)
            self._guard_line = guard.line if releases is not None else saved[1]
            self._feature_guarded = saved[2] or guard.feature
            self._block(body)
            if not self._stopped:
                outcomes.append(self.state)
                contexts.append(self._releases)
        self._stopped = not outcomes
        self.state = self._join(outcomes) if outcomes else start
        self._releases, self._guard_line, self._feature_guarded = saved
        if outcomes and len(contexts) < len(arms):  # an arm that returns or raises: the rest runs on the others'
            self._releases = widened(contexts)
            self._guard_line = guard.line

    def _stmt_Match(self, node: ast.AST) -> None:
        self._eval(node.subject)
        self._branches([case.body for case in node.cases], fallthrough=True)

    def _loop(self, node: ast.AST, header: list[ast.AST]) -> None:
        """A loop run an unknown number of times: what it touches is forgotten before and after."""
        touched = self.summary.touched_by_loop(node, header)
        # A list the loop only appends to (``for k, v in flags.items(): cmd.append(f"--{k}")``) keeps
        # what it held before the loop, then any number of unknown elements.
        prefixes = {
            name: (value, len(value.elems))
            for name in touched.grown_only
            if isinstance(value := self.state.names.get(name), ListObj)
        }
        self._forget(touched, kept=prefixes)
        for expr in header:
            if isinstance(expr, ast.expr):
                self._eval(expr)
        self._loop_frames.append(None)
        try:
            self._block(node.body)
        finally:
            self._loop_frames.pop()
        self._stopped = False  # break/continue end an iteration, not the code after the loop
        self._block(node.orelse)
        self._stopped = False
        self._forget(touched, kept={n: p for n, p in prefixes.items() if self.state.names.get(n) is p[0]})

    def _stmt_For(self, node: ast.For) -> None:
        iterable = self._eval(node.iter)
        items = None if isinstance(node, ast.AsyncFor) else iteration_items(iterable)
        if items is not None and len(items) <= MAX_UNROLLED_ITEMS and len(items) <= self._unroll_budget:
            self._unroll_budget -= len(items)
            self._unroll(node, items)
            return
        if isinstance(iterable, ListObj):
            for elem in iterable.elems:  # the loop variable may change them
                self._escape(elem)
        self._loop(node, [node.target])
        self._assign(node.target, UNKNOWN, None)

    _stmt_AsyncFor = _stmt_For

    def _unroll(self, node: ast.For, items: list) -> None:
        """A loop over a known, short sequence: the body once per element, in order."""
        exits: list[State] = []  # states that leave the loop by break (or the else clause)
        for item in items:
            self._assign(node.target, item, None)
            frame = LoopFrame()
            self._loop_frames.append(frame)
            self._stopped = False
            try:
                self._block(node.body)
            finally:
                self._loop_frames.pop()
            exits.extend(frame.breaks)
            ends = frame.continues + ([] if self._stopped else [self.state])
            if not ends:
                break  # every path left the loop
            self.state = self._join(ends)
            self._stopped = False
        else:
            self._stopped = False
            self._block(node.orelse)
            if not self._stopped:
                exits.append(self.state)
        self._stopped = not exits
        if exits:
            self.state = self._join(exits)

    def _stmt_While(self, node: ast.While) -> None:
        self._loop(node, [node.test])

    def _stmt_With(self, node: ast.With) -> None:
        for item in node.items:
            context = self._eval(item.context_expr)
            if item.optional_vars is not None:
                # An executor's ``__enter__`` returns the executor itself; anything else is unknown.
                self._assign(item.optional_vars, context if context == StdName(EXECUTOR) else UNKNOWN, None)
        self._block(node.body)

    _stmt_AsyncWith = _stmt_With

    def _stmt_Try(self, node: ast.Try) -> None:
        start = self.state.fork()
        saved_guard = self._guard_context()
        engines_before = len(self.engines)
        self._block(node.body)
        handler_releases = None
        if any(catches_type_error(handler) for handler in node.handlers):
            # try: LLM(new=...) except TypeError: LLM(old=...): each construction runs only where it is accepted.
            from vllm_lint.python.guards import accepting_releases, narrowed

            accepted = accepting_releases(self.engines[engines_before:])
            if accepted is not None:
                for engine in self.engines[engines_before:]:
                    engine.releases = narrowed(engine.releases, accepted[0])
                    engine.guard = engine.guard or f"line {node.lineno}"
                handler_releases = accepted[1]
        self._block(node.orelse)
        outcomes = [] if self._stopped else [self.state]
        touched = self.summary.touched_by_block(node)
        for handler in node.handlers:
            if is_import_error_handler(handler):
                continue  # without vLLM importable, no engine is built
            self.state = start.fork()
            self._stopped = False
            self._forget(touched)
            if handler.name:
                self._bind(handler.name, UNKNOWN)
            if handler_releases is not None and catches_type_error(handler):
                from vllm_lint.python.guards import narrowed

                self._releases = narrowed(saved_guard[0], handler_releases)
                self._guard_line = node.lineno
            self._block(handler.body)
            self._releases, self._guard_line, self._feature_guarded = saved_guard
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
            if (
                elems is not None
                and len(elems) == len(target.elts)
                and not any(isinstance(t, ast.Starred) for t in target.elts)
            ):
                for sub, sub_value in zip(target.elts, elems):
                    self._assign(sub, sub_value, None)
            else:
                for sub in target.elts:
                    self._assign(sub.value if isinstance(sub, ast.Starred) else sub, UNKNOWN, None)
        elif isinstance(target, ast.Subscript):
            self._assign_subscript(target, value, value_node)
        elif isinstance(target, ast.Attribute):
            self._assign_attribute(target, value, value_node)
        elif isinstance(target, ast.Starred):
            self._assign(target.value, UNKNOWN, None)

    def _assign_subscript(self, target: ast.Subscript, value: object, value_node: ast.AST | None = None) -> None:
        if self._is_environ(target.value):
            self._env_set(target.slice, value)
            return
        base = self._eval(target.value)
        key = self._eval(target.slice)
        if isinstance(base, DictObj):
            if isinstance(key, str):
                base.items[key] = Slot(value, self._origin(span_of(target), "subscript", base.alloc, value_node))
            else:
                base.forget()
        elif isinstance(base, ListObj):
            base.forget()
        self._escape(value)

    def _assign_attribute(self, target: ast.Attribute, value: object, value_node: ast.AST | None = None) -> None:
        base_node = target.value
        if isinstance(base_node, ast.Name) and base_node.id == "self" and self.scope.class_node is not None:
            key = (id(self.scope.class_node), target.attr)
            method = getattr(self.scope.node, "name", None)
            self._class_attrs.setdefault(key, []).append((method, value))
            if not self._inline_stack:
                self._method_binds.append((key, len(self._class_attrs[key]) - 1))
            if isinstance(value, (DictObj, ListObj)) or _is_engine_args(value):
                # Followed in this method until another method may run (``self.model_args["k"] = v``);
                # an arguments object nothing changes reaches the engine other methods build from it.
                self.state.names[SELF_SHADOW + target.attr] = value
            elif isinstance(value, (str, int, float, bool, type(None))) and self._set_once_by_init(target.attr):
                # ``self.data_parallel_size = int(dp)`` in the ``__init__`` of an object constructed
                # here: the methods run for it read that value (no other method sets it).
                self.state.names[SELF_SHADOW + target.attr] = value
            elif not (isinstance(value, ObjectArgs) and value.kind == "SamplingParams"):
                self._escape(value)
            return
        base = self._eval(base_node)
        if isinstance(base, ObjectArgs):
            base.slots[target.attr] = Slot(value, self._origin(span_of(target), "attribute", value=value_node))
            if base.kind != "instance":
                self._note_feed(value)  # a dict read by this EngineArgs only: the fixer may edit it
        else:
            self._escape(base)
            self._escape(value)

    def _set_once_by_init(self, attribute: str) -> bool:
        """In the ``__init__`` of an instance being constructed, an attribute no other method of
        the class (or of the module) assigns on ``self``."""
        if not self._instances or getattr(self.scope.node, "name", None) != "__init__":
            return False
        owner = self.scope.class_node
        key = id(owner)
        if key not in self._other_writes:
            written: set[str] = set()
            for item in owner.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name != "__init__":
                    for node in nodes(item):
                        if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
                            written.add(node.attr)
            self._other_writes[key] = written
        return attribute not in self._other_writes[key]

    def _drop_self_shadows(self) -> None:
        for name in [n for n in self.state.names if n.startswith(SELF_SHADOW)]:
            self._escape(self.state.names.pop(name))

    def _forget(self, touched: Touched, kept: dict | None = None) -> None:
        """``kept``: lists only grown at their end, with the number of elements they keep."""
        for name, (value, length) in (kept or {}).items():
            del value.elems[length:]
            if value.spans is not None:
                del value.spans[length:]
            value.exact, value.optional, value.through = False, None, None
        if kept:
            touched = touched.without(set(kept))
        if "self" in touched.names:
            self._drop_self_shadows()
        for attribute in touched.self_attributes:
            if SELF_SHADOW + attribute in self.state.names:
                self._escape(self.state.names.pop(SELF_SHADOW + attribute))
        for name, keys in touched.literal_keys.items():
            current = self.state.names.get(name)
            if name in touched.names:
                continue
            if isinstance(current, DictObj):
                for key in keys:
                    current.items[key] = Slot(UNKNOWN, None)  # may be written, with any value
            elif isinstance(current, (ListObj, ObjectArgs)):
                self._forget(Touched.of_names({name}))
        dotted = [n for n in self.state.names if "." in n and not n.startswith(SELF_SHADOW)] if self._class_constants_read else ()
        for name in dotted:  # a class's constants read through ``Settings.x``
            base, _, attribute = name.partition(".")
            if base in touched.names or base == "self" and attribute.split(".")[0] in touched.self_attributes:
                del self.state.names[name]
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
        memo: dict = {}
        names = {}
        for name in dict.fromkeys(key for state in states for key in state.names):
            values = [s.names.get(name, MISSING) for s in states]
            if name not in _BUILTIN_NAMES and self.scope.kind != "class" and not name.startswith(SELF_SHADOW):
                # A path that leaves the name unbound raises NameError when it is read
                # (``if is_vllm_available(): from vllm import LLM``): only the others count.
                values = [v for v in values if v is not MISSING]
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

    def _join_values(self, values: list[object], memo: dict, depth: int = 0, fresh: bool = False) -> object:
        """``fresh``: the values are new containers no other name holds (the arms of
        ``{} if c else {"k": v}``, what different calls pass): dicts from different places join
        key by key into a new one."""
        first = values[0]
        if any(v is MISSING for v in values) or depth > MAX_DEPTH:
            return UNKNOWN  # too deep to follow: this one value is unknown, not the file
        if all(v is first for v in values):
            return first
        if fresh and all(isinstance(v, DictObj) for v in values) and len({v.alloc for v in values}) > 1:
            joined = DictObj({}, all(v.complete for v in values))
            for key in dict.fromkeys(k for v in values for k in v.items):
                joined.items[key] = self._join_slots(
                    [v.items.get(key) for v in values], [v.complete for v in values], memo, depth + 1, fresh=True
                )
            joined.escaped = any(v.escaped for v in values)
            return joined
        if isinstance(first, DictObj) and all(isinstance(v, DictObj) and v.alloc == first.alloc for v in values):
            if first.alloc in memo:
                return memo[first.alloc]
            joined = DictObj({}, all(v.complete for v in values), first.alloc)
            memo[first.alloc] = joined
            for key in dict.fromkeys(k for v in values for k in v.items):
                joined.items[key] = self._join_slots(
                    [v.items.get(key) for v in values], [v.complete for v in values], memo, depth + 1
                )
            joined.escaped = any(v.escaped for v in values)
            joined.attribute_access = first.attribute_access
            return joined
        if isinstance(first, ObjectArgs) and all(isinstance(v, ObjectArgs) and v.node is first.node for v in values):
            joined = ObjectArgs(first.kind, first.node, first.anchor, {}, any(v.open for v in values), first.env)
            for key in dict.fromkeys(k for v in values for k in v.slots):
                joined.slots[key] = self._join_slots(
                    [v.slots.get(key) for v in values], [not v.open for v in values], memo, depth + 1
                )
            joined.facts = first.facts
            joined.fields = first.fields
            joined.built_at = first.built_at
            return joined
        if isinstance(first, ListObj) and all(
            isinstance(v, ListObj) and v.alloc == first.alloc and len(v.elems) == len(first.elems) for v in values
        ):
            if first.alloc in memo:  # a list that holds itself joins to the list being built
                return memo[first.alloc]
            joined_list = ListObj([], all(v.exact for v in values), first.node, first.alloc)
            memo[first.alloc] = joined_list
            joined_list.elems = [
                self._join_values(list(items), memo, depth + 1) for items in zip(*(v.elems for v in values))
            ]
            flags = [optional_flags(v) for v in values]
            if not joined_list.exact and all(f is not None for f in flags):
                joined_list.optional = [any(column) for column in zip(*flags)]
            return joined_list
        if isinstance(first, ListObj) and all(isinstance(v, ListObj) and v.alloc == first.alloc for v in values):
            return self._join_list_tails(values, memo, depth)
        if all(same_constant(v, first) for v in values):
            return first
        if all(type(v) is type(first) and v == first for v in values) and isinstance(
            first, (VllmClass, VllmModule, StdName, Builtin)
        ):
            return first
        if all(isinstance(v, EngineObj) or v is None for v in values):
            # ``llm = None`` on a path that builds no engine: a request sent through the name
            # raises there, so where one is sent the name holds one of the engines built.
            return join_engine_objects([v for v in values if v is not None])
        if all(isinstance(v, (OneOf, ClassRef, FunctionRef, *IMMUTABLE)) for v in values):
            return OneOf.of([(v, None) for v in values])  # a value per path
        return UNKNOWN

    def _join_list_tails(self, values: list[ListObj], memo: dict, depth: int) -> object:
        """One list grown differently on the paths (``if v is True: argv.append(flag) else:
        argv += [flag, str(v)]``, ``if v is None: continue``): when every path's list is the
        longest one with some of its elements left out at the end, the join is the longest
        list whose elements past the shortest (or absent on some path) may be absent."""
        flags = [optional_flags(v) for v in values]
        if any(f is None for f in flags):
            return UNKNOWN
        longest = max(values, key=lambda v: len(v.elems))
        shortest = min(len(v.elems) for v in values)
        for value in values:
            for mine, theirs in zip(value.elems, longest.elems):
                if not (mine is theirs or same_constant(mine, theirs)):
                    return UNKNOWN
        joined = ListObj([], False, longest.node, longest.alloc)
        memo[longest.alloc] = joined
        joined.elems = list(longest.elems)
        joined.optional = [
            index >= shortest or any(f[index] for f in flags if index < len(f)) for index in range(len(longest.elems))
        ]
        if not any(joined.optional):
            joined.exact, joined.optional = True, None
        spans = [v.spans for v in values if v.spans is not None and len(v.spans) == len(v.elems)]
        if len(spans) == len(values) and longest.spans is not None:
            joined.spans = list(longest.spans)
        return joined

    def _join_slots(
        self, slots: list[Slot | None], complete: list[bool], memo: dict, depth: int = 0, fresh: bool = False
    ) -> Slot:
        """One key of a dict (or field of an object) after a branch: ``None`` where a path did not set it."""
        first = slots[0]
        if first is not None and depth <= MAX_DEPTH and first.value is not MISSING and not isinstance(first.value, OneOf):
            value, origin = first.value, first.origin
            if all(
                slot is not None and slot.value is value and (slot.origin is origin or slot.origin == origin)
                for slot in slots
            ):
                # The same value written in the same place on every path (most keys a branch
                # leaves alone): what the join below makes of it, without its cost.
                return Slot(value, origin)
        present = [slot for slot in slots if slot is not None]
        if any(slot is None and not whole for slot, whole in zip(slots, complete)):
            return Slot(UNKNOWN, None)  # that path's dict may hold the key with any value
        origins = {slot.origin for slot in present}
        if len(origins) == 1:
            value = self._join_values([slot.value for slot in present], memo, depth, fresh)
            options = [(value, None)]
            origin = present[0].origin
        else:
            options = [(slot.value, slot.origin) for slot in present]
            origin = None
        if len(present) < len(slots):
            options.append((ABSENT, None))
        joined = OneOf.of(options)
        return Slot(joined, origin if not isinstance(joined, OneOf) or len(origins) == 1 else None)

    def _escape(self, value: object, seen: set[int] | None = None) -> None:
        """``value`` goes where the analysis cannot follow it (an unknown call, a return, an attribute)."""
        if seen is None:
            seen = set()
        if id(value) in seen:  # a container that holds itself
            return
        seen.add(id(value))
        if isinstance(value, SelfAttribute):
            self._self_escaped.add((value.class_id, value.attr))
            return
        if isinstance(value, OneOf):
            for option, _ in value.options:
                self._escape(option, seen)
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
        if isinstance(value, EachOf):
            self._escape(value.element, seen)
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


_BUILTIN_NAMES = frozenset(dir(builtins))


def _calls_a_parameter(function: ast.AST) -> bool:
    """The function calls what a parameter holds (``factory(**kw)``,
    ``llm_actor_cls.options(...).remote(...)``, ``deployment.bind(...)``, now or later through a
    deferring call: ``lp.CourierNode(actor_cls, ...)``): a class or function its
    callers hand it, maybe one that builds an engine."""
    args = function.args
    parameters = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs} - {"self", "cls"}
    if not parameters:
        return False
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        while isinstance(func, ast.Attribute) and func.attr in ("remote", "bind", "options"):
            func = func.value.func if isinstance(func.value, ast.Call) else func.value
        if isinstance(func, ast.Name) and func.id in parameters:
            return True
        target = spelled_target(node)  # ``lp.CourierNode(actor_cls, ...)``: called later
        if isinstance(target, ast.Name) and target.id in parameters:
            return True
    return False


def _rebound_names(function: ast.AST) -> set[str]:
    """Names a function's body stores to (its parameters among them, when it rebinds them)."""
    stored = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            stored.add(node.id)
    return stored


def _is_engine_args(value: object) -> bool:
    return isinstance(value, ObjectArgs) and value.kind in symbols.ARGS_CONSTRUCTORS


def _opened(original: object, copy_: object) -> bool:
    return isinstance(original, ObjectArgs) and isinstance(copy_, ObjectArgs) and copy_.open and not original.open


def analyze_module(
    tree: ast.Module,
    path: str | None = None,
    project=None,
    max_passes: int = 3,
    watch: dict | None = None,
    bind_callers: bool = False,
) -> ModuleAnalysis:
    """Analyse a module; again while a pass learns what the previous one could not know:
    functions that change module-level values, Ray actors' runtime environments."""
    volatile: set[str] = set()
    ray_envs: dict[int, list] = {}
    summary = ModuleSummary(tree)
    for _ in range(max_passes):
        analysis = ModuleAnalysis(tree, volatile, ray_envs, path, project, summary, watch, bind_callers)
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
