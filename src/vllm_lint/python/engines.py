"""vLLM constructs: engines, EngineArgs and config objects, requests, Ray actors' environments."""

from __future__ import annotations

import ast
import copy
import dataclasses
import os

import vllm_lint.python.symbols as symbols
from vllm_lint.facts import ABSENT, UNKNOWN, EngineFacts, RequestFacts, Trace, join_engines, moved
from vllm_lint.python.state import (
    DATACLASS_DECORATORS,
    ENV_UNSET,
    REQUEST_METHODS,
    RUNNER_ENV_VAR,
    SelfAttribute,
    span_of,
)
from vllm_lint.python.symbols import VllmClass
from vllm_lint.python.values import (
    ClassRef,
    DictObj,
    EngineObj,
    ListObj,
    ObjectArgs,
    PartialObj,
    ProjectModule,
    Slot,
    VllmConfigObj,
    same_constant,
    slot_fact,
)


def join_engine_objects(engines: list[EngineObj]) -> EngineObj:
    if any(engine.facts is None for engine in engines):
        return EngineObj(None)
    return EngineObj(join_engines([engine.facts for engine in engines]))


class EnginesMixin:
    """Turns vLLM constructor calls and requests into EngineFacts and RequestFacts."""

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
        index = 0
        fields_of = None
        for arg in node.args[skip_positional:]:
            if isinstance(arg, ast.Starred):
                value = self._eval(arg.value)
                if isinstance(value, ListObj) and value.exact:  # ``*self.args`` of a known tuple
                    for elem in value.elems:
                        open_ = self._positional_slot(slots, positional_names, index, elem, None) or open_
                        index += 1
                    continue
                self._escape(value)
                if keyword_only_rest:
                    for name in positional_names[index:]:
                        slots[name] = Slot(UNKNOWN, None)
                    break
                open_ = True
                self._opened_by.setdefault(id(node), span_of(arg.value))
                continue
            value = self._eval(arg)
            open_ = self._positional_slot(slots, positional_names, index, value, self._origin(span_of(arg), "positional", value=arg)) or open_
            index += 1
        for keyword in node.keywords:
            value = self._eval(keyword.value)
            if keyword.arg is not None:
                slots[keyword.arg] = Slot(value, self._origin(span_of(keyword), "keyword", value=keyword.value))
                self._note_feed(value)
                continue
            if isinstance(value, DictObj):
                self._feed(value)
                if value.fields_of is not None:
                    fields_of = value.fields_of
                if not value.complete:
                    open_ = True
                    self._opened_by.setdefault(id(node), span_of(keyword.value))
                if Trace.active:
                    step = self._trace_step("splatted", keyword)
                    for key, slot in value.items.items():
                        slots.setdefault(key, Slot(slot.value, moved(slot.origin, step)))
                    continue
                for key, slot in value.items.items():
                    slots.setdefault(key, slot)
            else:
                self._escape(value)
                open_ = True
                self._opened_by.setdefault(id(node), span_of(keyword.value))
        self._splatted_fields_of = fields_of  # read by the constructor that asked
        return open_, slots

    def _positional_slot(self, slots: dict, names: tuple[str, ...], index: int, value: object, origin) -> bool:
        """Bind a positional argument; True when it has no known name (any parameter may get it)."""
        if index < len(names):
            slots[names[index]] = Slot(value, origin)
            return False
        self._escape(value)
        return True

    def _construct(self, kind: str, node: ast.Call, partial: PartialObj | None = None) -> object:
        names = ("model",) if kind in ("LLM", "EngineArgs", "AsyncEngineArgs", "ModelConfig") else ()
        open_, slots = self._call_slots(node, positional_names=names, keyword_only_rest=kind == "LLM")
        if partial is not None:
            open_ = open_ or partial.open
            for key, slot in partial.slots.items():
                slots.setdefault(key, slot)
        # ``LLM(**dataclasses.asdict(engine_args))``: the dict holds every field, so a missing
        # setting is one the arguments object does not write: findings about it point there.
        anchor = self._anchor_site or self._splatted_fields_of or span_of(node)
        if kind == "LLM":
            facts = self._engine_facts("LLM", node, anchor, slots, open_)
            return EngineObj(facts)
        if kind in symbols.ARGS_CONSTRUCTORS or kind in (
            "ModelConfig",
            "ParallelConfig",
            "SpeculativeConfig",
            "SamplingParams",
        ):
            obj = ObjectArgs(kind, node, anchor, slots, open_, (dict(self.state.env), self.state.env_open))
            if self._anchor_site is not None:
                obj.built_at = (self._foreign_path, span_of(node))
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
            if isinstance(args, SelfAttribute):
                engine = EngineObj(None)
                self._pending_self_engines.append((args, engine, (dict(self.state.env), self.state.env_open)))
                return engine
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
            obj = ObjectArgs(
                owner.name, node, self._anchor_site or span_of(node), {}, True, (dict(self.state.env), self.state.env_open)
            )
            self._created_args.setdefault(id(node), copy.deepcopy(obj))
            return obj
        self._args_escape(node)
        return UNKNOWN

    def _resolve_self_engines(self) -> None:
        """``from_engine_args(self.engine_args)`` where the class binds the arguments object once
        and nothing in it changes it or hands it to unknown code: the engine is built from it as
        the method that built it left it, in the environment of the call."""
        for attribute, engine, env in self._pending_self_engines:
            found = self._self_attribute(attribute)
            if isinstance(found, ObjectArgs) and found.kind in symbols.ARGS_CONSTRUCTORS:
                engine.facts = self._finalize_args(found, escaped=False, env=env)

    def _finalize_args(self, obj: ObjectArgs, escaped: bool, env: tuple | None = None) -> EngineFacts | None:
        """The engine an ``EngineArgs`` object builds, as it is now (``env``: the environment it
        is built in, when not the current one)."""
        if obj.facts is not None:
            return obj.facts
        if env is None:
            env = None if escaped else (dict(self.state.env), self.state.env_open)
        facts = self._engine_facts(
            obj.kind, obj.node, obj.anchor, obj.slots, obj.open or escaped, env or obj.env, obj.built_at
        )
        obj.facts = facts
        created = self._created_args.get(id(obj.node))
        if created is not None:
            created.facts = facts
        return facts

    def _engine_facts(self, kind, node, anchor, slots, open_, env=None, built_at=None) -> EngineFacts | None:
        env_map, env_open = env if env is not None else (self.state.env, self.state.env_open)
        facts = EngineFacts(kind=kind, anchor=anchor, open=open_)
        if open_:
            facts.opened_by = self._opened_by.get(id(node))
        if built_at is None and self._anchor_site is not None:
            built_at = (self._foreign_path, span_of(node))
        facts.built_at = built_at
        facts.call_depth = len(self._inline_stack)
        if self._releases is not None:
            facts.releases, facts.guard = self._releases, f"line {self._guard_line}"
        if self._feature_guarded:  # a feature test whose releases are unknown: no argument is judged
            from vllm_lint.checker import ARGUMENT_CODES

            facts.suppressed = facts.suppressed | ARGUMENT_CODES
        if Trace.active and self._trace_calls:
            facts.via = tuple(reversed(self._trace_calls))
        for key, slot in slots.items():
            facts.fields[key] = slot_fact(slot.value, slot.origin)
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

    def _sampling_value(self, method: str, node: ast.Call) -> object | None:
        """Evaluate a request call's arguments; the value of its SamplingParams argument, None if it has none."""
        argument = self._sampling_argument(method, node)
        values = {}
        for arg in node.args:
            if not isinstance(arg, ast.Starred):
                values[id(arg)] = self._eval(arg)
        for keyword in node.keywords:
            values[id(keyword.value)] = self._eval(keyword.value)
        return None if argument is None else values.get(id(argument), UNKNOWN)

    def _request(self, engine: EngineObj, method: str, node: ast.Call) -> None:
        sampling = self._sampling_value(method, node)
        if sampling is None or engine.facts is None:
            return
        if isinstance(sampling, SelfAttribute):
            self._pending_self_requests.append((engine, sampling, self._request_site(method, node)))
            return
        self._record_requests(engine.facts, sampling)

    def _request_site(self, method: str, node: ast.Call) -> tuple[str | None, object]:
        """Where a request that reads ``self``'s attributes is written: the file (None: this one)
        and the span of its sampling-params argument."""
        argument = self._sampling_argument(method, node)
        return self._foreign_path, span_of(argument if argument is not None else node)

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
                request.fields[name] = slot_fact(slot.value, slot.origin)
                if slot.origin is not None:
                    request.written[name] = slot.origin
            self.requests.append(request)

    def _self_request(self, node: ast.Call) -> object:
        sampling = self._sampling_value(node.func.attr, node)
        if sampling is not None and self.scope.class_node is not None:
            engine = SelfAttribute(id(self.scope.class_node), node.func.value.attr)
            self._pending_self_requests.append((engine, sampling, self._request_site(node.func.attr, node)))
        return UNKNOWN

    def _self_attribute(self, value: object) -> object:
        """``self.x`` of a class whose methods (with those of the classes it derives from, in this
        module or another project module) bind ``x`` exactly once.  A value bound in another
        module comes as ``Foreign``."""
        if isinstance(value, SelfAttribute):
            lineage = self._lineage(value.class_id)
            bound = [
                (owner, method_value)
                for owner, class_id, cut in lineage
                for method, method_value in owner._class_attrs.get((class_id, value.attr), [])
                if method not in cut
            ]
            if any(isinstance(b, EngineObj) for _, b in bound):
                bound = [(o, b) for o, b in bound if b is not None]  # ``self.llm = None`` sends no request
            values = [b for _, b in bound]
            if len(values) > 1 and all(isinstance(b, EngineObj) for b in values):
                return join_engine_objects(values)  # built in several places: each is possible
            if len(values) != 1:
                return UNKNOWN
            owner, found = bound[0]
            if isinstance(found, ObjectArgs):
                if any((class_id, value.attr) in o._self_escaped for o, class_id, _ in lineage):
                    return UNKNOWN  # changed or handed to unknown code somewhere in the class
                if owner is not self:
                    return Foreign(found, owner.path) if owner.path else UNKNOWN
            return found
        return value

    def _lineage(self, class_id: int) -> list[tuple[object, int, frozenset]]:
        """A class and the classes it derives from, in this module or in other project modules:
        the methods that may bind ``self``'s attributes for its methods.  Each as (the analysis
        of its module, the class, the methods a class below it overrides without calling the
        overridden one: their bindings never happen on these instances)."""
        start = next((c for c in self.summary.classes if id(c) == class_id), None)
        found: list[tuple[object, int, frozenset]] = [(self, class_id, frozenset())]
        seen = {class_id}
        pending = [(self, start, frozenset())] if start is not None else []
        while pending:
            owner, node, cut = pending.pop(0)
            below = cut | _overridden_without_super(node)
            for base in node.bases:
                for parent_owner, parent in owner._base_classes(base):
                    if id(parent) not in seen and len(found) < 16:
                        seen.add(id(parent))
                        found.append((parent_owner, id(parent), below))
                        pending.append((parent_owner, parent, below))
        return found

    def _base_classes(self, base: ast.AST) -> list[tuple[object, ast.ClassDef]]:
        """The classes a base expression of a class of this module names: one of this module
        (by name), or one imported from another project module (with that module's analysis)."""
        name = base.id if isinstance(base, ast.Name) else getattr(base, "attr", None)
        local = [c for c in self.summary.classes if c.name == name]
        if local:
            return [(self, c) for c in local]
        if self.project is None or self.module_scope.final is None:
            return []
        if isinstance(base, ast.Name):
            ref = self.module_scope.final.names.get(base.id)
        elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
            module = self.module_scope.final.names.get(base.value.id)
            ref = self.project.name(module.path, base.attr) if isinstance(module, ProjectModule) else None
        else:
            ref = None
        if not isinstance(ref, ClassRef) or not ref.path or not isinstance(ref.node, ast.ClassDef):
            return []
        owner = self.project.analysis_of(ref.path)
        return [(owner, ref.node)] if owner is not None else []

    def _resolve_self_requests(self) -> None:
        for engine, sampling, (written_in, span) in self._pending_self_requests:
            engine = self._self_attribute(engine)
            if not isinstance(engine, EngineObj) or engine.facts is None:
                continue
            sampling = self._self_attribute(sampling)
            if isinstance(sampling, Foreign):
                if written_in is None:  # the request is written here: reported here
                    self._record_foreign_request(engine.facts, sampling, span)
                continue
            self._record_requests(engine.facts, sampling)

    def _record_foreign_request(self, engine: EngineFacts, sampling: Foreign, span) -> None:
        """A ``SamplingParams`` another module's class keeps on ``self``, sent by a method of this
        one: reported at the request's argument here, and says where it is built."""
        candidate = sampling.value
        if candidate.kind != "SamplingParams":
            return
        key = (id(candidate.node), id(engine), span)  # one per request written here
        if key in self._request_keys:
            return
        self._request_keys.add(key)
        request = RequestFacts(anchor=span, engine=engine, open=candidate.open)
        shown = os.path.relpath(sampling.path, os.path.dirname(os.path.abspath(self.path))) if self.path else sampling.path
        request.set_in = (shown.replace(os.sep, "/"), candidate.anchor.line)
        for name, slot in candidate.slots.items():
            origin = slot.origin
            if origin is not None and origin.path is None:
                origin = dataclasses.replace(origin, path=sampling.path)
            request.fields[name] = slot_fact(slot.value, origin)
            if origin is not None:
                request.written[name] = origin
        self.requests.append(request)


@dataclasses.dataclass(frozen=True, eq=False)
class Foreign:
    """A ``SamplingParams`` bound on ``self`` by a class of another project module."""

    value: ObjectArgs
    path: str


def _overridden_without_super(node: ast.ClassDef) -> frozenset:
    """The methods a class defines without calling the implementation it overrides
    (``super().__init__(...)``, ``Base.__init__(self, ...)``)."""
    names = set()
    methods = {}
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            methods[stmt.name] = stmt
            if not _calls_overridden(stmt):
                names.add(stmt.name)
    if "__init__" not in methods and _generates_init(node):
        # A dataclass's generated ``__init__`` does not call the base's; ``__post_init__`` may.
        post_init = methods.get("__post_init__")
        if post_init is None or not _calls_overridden(post_init, "__init__"):
            names.add("__init__")
    return frozenset(names)


def _generates_init(node: ast.ClassDef) -> bool:
    """``@dataclass`` (``@dataclasses.dataclass(...)``, attrs' ``@define``...) without ``init=False``."""
    for decorator in node.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        target = call.func if call is not None else decorator
        name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", None)
        if name not in DATACLASS_DECORATORS:
            continue
        if call is not None and any(
            k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False for k in call.keywords
        ):
            return False
        return True
    return False


def _calls_overridden(method: ast.AST, name: str | None = None) -> bool:
    """The method calls the implementation it overrides (or the base's ``name``)."""
    name = name or method.name
    for child in ast.walk(method):
        if isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute) and child.func.attr == name:
            owner = child.func.value
            if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
                return True
            root = owner
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id != "self":
                return True  # ``Base.__init__(self, ...)``, ``nn.Module.__init__(self)``
    return False
