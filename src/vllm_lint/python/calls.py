"""Calls: builtins, the standard library (``os.environ``, ``json``, ``copy``), dict and list
methods, same-module functions (inlined with their arguments) and config-object instances."""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass

import vllm_lint.python.symbols as symbols
from vllm_lint.facts import ABSENT, UNKNOWN, Trace, moved
from vllm_lint.python.summary import is_generator
from vllm_lint.python.state import (
    DATACLASS_DECORATORS,
    DICT_READERS,
    ENV_UNSET,
    FIELD_BASES,
    FIELD_FUNCTIONS,
    LIST_READERS,
    LOGGER_NAMES,
    MAX_INLINE_DEPTH,
    MISSING,
    REQUEST_METHODS,
    BoundMethod,
    Scope,
    SelfAttribute,
    State,
    span_of,
)
from vllm_lint.python.deferred import DEFERRED_CALLS, EXECUTOR, EXECUTOR_CLASSES
from vllm_lint.python.deferred import split as split_deferred, spelled_target
from vllm_lint.python.subprocesses import SUBPROCESS_CALLS
from vllm_lint.python.instances import NOT_FOLLOWED
from vllm_lint.python.symbols import VllmClass
from vllm_lint.python.values import (
    Builtin,
    copy_value,
    ClassRef,
    DictObj,
    EngineObj,
    FunctionRef,
    ListObj,
    DROP,
    ObjectArgs,
    OneOf,
    PartialObj,
    ShellJoined,
    SpaceJoined,
    JoinedText,
    Slot,
    StdName,
    VllmConfigObj,
    concatenated,
    iteration_items,
    joined_spans,
    read_slot,
)


class CallsMixin:
    """Calls the resolver understands; anything else is unknown code that may change its arguments."""

    # ------------------------------------------------------------------ calls

    def _eval_Call(self, node: ast.Call) -> object:
        self._followed_self_call = False
        result = self._call(node)
        if self.scope.class_node is not None and not self._followed_self_call and _may_change_self(node):
            self._drop_self_shadows()  # another method may have changed this object's attributes
        self._followed_self_call = False
        return result

    def _call(self, node: ast.Call) -> object:
        if self._watch:
            target = self._watch.get((node.lineno, node.col_offset))
            if target is not None:
                return self._capture_call(node, *target)
        if _calls_super(node) and self.scope.class_node is not None:
            result = self._super_method_call(node)
            if result is not NOT_FOLLOWED:
                self._followed_self_call = True
                return result
        self._mark_consumed_at_once([*node.args, *(keyword.value for keyword in node.keywords)])
        func = self._eval(node.func)
        if isinstance(func, VllmClass):
            return self._construct(func.name, node)
        if isinstance(func, symbols.VllmModule) and func.path.rsplit(".", 1)[-1] in symbols.ENGINE_ARGS_FUNCTIONS and node.args:
            return self._engine_from_args_function(node)
        if isinstance(func, PartialObj):
            return self._construct(func.target.name, node, func)
        if isinstance(func, BoundMethod):
            return self._method_call(func, node)
        if isinstance(func, SelfAttribute):
            result = self._self_method_call(func, node)
            if result is not NOT_FOLLOWED:
                self._followed_self_call = True
                return result
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
            if (
                isinstance(owner, ast.Attribute)
                and owner.attr == "self"
                or (
                    isinstance(owner, ast.Attribute)
                    and isinstance(owner.value, ast.Name)
                    and owner.value.id == "self"
                    and node.func.attr in REQUEST_METHODS
                )
            ):
                return self._self_request(node)
        if isinstance(func, FunctionRef):
            result = self._inline_call(func, node)
            if result is not NOT_INLINED:
                return result
            if self.scope.kind == "module":
                self._forget_volatile()
        if isinstance(func, ClassRef):
            if self._construct_instance(func, node, remote=False):
                return UNKNOWN
            return self._instantiate(func, node)
        if self.scope.kind == "class" and call_name(node.func) in FIELD_FUNCTIONS:
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
            return NOT_INLINED
        self._inline_budget -= 1
        # The arguments are written here: evaluated before the function's code runs (in its own file).
        bindings = self._bind_arguments(fn, node)
        # A call in the module body runs now: the function reads the module's names as they are.
        at_module = self.scope is self.module_scope and self.module_scope.final is None
        if at_module:
            self._module_live = self.state
        try:
            if func.path is not None:
                with self._at_call(node, func.path):
                    return self._inline_body(func, fn, bindings)
            if Trace.active:
                self._trace_calls.append(self._trace_step("called-from", node))
                try:
                    return self._inline_body(func, fn, bindings)
                finally:
                    self._trace_calls.pop()
            return self._inline_body(func, fn, bindings)
        finally:
            if at_module:
                module_state, self._module_live = self._module_live, None
                declared = self.summary.locals_of(fn)[1]
                for name in declared:  # ``global X`` in the function: whatever it did to X
                    module_state.names[name] = UNKNOWN

    def _capture_call(self, node: ast.Call, function: ast.AST, method: bool) -> object:
        """A call another module's function asks about (``callers.py``): what it passes, kept as
        it is now; the call itself is not followed.  Evaluations in the function's own analysis
        win over those made while it ran for one of its callers, which they include.  A deferring
        call (``Process(target=f, args=...)``, ``deferred.py``) passes what the call it makes does;
        one only spelled like it (another library's ``submit``) is not a call of the function:
        nothing is kept, and the function's parameters stay unknown."""
        if spelled_target(node) is not None:
            func = self._eval(node.func)
            spec = DEFERRED_CALLS.get(func.path) if isinstance(func, StdName) else None
            deferral = split_deferred(spec, node) if spec is not None else None
            if deferral is None:
                self._args_escape(node)
                return UNKNOWN
            node = deferral.call
        bound = self._bind_arguments(function, node, skip_self=method, fill_defaults=False)
        snapshot = {name: copy_value(value, {}) for name, value in bound.items()}
        key = (node.lineno, node.col_offset)
        if self._inline_stack:
            self._watched_inlined.setdefault(key, []).append(snapshot)
            if key not in self.watched or key in self._watched_joined:
                self._watched_joined.add(key)
                self.watched[key] = self._joined_bindings(self._watched_inlined[key])
        else:
            standalone = self._watched_standalone.setdefault(key, [])
            standalone.append(snapshot)
            self._watched_joined.discard(key)
            self.watched[key] = self._joined_bindings(standalone)
        for value in bound.values():
            self._escape(value)
        return UNKNOWN

    def _joined_bindings(self, evaluations: list[dict]) -> dict:
        if len(evaluations) == 1:
            return evaluations[0]
        names = dict.fromkeys(name for evaluation in evaluations for name in evaluation)
        joined = {}
        for name in names:
            values = [evaluation.get(name, MISSING) for evaluation in evaluations]
            joined[name] = MISSING if all(v is MISSING for v in values) else self._join_values(
                [UNKNOWN if v is MISSING else v for v in values], {}
            )
        return joined

    def _inline_body(self, func: FunctionRef, fn: ast.AST, bindings: dict[str, object]) -> object:
        local, declared = self.summary.locals_of(fn)
        parent = func.scope if isinstance(func.scope, Scope) else self.module_scope
        while parent.kind == "class":
            parent = parent.parent
        scope = Scope("function", fn, parent, local, declared)
        saved = (self.scope, self.state, self._returns, self._return_states)
        self.scope = scope
        self.state = State(bindings, self.state.env, self.state.env_open)
        self._returns, self._return_states = [], []
        self._inline_stack.append(fn)
        stopped = self._stopped
        self._stopped = False
        try:
            _, returns = self._inlined_block(fn)  # a fall off the end returns None
            env, env_open = self.state.env, self.state.env_open
        finally:
            self._inline_stack.pop()
            self._stopped = stopped
            self.scope, self.state, self._returns, self._return_states = saved
        self.state.env, self.state.env_open = env, env_open
        if is_generator(fn):
            return UNKNOWN
        return self._join_values(returns, {}) if returns else None

    def _bind_arguments(
        self, fn: ast.AST, call: ast.Call, skip_self: bool = False, fill_defaults: bool = True
    ) -> dict[str, object]:
        """``fill_defaults=False``: a parameter the call leaves to its default is ``MISSING`` (the
        default is evaluated where the function is written)."""
        args = fn.args
        positional_names = [a.arg for a in args.posonlyargs + args.args][1 if skip_self else 0 :]
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
                    extra.items[keyword.arg] = Slot(
                        value, self._origin(span_of(keyword), "call-keyword", extra.alloc, keyword.value)
                    )
                continue
            if isinstance(value, DictObj):
                self._feed(value)
                keywords_open = keywords_open or not value.complete
                step = self._trace_step("splatted", keyword) if Trace.active else None
                for key, slot in value.items.items():
                    if key in positional_names or key in keyword_names:
                        bound[key] = read_slot(slot, UNKNOWN)
                    else:
                        extra.items[key] = slot if step is None else Slot(slot.value, moved(slot.origin, step))
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
            elif not fill_defaults:
                bound[name] = MISSING
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
        info = ref.info or self._classes.get(id(ref.node))
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
        instance = ObjectArgs("instance", node, span_of(node), slots, open_)
        instance.fields = info.fields
        return instance

    def _field_default(self, node: ast.Call) -> object:
        """``dataclasses.field(default=...)``, pydantic ``Field(default, ...)``, attrs ``field(default=...)``."""
        for keyword in node.keywords:
            if keyword.arg == "default":
                return self._eval(keyword.value)
        if node.args and call_name(node.func) == "Field" and not isinstance(node.args[0], ast.Starred):
            value = self._eval(node.args[0])
            return UNKNOWN if value is Ellipsis else value
        return UNKNOWN

    def _args_read(self, node: ast.Call) -> None:
        for arg in node.args:
            self._eval(arg.value if isinstance(arg, ast.Starred) else arg)
        for keyword in node.keywords:
            self._eval(keyword.value)

    def _args_escape(self, node: ast.Call) -> None:
        """The arguments go to code we cannot see: it may change any container it is given."""
        given = [(self._eval(arg.value), False) if isinstance(arg, ast.Starred) else (self._eval(arg), True) for arg in node.args]
        given += [(self._eval(k.value), k.arg is not None) for k in node.keywords]
        for value, whole in given:
            self._escape(value)
            if whole and isinstance(value, ListObj):
                value.forget()  # ``configure(flags)`` may add or remove flags (``*flags`` passes a copy)

    def _forget_volatile(self) -> None:
        for name in self._volatile:
            if name in self.state.names:
                self.state.names[name] = UNKNOWN
        if self._volatile_env:
            self.state.env = {}
            self.state.env_open = True

    def _fields_view(self, obj: object, node: ast.AST) -> object:
        """``obj.__dict__`` or ``vars(obj)`` of vLLM's ``EngineArgs``: its own attribute dict,
        which holds its fields as ``dataclasses.asdict`` does (``LLM(**vars(engine_args))``, as
        vLLM's benchmarks build engines).  It is a live view of the object: read as a copy only
        where it is consumed at once (spread into a call or a dict, or handed to a call) or the
        object is a temporary nothing else holds; elsewhere a later change on either side would
        be missed, so the object is handed over (unknown from then on).  Other instances stay
        unknown: with slots (attrs' default, ``NamedTuple``) they have no ``__dict__``, and a
        plain class's attributes are not in it."""
        known = isinstance(obj, ObjectArgs) and obj.kind in symbols.ARGS_CONSTRUCTORS
        fields = as_dict(obj) if known else UNKNOWN
        if fields is not UNKNOWN and (id(node) in self._consumed_at_once or _temporary(node)):
            return fields
        self._escape(obj)
        return UNKNOWN

    def _mark_consumed_at_once(self, values: list) -> None:
        for value in values:
            if is_fields_view(value):
                self._consumed_at_once.add(id(value))

    def _builtin_call(self, name: str, node: ast.Call) -> object:
        if name == "vars" and is_fields_view(node):
            return self._fields_view(self._eval(node.args[0]), node)
        if name == "dict":
            result = DictObj()
            sources = []
            for arg in node.args:
                sources.append(UNKNOWN if isinstance(arg, ast.Starred) else self._eval(arg))
            self._dict_update(result, sources, [], None)
            self._dict_call_keywords(result, node.keywords)
            return result
        if name in ("list", "tuple") and len(node.args) == 1 and not node.keywords:
            value = self._eval(node.args[0])
            if isinstance(value, ListObj):
                return ListObj(list(value.elems), value.exact)
            return UNKNOWN
        if name in ("setattr", "getattr") and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args):
            return self._attribute_builtin(name, node)
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            self._args_read(node)
            return UNKNOWN
        args = [self._eval(a) for a in node.args]
        return _pure_builtin(name, args)

    def _dict_call_keywords(self, result: DictObj, keywords: list[ast.keyword]) -> None:
        """``dict(..., k=v, **more)``: a key given twice is a TypeError, so an unknown ``**more``
        cannot change the keywords written; it may change what the positional mapping gave."""
        explicit = {k.arg for k in keywords if k.arg is not None}
        for keyword in keywords:
            value = self._eval(keyword.value)
            if keyword.arg is not None:
                result.items[keyword.arg] = Slot(value, self._origin(span_of(keyword), "call-keyword", result.alloc, keyword.value))
                self._note_feed(value)
                continue
            if isinstance(value, DictObj):
                self._feed(value)
                result.items.update(value.items)
                known = value.complete
            else:
                self._escape(value)
                known = False
            if not known:
                result.items = {k: s for k, s in result.items.items() if k in explicit or k in getattr(value, "items", {})}
                result.complete = False

    def _attribute_builtin(self, name: str, node: ast.Call) -> object:
        """``setattr(args, "k", v)`` / ``getattr(cfg, "k", default)`` with a known attribute name."""
        args = [self._eval(a) for a in node.args]
        if len(args) < 2:
            return UNKNOWN
        target, attr = args[0], args[1]
        if name == "getattr":
            if isinstance(target, ObjectArgs) and isinstance(attr, str) and attr in target.slots:
                return read_slot(target.slots[attr], UNKNOWN)
            return UNKNOWN
        value = args[2] if len(args) > 2 else UNKNOWN
        if isinstance(target, ObjectArgs) and isinstance(attr, str):
            target.slots[attr] = Slot(value, self._origin(span_of(node), "call"))
            self._escape(value) if target.kind == "instance" else self._note_feed(value)
            return None
        self._escape(target)
        self._escape(value)
        return None
        self._args_read(node)
        return UNKNOWN

    def _std_call(self, path: str, node: ast.Call) -> object:
        if path in SUBPROCESS_CALLS:  # a server started with an argv: the command-line front end reads it
            from vllm_lint.python.subprocesses import subprocess_call

            return subprocess_call(self, path, node)
        if path in (
            "os.environ.update",
            "os.environ.setdefault",
            "os.environ.pop",
            "os.environ.clear",
            "os.environ.get",
        ):
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
                    return from_json(json.loads(text))
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
                return omegaconf_copy(value, {})
            self._escape(value)
            return UNKNOWN
        if path == "ray.remote" and len(node.args) == 1 and not node.keywords:
            target = self._eval(node.args[0])
            if isinstance(target, ClassRef):
                return target  # ray.remote(Actor): the actor class, whose .options() we follow
            self._escape(target)
            return UNKNOWN
        if path == "ray.remote" and not node.args and not any(k.arg in (None, "runtime_env") for k in node.keywords):
            # ``ray.remote(num_gpus=1)``: the decorator, applied to a class next (``(Actor)``).
            self._args_read(node)
            return StdName("ray.remote")
        if path == "ray.runtime_env.RuntimeEnv":
            result = DictObj()
            self._dict_update(result, [], node.keywords, node)
            return result
        if path == "shlex.join" and len(node.args) == 1 and not node.keywords:
            argv = self._eval(node.args[0])
            if isinstance(argv, ListObj):
                return ShellJoined(argv)  # each element quoted: the shell splits it back into the list
            return UNKNOWN
        if path == "typing.cast" and len(node.args) == 2 and not node.keywords:
            # A hint for type checkers: the value itself, unchanged.
            self._eval(node.args[0])
            return self._eval(node.args[1])
        if path == "dataclasses.asdict" and len(node.args) == 1 and not node.keywords:
            return as_dict(self._eval(node.args[0]))
        if path in DEFERRED_CALLS:
            return self._deferred_call(DEFERRED_CALLS[path], node)
        if path in EXECUTOR_CLASSES or path == "multiprocessing.get_context":
            # The executor whose ``submit`` defers a call; a context whose ``Process`` is the module's.
            self._args_read(node)
            return StdName(EXECUTOR if path in EXECUTOR_CLASSES else "multiprocessing")
        if path == "functools.partial" and node.args:
            target = self._eval(node.args[0])
            if isinstance(target, VllmClass) and target.name in symbols.ENGINE_CONSTRUCTORS | symbols.ARGS_CONSTRUCTORS:
                partial = PartialObj(target)
                open_, slots = self._call_slots(node, skip_positional=1)
                partial.slots, partial.open = slots, open_
                return partial
        self._args_escape(node)
        return UNKNOWN

    def _deferred_call(self, spec, node: ast.Call) -> object:
        """``lp.CourierNode(Actor, *args)``, ``Process(target=serve, args=(...))``,
        ``executor.submit(build, cfg)`` (``deferred.py``): the call it makes later runs as a direct
        call would, with the arguments written here."""
        deferral = split_deferred(spec, node)
        if deferral is None:
            self._args_escape(node)
            return UNKNOWN
        for own in deferral.own:
            self._eval(own)
        target = self._eval(deferral.target)
        call = deferral.call
        options = [option for option, _ in target.options] if isinstance(target, OneOf) else [target]
        classes = options if all(isinstance(option, ClassRef) for option in options) else []
        if classes:
            # A node or process of its own: __init__ starts from the module's environment.
            if not all([self._construct_instance(ref, call, remote=True) for ref in classes]):
                self._args_escape(call)
        elif isinstance(target, FunctionRef):
            if self._inline_call(target, call) is NOT_INLINED:
                self._args_escape(call)
        else:
            self._escape(target)
            self._args_escape(call)
        return UNKNOWN  # a node, a process, a thread, a future

    def _engine_from_args_function(self, node: ast.Call) -> object:
        """``build_async_engine_client_from_engine_args(args)``: vLLM builds the engine from the
        object as it is now (its client is not followed further)."""
        args = self._eval(node.args[0])
        for extra in node.args[1:]:
            self._eval(extra)
        for keyword in node.keywords:
            self._eval(keyword.value)
        if isinstance(args, ObjectArgs) and args.kind in symbols.ARGS_CONSTRUCTORS:
            self._finalize_args(args, escaped=False)
        else:
            self._escape(args)
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

    def _dict_update(
        self, target: DictObj, sources: list[object], keywords: list[ast.keyword], node, kind: str = "call-keyword"
    ) -> None:
        for source in sources:
            if isinstance(source, DictObj):
                self._feed(source)
                target.fields_of = target.fields_of or source.fields_of  # {**asdict(args), "seed": 0}
                if not source.complete:
                    # Keys we have not seen may override everything written so far.
                    target.items = {}
                    target.complete = False
                step = self._trace_step("merged", node) if Trace.active and hasattr(node, "lineno") else None
                for key, slot in source.items.items():
                    if step is not None:
                        slot = Slot(slot.value, moved(slot.origin, step))
                    earlier = target.items.get(key)
                    if earlier is not None and _maybe_absent(slot.value):
                        # A key the source may lack leaves the earlier value on those paths.
                        joined = OneOf.of([*_present_options(slot.value), (earlier.value, earlier.origin)])
                        slot = Slot(joined, slot.origin or earlier.origin)
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
                target.items[keyword.arg] = Slot(value, self._origin(span_of(keyword), kind, target.alloc, keyword.value))
                self._note_feed(value)

    def _method_call(self, bound: BoundMethod, node: ast.Call) -> object:
        owner, name = bound.owner, bound.name
        if isinstance(owner, str):
            return self._str_method(owner, name, node)
        if isinstance(owner, DictObj):
            return self._dict_method(owner, name, node)
        if isinstance(owner, ListObj):
            return self._list_method(owner, name, node)
        if isinstance(owner, VllmClass):
            return self._class_method(owner, name, node)
        if isinstance(owner, OneOf):  # one of several classes (expressions._classes)
            classes = [option for option, _ in owner.options]
            if name in ("remote", "bind"):
                followed = [self._construct_instance(ref, node, remote=True) for ref in classes]
                if not all(followed):
                    self._args_escape(node)
                return UNKNOWN
            for ref in classes:
                if any(k.arg == "runtime_env" for k in node.keywords):
                    self._record_ray_env(ref.node, self._runtime_env_keyword(node))
            self._args_read(node)
            return owner
        if isinstance(owner, FunctionRef) and name == "remote" and _ray_task(owner.node):
            # A Ray task: the function runs, in a worker, with these arguments.
            result = self._inline_call(owner, node)
            if result is NOT_INLINED:
                self._args_escape(node)
            return UNKNOWN  # an object reference
        if isinstance(owner, ClassRef) and name in ("remote", "bind"):
            # A Ray actor, or a Ray Serve deployment's replica: __init__ runs in its own process.
            if not self._construct_instance(owner, node, remote=True):
                self._args_escape(node)
            return UNKNOWN  # an actor handle
        if isinstance(owner, ClassRef) and name == "options":
            if any(k.arg == "runtime_env" for k in node.keywords):
                self._record_ray_env(owner.node, self._runtime_env_keyword(node))
            else:
                self._args_read(node)
            return owner
        if isinstance(owner, ObjectArgs) and name == "create_engine_config":
            # vLLM validates the configuration here, before any engine class is chosen.
            self._args_read(node)
            return VllmConfigObj(self._finalize_args(owner, escaped=False))
        if isinstance(owner, EngineObj):
            if name in REQUEST_METHODS:
                self._request(owner, name, node)
            else:
                self._args_escape(node)
            return UNKNOWN
        self._args_escape(node)
        return UNKNOWN

    def _str_method(self, text: str, name: str, node: ast.Call) -> object:
        """Pure string methods on known arguments (flag names built from keys: ``k.replace("_", "-")``)."""
        args = [self._eval(a) for a in node.args if not isinstance(a, ast.Starred)]
        for keyword in node.keywords:
            self._eval(keyword.value)
        if node.keywords or len(args) != len(node.args):
            return UNKNOWN
        if name == "join":
            argv = args[0] if len(args) == 1 and isinstance(args[0], ListObj) else None
            items = argv.elems if argv is not None and argv.exact else None
            if items is not None and all(isinstance(item, str) for item in items):
                if text.isspace():
                    return JoinedText(text.join(items), _snapshot(argv))
                return text.join(items)
            if argv is not None and text.isspace():
                return SpaceJoined(_snapshot(argv))  # `" ".join(cmd)` run by a shell: its words
            return UNKNOWN
        if not all(isinstance(arg, (str, int)) and not isinstance(arg, bool) for arg in args):
            return UNKNOWN
        try:
            result = getattr(text, name)(*args)
        except (TypeError, ValueError):
            return UNKNOWN
        if isinstance(result, list):
            return ListObj(result)
        return result if isinstance(result, (str, bool, int)) else UNKNOWN

    def _dict_method(self, target: DictObj, name: str, node: ast.Call) -> object:
        args = [UNKNOWN if isinstance(a, ast.Starred) else self._eval(a) for a in node.args]
        if name == "update":
            self._dict_update(target, args, node.keywords, node)
            return None
        if name == "setdefault" and args and isinstance(args[0], str):
            default = args[1] if len(args) > 1 else None
            origin = self._origin(span_of(node), "call", target.alloc)
            slot = target.items.get(args[0])
            if slot is not None:
                if isinstance(slot.value, OneOf):  # set on some paths: the default on the others
                    target.items[args[0]] = Slot(slot.value.read(default, origin), None)
                return read_slot(target.items[args[0]])
            if not target.complete:
                target.items.pop(args[0], None)
                return UNKNOWN
            target.items[args[0]] = Slot(default, origin)
            return default
        if name == "pop" and args and isinstance(args[0], str):
            slot = target.items.pop(args[0], None)
            default = args[1] if len(args) > 1 else DROP
            if slot is not None:
                return read_slot(slot, default)
            if target.complete and default is not DROP:
                return default
            return UNKNOWN
        if name == "get" and args and isinstance(args[0], str):
            slot = target.items.get(args[0])
            default = args[1] if len(args) > 1 else None
            if slot is not None:
                return read_slot(slot, default)
            if target.complete:
                return default
            return UNKNOWN
        if name == "copy" and not args:
            result = DictObj()
            self._dict_update(result, [target], [], node)
            return result
        if name == "clear":
            target.items, target.complete = {}, True
            return None
        if name in ("items", "keys", "values") and not args and iteration_items(target) is not None:
            if name == "keys":
                return ListObj(list(target.items))
            if name == "values":
                return ListObj([slot.value for slot in target.items.values()])
            return ListObj([ListObj([key, slot.value]) for key, slot in target.items.items()])
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
                target.spans.append(self._element_span(node.args[0]))
            else:
                target.spans = None
            if target.optional is not None:
                target.optional.append(False)
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
            target.exact, target.optional = concatenated(target, value)
            target.elems.extend(value.elems)
        else:
            target.exact = False
            target.optional = None


def _calls_super(node: ast.Call) -> bool:
    """``super().name(...)`` (or ``super(Cls, self).name(...)``)."""
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Call)
        and isinstance(func.value.func, ast.Name)
        and func.value.func.id == "super"
    )


def _may_change_self(node: ast.Call) -> bool:
    """A call of one of this object's methods (``self.setup()``, ``super().__init__()``), or one given ``self``."""
    func = node.func
    if isinstance(func, ast.Attribute):
        owner = func.value
        if isinstance(owner, ast.Name) and owner.id == "self":
            return True
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
            return True
    arguments = [a.value if isinstance(a, ast.Starred) else a for a in node.args] + [k.value for k in node.keywords]
    return any(isinstance(a, ast.Name) and a.id == "self" for a in arguments)


_TYPES = {"bool": bool, "int": int, "float": float, "str": str, "dict": DictObj, "list": ListObj, "tuple": ListObj}


def _pure_builtin(name: str, args: list) -> object:
    """``str``/``int``/``bool``/``len``/``isinstance``/``hasattr`` of known values; UNKNOWN otherwise."""
    constant = len(args) == 1 and isinstance(args[0], (str, int, float, bool, type(None)))
    if name in ("str", "repr") and constant:
        return str(args[0]) if name == "str" else repr(args[0])
    if name == "bool" and len(args) == 1:
        return truthiness_of(args[0])
    if name in ("int", "float") and constant and not isinstance(args[0], type(None)):
        try:
            return int(args[0]) if name == "int" else float(args[0])
        except (TypeError, ValueError, OverflowError):
            return UNKNOWN
    if name == "len" and len(args) == 1:
        value = args[0]
        if isinstance(value, str):
            return len(value)
        items = iteration_items(value)
        return len(items) if items is not None else UNKNOWN
    if name == "hasattr" and len(args) == 2 and isinstance(args[1], str):
        # A renderer's ``hasattr(value, "model_dump")``: a constant or a plain dict has only its
        # type's attributes.
        value = args[0]
        if isinstance(value, (str, int, float, bool, type(None))):
            return hasattr(value, args[1])
        if isinstance(value, DictObj) and not value.attribute_access:
            return hasattr({}, args[1])
        return UNKNOWN
    if name == "isinstance" and len(args) == 2:
        value, kinds = args
        kinds = kinds.elems if isinstance(kinds, ListObj) and kinds.exact else [kinds]
        if not all(isinstance(k, Builtin) and k.name in _TYPES for k in kinds):
            return UNKNOWN
        if isinstance(value, (EngineObj, VllmConfigObj)) or (isinstance(value, ObjectArgs) and value.kind != "instance"):
            return False  # a vLLM object is none of the built-in types
        if not isinstance(value, (str, int, float, bool, type(None), DictObj)):
            return UNKNOWN  # a ListObj may be a list or a tuple
        return any(isinstance(value, _TYPES[k.name]) for k in kinds)
    return UNKNOWN


def truthiness_of(value: object) -> object:
    if isinstance(value, (str, int, float, bool, type(None))):
        return bool(value)
    if isinstance(value, DictObj) and value.items and not any(isinstance(s.value, OneOf) for s in value.items.values()):
        return True
    if isinstance(value, DictObj) and not value.items and value.complete:
        return False
    return UNKNOWN


def _maybe_absent(value: object) -> bool:
    return isinstance(value, OneOf) and any(option is ABSENT for option, _ in value.options)


def _present_options(value: OneOf) -> list[tuple[object, object]]:
    return [(option, origin) for option, origin in value.options if option is not ABSENT]


def is_fields_view(node: ast.AST) -> bool:
    """``x.__dict__`` or ``vars(x)`` (by that spelling)."""
    if isinstance(node, ast.Attribute):
        return node.attr == "__dict__"
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "vars"
        and len(node.args) == 1
        and not node.keywords
    )


def _temporary(node: ast.AST) -> bool:
    """The view is of an object built in the same expression (``AsyncEngineArgs(...).__dict__``)."""
    target = node.value if isinstance(node, ast.Attribute) else node.args[0] if isinstance(node, ast.Call) else None
    return isinstance(target, ast.Call)


def as_dict(value: object, depth: int = 0) -> object:
    """``dataclasses.asdict`` of an instance whose fields are known (nested instances too), or
    of vLLM's ``EngineArgs`` (``LLM(**dataclasses.asdict(engine_args))``, as vLLM's examples
    build engines): the fields written, each a copy; a field not written holds the default the
    engine would take for it anyway."""
    if isinstance(value, ObjectArgs) and value.kind in symbols.ARGS_CONSTRUCTORS:
        memo: dict = {}
        copied = {key: Slot(copy_value(slot.value, memo), slot.origin) for key, slot in value.slots.items()}
        result = DictObj(copied, complete=not value.open)
        if value.built_at is None:
            result.fields_of = value.anchor
        return result
    if not isinstance(value, ObjectArgs) or value.kind != "instance" or value.fields is None or depth > 8:
        return UNKNOWN
    result = DictObj({}, complete=not value.open)
    for name in value.fields:
        slot = value.slots.get(name)
        if slot is None:
            result.items[name] = Slot(UNKNOWN, None)
            continue
        inner = read_slot(slot, UNKNOWN)
        if isinstance(inner, ObjectArgs):
            inner = as_dict(inner, depth + 1)
        elif isinstance(inner, (DictObj, ListObj)):
            inner = UNKNOWN  # asdict copies containers deeply: not tracked
        result.items[name] = Slot(inner, slot.origin)
    return result


def from_json(value: object) -> object:
    if isinstance(value, dict):
        result = DictObj()
        for key, inner in value.items():
            result.items[str(key)] = Slot(from_json(inner), None)
        return result
    if isinstance(value, list):
        return ListObj([from_json(v) for v in value])
    return value


def _ray_task(fn: ast.AST) -> bool:
    """Decorated with ``@ray.remote`` or ``@ray.remote(...)`` (by that spelling)."""
    for decorator in getattr(fn, "decorator_list", ()):
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr == "remote" and isinstance(target.value, ast.Name):
            return True
    return False


class NotInlined:
    pass


NOT_INLINED = NotInlined()


def call_name(func: ast.AST) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


@dataclass
class ClassInfo:
    defaults: dict[str, object]
    fields: list[str] | None  # constructor fields, for dataclass-like classes
    assigned_in_methods: set[str]
    open: bool  # attributes may come from a base class we cannot see


def class_info(node: ast.ClassDef, final: State, assigned: set[str]) -> ClassInfo:
    decorators = {call_name(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list}
    bases = {call_name(b) for b in node.bases}
    dataclass_like = bool(decorators & DATACLASS_DECORATORS) or bool(bases & FIELD_BASES)
    fields = None
    if dataclass_like:
        fields = [
            stmt.target.id
            for stmt in node.body
            if isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and not (isinstance(stmt.annotation, ast.Subscript) and call_name(stmt.annotation.value) == "ClassVar")
        ]
    defaults = {
        name: value
        for name, value in final.names.items()
        if not isinstance(value, (FunctionRef, ClassRef)) and value is not UNKNOWN
    }
    known_bases = bases <= (FIELD_BASES | {"object"})
    return ClassInfo(defaults, fields, assigned, open=not known_bases)


def omegaconf_copy(value: DictObj, memo: dict) -> DictObj:
    """``OmegaConf.create(dict)``: a copy whose keys are also attributes, at every level."""
    if id(value) in memo:
        return memo[id(value)]
    result = DictObj({}, value.complete)
    memo[id(value)] = result
    result.attribute_access = True
    for key, slot in value.items.items():
        inner = omegaconf_copy(slot.value, memo) if isinstance(slot.value, DictObj) else slot.value
        result.items[key] = Slot(inner, slot.origin)
    return result


def _snapshot(argv: ListObj) -> ListObj:
    """The list as it is when joined: later changes to it do not reach the joined text."""
    copy = ListObj(list(argv.elems), argv.exact, argv.node)
    copy.spans = list(argv.spans) if argv.spans is not None else None
    copy.optional = list(argv.optional) if argv.optional is not None else None
    copy.through = argv.through
    return copy
