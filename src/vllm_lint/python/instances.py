"""Classes whose methods build engines, evaluated with the caller's arguments.

``Worker(**kw)``, ``Worker.remote(**kw)``, ``ray.remote(Worker).options(...).remote(**kw)``:
the class's ``__init__`` runs with the call's arguments, and what it stores on
``self`` (``self.kwargs = kwargs``) is what its other methods see when they build
the engine (``AsyncEngineArgs(*self.args, **self.kwargs)``).  Methods it calls on
``self`` run with their arguments too.  Engines built this way are reported at
the call, in the caller's file; where the class's own analysis already reports
the same thing, the call adds nothing.

Bounded like every inlined call: two levels, and the per-module budget.
"""

from __future__ import annotations

import ast

import vllm_lint.python.symbols as symbols
from vllm_lint.facts import UNKNOWN, Span, Trace
from vllm_lint.python.summary import is_generator, nodes
from vllm_lint.python.state import MAX_INLINE_DEPTH, SELF_SHADOW, Scope, SelfAttribute, State
from vllm_lint.python.values import ClassRef, FunctionRef


def builds_engine(node: ast.AST) -> bool:
    """The code mentions a vLLM engine or request class (cheap and syntactic).  Kept on the
    node: every pass of the module's analysis asks again for the same methods."""
    known = getattr(node, "_vllm_lint_builds_engine", None)
    if known is None:
        known = _mentions_known_class(node)
        node._vllm_lint_builds_engine = known
    return known


def _mentions_known_class(node: ast.AST) -> bool:
    for child in nodes(node):
        if isinstance(child, ast.Name) and child.id in symbols.KNOWN_CLASSES:
            return True
        if isinstance(child, ast.Attribute) and (child.attr in symbols.KNOWN_CLASSES or child.attr == "from_engine_args"):
            return True
    return False


def methods_of(class_node: ast.ClassDef) -> dict[str, ast.AST]:
    return {
        stmt.name: stmt
        for stmt in class_node.body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
    }


# Bases that define no constructor and no method an engine class relies on.
_EMPTY_BASES = frozenset({"object", "ABC", "Generic", "Protocol"})


class _Instance:
    """One object under construction: its class, and where its attributes are followed.
    ``methods``: its own and the ones it inherits from project classes, the most derived of
    each name; ``lineage``: the class and its project bases, most derived first, each with the
    methods it defines (a method runs in the module of the class that defines it)."""

    def __init__(self, ref: ClassRef, methods: dict[str, ast.AST], lineage: list | None = None) -> None:
        self.ref = ref
        self.methods = methods
        self.lineage = lineage or [(ref, methods)]

    def defining(self, fn: ast.AST) -> ClassRef:
        """The class whose body defines ``fn``."""
        for ref, methods in self.lineage:
            if any(method is fn for method in methods.values()):
                return ref
        return self.ref

    def next_method(self, lexical: ast.ClassDef, name: str) -> ast.AST | None:
        """``super().<name>`` written in ``lexical``: the method of the first class after it in the
        lineage that defines it (None: ``lexical`` is not in the lineage, or no class after it
        defines ``name``)."""
        position = next((i for i, (ref, _) in enumerate(self.lineage) if ref.node is lexical), None)
        if position is None:
            return None
        for _, methods in self.lineage[position + 1 :]:
            if name in methods:
                return methods[name]
        return None


class InstancesMixin:
    """Instantiation of project classes that build vLLM engines."""

    def _imported_base(self, path: str | None, name: str) -> list:
        """A base class another module imported while its analysis could not follow the import."""
        ref = self.project.imported_name(path, name) if path and self.project is not None else None
        if not isinstance(ref, ClassRef) or not ref.path or not isinstance(ref.node, ast.ClassDef):
            return []
        owner = self.project.analysis_of(ref.path)
        return [(owner, ref.node)] if owner is not None else []

    def _engine_class(self, ref: ClassRef) -> _Instance | None:
        """A new object of a class that builds an engine somewhere (in a method of its own or one it
        inherits from a project class), or None."""
        key = id(ref.node)
        if key not in self._engine_classes:
            found = None
            if isinstance(ref.node, ast.ClassDef):
                lineage = self._class_lineage(ref)
                methods: dict[str, ast.AST] = {}
                for _, defined in reversed(lineage):
                    methods.update(defined)
                if any(builds_engine(m) for _, defined in lineage for m in defined.values()):
                    found = (methods, lineage)
            self._engine_classes[key] = found
        found = self._engine_classes[key]
        return _Instance(ref, *found) if found is not None else None

    def _class_lineage(self, ref: ClassRef) -> list[tuple[ClassRef, dict[str, ast.AST]]]:
        """The class and the chain of project classes it derives from (one base each, besides
        ``object``/``ABC``), most derived first; it stops at a base that is not a project class
        or at a class with several bases (``_construct_instance`` then needs an ``__init__``
        of its own)."""
        lineage = [(ref, methods_of(ref.node))]
        owner = self if not ref.path or self.project is None else self.project.analysis_of(ref.path)
        node = ref.node
        while owner is not None and len(lineage) < 8:
            bases = [b for b in node.bases if (b.id if isinstance(b, ast.Name) else getattr(b, "attr", None)) not in _EMPTY_BASES]
            if len(bases) != 1:
                break
            found = owner._base_classes(bases[0])
            if not found and owner is not self and isinstance(bases[0], ast.Name):
                found = self._imported_base(owner.path, bases[0].id)
            if len(found) != 1 or any(found[0][1] is r.node for r, _ in lineage):
                break
            owner, node = found[0]
            lineage.append((ClassRef(node, path=None if owner is self else owner.path), methods_of(node)))
        return lineage

    def _construct_instance(self, ref: ClassRef, call: ast.Call, remote: bool) -> bool:
        """Run ``__init__`` and the engine-building methods of ``ref`` for this call; False if not done."""
        instance = self._engine_class(ref)
        if (
            instance is None
            or len(self._inline_stack) >= MAX_INLINE_DEPTH
            or self._inline_budget <= 0
            or ref.node in self._inline_stack
        ):
            return False
        methods = instance.methods
        init = methods.get("__init__")
        last = instance.lineage[-1][0].node
        if init is None and any(
            (b.id if isinstance(b, ast.Name) else getattr(b, "attr", None)) not in _EMPTY_BASES for b in last.bases
        ):
            return False  # the constructor is inherited from a class we cannot see
        self._inline_budget -= 1
        # An actor runs in its own process: it starts from the module's environment, not the caller's.
        env = self._entry_env(self.module_scope) if remote else (self.state.env, self.state.env_open)
        # The arguments are written here, in the caller: evaluated before the class's code runs.
        bindings = self._bind_arguments(init, call, skip_self=True) if init is not None else None
        if bindings is None:
            self._args_escape(call)
        with self._at_call(call, ref.path):
            self._inline_stack.append(ref.node)
            try:
                shadows: dict[str, object] = {}
                if init is not None:
                    final, _ = self._run_method(instance, init, bindings, {}, env)
                    if final is None:
                        return True  # every path raises: no object, no engine
                    shadows = _shadows_of(final)
                building = {name for _, defined in instance.lineage for name, m in defined.items() if builds_engine(m)}
                for name, method in methods.items():
                    if name != "__init__" and name in building:  # the most derived one runs
                        self._run_method(instance, method, self._unknown_parameters(method), shadows, env)
            finally:
                self._inline_stack.pop()
        return True

    def _run_method(
        self, instance: _Instance, fn: ast.AST, bindings: dict, shadows: dict, env, share: bool = False
    ) -> tuple[State | None, list]:
        """One method of the instance, with ``self``'s attributes as ``shadows`` (the caller's own
        objects when ``share``, else copies); its final state and returns."""
        local, declared = self.summary.locals_of(fn)
        defining = instance.defining(fn)  # an inherited method reads the names of its own module
        scope = Scope("function", fn, self._defining_scope(defining), local, declared, class_node=instance.ref.node)
        names = dict(shadows) if share else _copied(shadows)
        names.update(bindings)
        saved = (self.scope, self.state, self._returns, self._stopped, self._return_states, self._foreign_path)
        if defining is not instance.ref:
            self._foreign_path = defining.path
        self.scope = scope
        self.state = State(names, dict(env[0]), env[1])
        if id(instance.ref.node) in self._known_ray_envs:
            self._apply_ray_env(self._known_ray_envs[id(instance.ref.node)])
        self._returns, self._return_states = [], []
        self._instances.append(instance)
        self._stopped = False
        try:
            final, returns = self._inlined_block(fn)
        finally:
            self._instances.pop()
            self.scope, self.state, self._returns, self._stopped, self._return_states, self._foreign_path = saved
        return final, returns

    def _inlined_block(self, fn: ast.AST) -> tuple[State | None, list]:
        """Run an inlined function's body in the current scope and state; then the closures it
        defined that build engines, over its final state (``async def _init(): from_engine_args(ea)``)."""
        self._nested_defs.append([])
        outer_returns, self._return_states = self._return_states, []
        # A version guard that makes the function return early narrows the rest of the function
        # only: its caller goes on after the call on every release (``if not VLLM_GE: return``).
        guard_context = self._guard_context()
        try:
            self._block(fn.body)
            # What the call leaves: the states at its returns and at its end (None: it always raises).
            ends = list(self._return_states) + ([] if self._stopped else [self.state])
            final = self._join(ends) if ends else None
            returns = list(self._returns) + ([] if self._stopped else [None])
            nested = self._nested_defs[-1]
        finally:
            self._nested_defs.pop()
            self._return_states = outer_returns
            self._releases, self._guard_line, self._feature_guarded = guard_context
        if nested:
            self._run_closures(nested)
        return final, returns

    def _run_closures(self, nested: list[ast.AST]) -> None:
        outer, state = self.scope, self.state
        outer.final = state
        for node in nested:
            local, declared = self.summary.locals_of(node)
            self.scope = Scope("function", node, outer, local, declared, class_node=outer.class_node)
            self.state = State({}, dict(state.env), state.env_open)
            saved = (self._returns, self._stopped, self._return_states)
            self._returns, self._stopped, self._return_states = [], False, []
            self._inline_stack.append(node)
            try:
                self._block(node.body)
            finally:
                self._inline_stack.pop()
                self._returns, self._stopped, self._return_states = saved
        self.scope, self.state = outer, state

    def _self_method_call(self, target: SelfAttribute, call: ast.Call) -> object:
        """``self.setup(...)``: the class's own method runs with its arguments and the attributes
        followed so far (of the instance being constructed, or of this method's ``self``)."""
        instance = self._instances[-1] if self._instances else None
        if instance is None or target.class_id != id(instance.ref.node):
            class_node = self.scope.class_node
            if class_node is None or id(class_node) != target.class_id or not isinstance(class_node, ast.ClassDef):
                return NOT_FOLLOWED
            instance = _Instance(ClassRef(class_node, path=self._foreign_path), methods_of(class_node))
        method = instance.methods.get(target.attr)
        if (method is None or _abstract(method)) and instance.ref.path is None:
            return self._subclass_method_calls(instance, target.attr, call)
        return self._follow_method(instance, method, call)

    def _follow_method(self, instance: _Instance, method: ast.AST | None, call: ast.Call) -> object:
        """A method of the object run for a call on ``self`` (or through ``super()``), over and
        onto ``self``'s followed attributes; NOT_FOLLOWED when it cannot be run here."""
        if (
            method is None
            or _abstract(method)
            or len(self._inline_stack) >= MAX_INLINE_DEPTH + 1
            or method in self._inline_stack
            or self._inline_budget <= 0
        ):
            return NOT_FOLLOWED
        final, returns = self._call_method(instance, method, call, share=True)
        for shadow in [n for n in self.state.names if n.startswith(SELF_SHADOW)]:
            del self.state.names[shadow]
        if final is None:
            self._stopped = True
            return UNKNOWN
        self.state.names.update(_shadows_of(final))
        self.state.env, self.state.env_open = final.env, final.env_open
        if is_generator(method):
            return UNKNOWN
        return self._join_values(returns, {}) if returns else None

    def _super_method_call(self, call: ast.Call) -> object:
        """``super().__init__(...)``, ``super().setup(...)`` in a method: the method of the nearest
        base class of this module that defines it runs with the call's arguments, over ``self``'s
        followed attributes, as ``self.method(...)`` does."""
        lexical = getattr(self.scope.node, "_vllm_lint_class", None)
        current = self.scope.class_node
        if not isinstance(lexical, ast.ClassDef) or not isinstance(current, ast.ClassDef):
            return NOT_FOLLOWED
        if self._instances and self._instances[-1].ref.node is current:
            # An object under construction: the next class of its lineage, in whatever module.
            method = self._instances[-1].next_method(lexical, call.func.attr)
            if method is not None:
                return self._follow_method(self._instances[-1], method, call)
        method = self._base_method(lexical, call.func.attr)
        if method is None:
            return NOT_FOLLOWED
        instance = self._instances[-1] if self._instances else _Instance(ClassRef(current, path=self._foreign_path), methods_of(current))
        return self._follow_method(instance, method, call)

    def _base_method(self, class_node: ast.ClassDef, name: str, depth: int = 0) -> ast.AST | None:
        """The method ``name`` of the first base class of this module, in order and depth first,
        that defines it (None: a base class elsewhere, or none defines it)."""
        if depth > 4:
            return None
        for base in class_node.bases:
            found = [c for owner, c in self._base_classes(base) if owner is self]
            if not found:
                return None  # a base class of another module or package: not followed
            method = methods_of(found[0]).get(name)
            if method is not None:
                return method
            method = self._base_method(found[0], name, depth + 1)
            if method is not None:
                return method
        return None

    def _subclass_method_calls(self, instance: _Instance, name: str, call: ast.Call) -> object:
        """A method the class leaves to its subclasses: each implementation in this module runs."""
        implementations = [
            (subclass, methods_of(subclass)[name])
            for subclass in self.summary.subclasses_of(instance.ref.node)
            if name in methods_of(subclass) and not _abstract(methods_of(subclass)[name])
        ]
        if not implementations or len(self._inline_stack) >= MAX_INLINE_DEPTH + 1 or self._inline_budget <= 0:
            return NOT_FOLLOWED
        for subclass, method in implementations:
            if method in self._inline_stack or self._inline_budget <= 0:
                continue
            self._call_method(_Instance(ClassRef(subclass), methods_of(subclass)), method, call, share=False)
        self._drop_self_shadows()  # what each implementation did to the attributes differs
        return UNKNOWN

    def _call_method(self, instance: _Instance, method: ast.AST, call: ast.Call, share: bool) -> tuple[State | None, list]:
        """``self.<method>(...)`` for ``call``: bound to its arguments, run over ``self``'s followed attributes."""
        self._inline_budget -= 1
        bindings = self._bind_arguments(method, call, skip_self=True)
        self._inline_stack.append(method)
        try:
            with self._at_call(call, None):
                return self._run_method(
                    instance, method, bindings, _shadows_of(self.state), (self.state.env, self.state.env_open), share=share
                )
        finally:
            self._inline_stack.pop()

    def _defining_scope(self, ref: ClassRef | FunctionRef) -> Scope:
        """The scope a class or function of this module, or of another project module, was defined in."""
        scope = getattr(ref, "scope", None)
        if not isinstance(scope, Scope):
            scope = self.project.module_scope(ref.path) if ref.path and self.project else None
        if not isinstance(scope, Scope):
            scope = self.module_scope
        while scope.kind == "class":
            scope = scope.parent
        return scope

    @staticmethod
    def _unknown_parameters(fn: ast.AST) -> dict[str, object]:
        """A method called by code we do not see: every parameter but ``self`` is unknown."""
        args = fn.args
        names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs][1:]
        bound: dict[str, object] = {name: UNKNOWN for name in names}
        if args.vararg:
            bound[args.vararg.arg] = UNKNOWN
        if args.kwarg:
            bound[args.kwarg.arg] = UNKNOWN
        return bound

    def _at_call(self, call: ast.Call, path: str | None):
        return _AtCall(self, call, path)


class _AtCall:
    """While code of a class or another module runs for ``call``: engines are reported at the
    call (the outermost one in the analysed file), and values written in another file say so."""

    def __init__(self, analysis, call: ast.Call, path: str | None) -> None:
        self.analysis = analysis
        self.call = call
        self.path = path

    def __enter__(self) -> None:
        analysis = self.analysis
        self.saved = (analysis._anchor_site, analysis._foreign_path)
        if Trace.active:
            analysis._trace_calls.append(analysis._trace_step("called-from", self.call))
        if analysis._anchor_site is None:
            # No end position: the call is not a constructor a fix could add a keyword to.
            analysis._anchor_site = Span(self.call.lineno, self.call.col_offset)
        if self.path is not None:
            analysis._foreign_path = self.path

    def __exit__(self, *exc) -> None:
        self.analysis._anchor_site, self.analysis._foreign_path = self.saved
        if Trace.active:
            self.analysis._trace_calls.pop()


class _NotFollowed:
    pass


NOT_FOLLOWED = _NotFollowed()


def _abstract(method: ast.AST) -> bool:
    """A method meant to be overridden (``raise NotImplementedError``, ``pass``, ``...``): not followed."""
    body = [s for s in method.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str))]
    if any(isinstance(d, (ast.Name, ast.Attribute)) and getattr(d, "id", getattr(d, "attr", "")) == "abstractmethod" for d in method.decorator_list):
        return True
    return all(
        isinstance(s, ast.Pass)
        or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and s.value.value is Ellipsis)
        or isinstance(s, ast.Raise)
        for s in body
    )


def _shadows_of(state: State) -> dict[str, object]:
    return {name: value for name, value in state.names.items() if name.startswith(SELF_SHADOW)}


def _copied(shadows: dict[str, object]) -> dict[str, object]:
    from vllm_lint.python.values import copy_value

    memo: dict = {}
    return {name: copy_value(value, memo) for name, value in shadows.items()}


