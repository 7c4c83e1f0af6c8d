"""Evaluating expressions over abstract values."""

from __future__ import annotations

import ast

import vllm_lint.python.symbols as symbols
from vllm_lint.facts import ABSENT, UNKNOWN, Origin, Span, Trace
from vllm_lint.python.state import (
    _DICT_METHODS,
    MAX_DEPTH,
    MISSING,
    MAX_UNROLLED_ITEMS,
    SELF_SHADOW,
    PURE_BUILTINS,
    STD_MODULES,
    STR_METHODS,
    BoundMethod,
    SelfAttribute,
    span_of,
)
from vllm_lint.python.instances import builds_engine
from vllm_lint.python.summary import nodes
from vllm_lint.python.symbols import VllmClass, VllmModule
from vllm_lint.python.subprocesses import container_dict
from vllm_lint.python.values import (
    EachOf,
    FunctionRef,
    Builtin,
    ClassRef,
    DictObj,
    EngineObj,
    ListObj,
    DROP,
    ObjectArgs,
    OneOf,
    Prefixed,
    ProjectModule,
    Slot,
    StdName,
    concatenated,
    copy_value,
    iteration_items,
    joined_spans,
    read_slot,
)


def _classes(value: OneOf) -> list[ClassRef]:
    """The classes a value may be, when it is certainly one of them (else empty)."""
    options = [option for option, _ in value.options]
    return options if all(isinstance(option, ClassRef) for option in options) else []


class ExpressionsMixin:
    """Expressions: names, containers, operators, comprehensions."""

    # ------------------------------------------------------------ expressions

    def _element_span(self, node: ast.AST) -> Span:
        """Where a list element is written, as this file can show it: in another module's code, the call here."""
        return self._anchor_site if self._foreign_path is not None else span_of(node)

    def _origin(self, span: Span, kind: str, container: int | None = None, value: ast.AST | None = None) -> Origin:
        """Where a value is written: in this file, or in the project module whose function is being
        inlined.  ``value``, the expression written there: a parameter the project's callers bind
        makes the value theirs (``Origin.from_caller``)."""
        from_caller = isinstance(value, ast.Name) and value.id in self.scope.caller_bound
        if Trace.active and self._trace_calls:
            return Origin(span, kind, container, self._foreign_path, tuple(reversed(self._trace_calls)), from_caller)
        return Origin(span, kind, container, self._foreign_path, (), from_caller)

    def _trace_step(self, kind: str, node: ast.AST):
        """A step of a value's way at ``node``, in the file whose code runs (explain mode)."""
        from vllm_lint.facts import Step

        return Step(kind, Span(node.lineno, node.col_offset, node.end_lineno, node.end_col_offset), self._foreign_path)

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
            if final is None and parent.kind == "module" and self._module_live is not None:
                # A function called from the module body: the module's names now, themselves.
                live = self._module_live.names
                return live[name] if name in live else (UNKNOWN if name in parent.local_names else self._builtin_or_unknown(name, scope))
            if final is not None and name in final.names:
                if name in self._volatile and parent.kind == "module":
                    return UNKNOWN
                value = final.names[name]
                if isinstance(value, (DictObj, ListObj, ObjectArgs)):
                    if parent.kind == "function" and isinstance(value, ObjectArgs) and value.kind in symbols.ARGS_CONSTRUCTORS:
                        # An EngineArgs a closure builds (``async def _init(): from_engine_args(ea)``):
                        # as the enclosing function left it.
                        return copy_value(value, {})
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
        return self._builtin_or_unknown(name, scope)

    def _builtin_or_unknown(self, name: str, scope) -> object:
        if scope.kind == "module" or name not in scope.global_names:
            if name in ("dict", "list", "tuple", "setattr", "getattr", "vars") or name in PURE_BUILTINS:
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
            if base.path == "typing" and node.attr == "TYPE_CHECKING":
                return False  # false at run time
            return StdName(f"{base.path}.{node.attr}") if base.path in STD_MODULES else UNKNOWN
        if isinstance(base, ObjectArgs):
            if node.attr == "__dict__":
                return self._fields_view(base, node)
            if node.attr == "create_engine_config" and base.kind in symbols.ARGS_CONSTRUCTORS:
                return BoundMethod(base, node.attr)
            slot = base.slots.get(node.attr)
            if slot is not None:
                return read_slot(slot, UNKNOWN)  # not written on some path: vLLM's default
            return UNKNOWN
        if isinstance(base, VllmClass) or isinstance(base, EngineObj):
            return BoundMethod(base, node.attr)
        if isinstance(base, DictObj):
            if base.attribute_access and node.attr not in _DICT_METHODS:
                slot = base.items.get(node.attr)
                return read_slot(slot, DROP) if slot is not None else UNKNOWN
            return BoundMethod(base, node.attr)
        if isinstance(base, ListObj):
            return BoundMethod(base, node.attr)
        if isinstance(base, str) and node.attr in STR_METHODS:
            return BoundMethod(base, node.attr)
        if isinstance(node.value, ast.Name) and node.value.id == "self" and self.scope.class_node is not None:
            shadow = self.state.names.get(SELF_SHADOW + node.attr)
            if shadow is not None:
                return shadow
            bound = self._bound_by_init(self.scope.class_node, node.attr)
            if bound is not MISSING:
                if isinstance(bound, (DictObj, ListObj)):
                    self.state.names[SELF_SHADOW + node.attr] = bound
                return bound
            constant = self._class_constant_via_self(self.scope.class_node, node.attr)
            if constant is not MISSING:
                return constant
            return SelfAttribute(id(self.scope.class_node), node.attr)
        if isinstance(base, FunctionRef) and node.attr == "remote":
            return BoundMethod(base, node.attr)  # a Ray task started (``calls._ray_task``)
        if isinstance(base, OneOf) and node.attr in ("options", "remote", "bind") and _classes(base):
            return BoundMethod(base, node.attr)  # one of several actor or deployment classes
        if isinstance(base, ClassRef):
            if node.attr in ("options", "remote", "bind"):
                return BoundMethod(base, node.attr)
            info = base.info or self._classes.get(id(base.node))
            if info is not None and node.attr in info.defaults and node.attr not in self._class_attr_stores:
                value = info.defaults[node.attr]
                if isinstance(value, (str, int, float, bool, type(None))):
                    return value
                if isinstance(value, (DictObj, ListObj)):
                    return self._class_constant(base, node, value)
        return UNKNOWN

    def _bound_by_init(self, class_node: ast.ClassDef, attr: str) -> object:
        """``self.x`` in a method, where the class's ``__init__`` alone binds ``x`` (once) and
        nothing in the project changes it afterwards: no other method of the class stores to it
        or mutates it, none hands ``self`` to other code, no subclass exists, and no other code
        writes an attribute of that name.  A copy of the value ``__init__`` left; else MISSING."""
        if getattr(self.scope.node, "name", None) == "__init__" or self._inline_stack or not builds_engine(self.scope.node):
            return MISSING  # what matters is what reaches an engine this method builds
        bound = self._init_bindings.get((id(class_node), attr))
        if not bound or len(bound) != 1 or bound[0] is UNKNOWN or isinstance(bound[0], (ObjectArgs, EngineObj)):
            return MISSING  # engines, requests and arguments objects: read at the end (``_self_attribute``)
        if not self._changed_only_by(class_node, attr, {"__init__"}):
            return MISSING
        return copy_value(bound[0], {})

    def _class_constant_via_self(self, class_node: ast.ClassDef, attr: str) -> object:
        """``self.ENGINE_KEYS`` where the class body alone writes ``ENGINE_KEYS`` and nothing can
        rebind or change it: no method of the class binds or mutates ``self.ENGINE_KEYS``, none
        hands ``self`` to other code, no subclass (which could override it) exists, no project
        base class binds it, and no code stores to that class attribute.  A copy of the class
        body's value; else MISSING."""
        info = self._classes.get(id(class_node))
        if info is None or attr not in info.defaults or attr in self._class_attr_stores:
            return MISSING
        if not self._inline_stack and not builds_engine(self.scope.node):
            return MISSING  # what matters is what reaches an engine: the project-wide search is dear
        value = info.defaults[attr]
        if not isinstance(value, (str, int, float, bool, type(None), DictObj, ListObj)):
            return MISSING
        if not self._changed_only_by(class_node, attr, set()):
            return MISSING
        return copy_value(value, {})

    def _changed_only_by(self, class_node: ast.ClassDef, attr: str, methods: set) -> bool:
        """No code but ``methods`` of the class binds or changes ``self.<attr>``: no other method
        of it, none hands ``self`` to other code, no subclass exists, no project base class binds
        it, and no other code writes an attribute of that name."""
        changes, hands_self = self.summary.self_attribute_changes(class_node)
        if hands_self or "*" in changes or changes.get(attr, set()) != methods:
            return False
        if self.summary.subclasses_of(class_node):
            return False
        for owner, class_id, _cut in self._lineage(id(class_node))[1:]:
            base = next((c for c in owner.summary.classes if id(c) == class_id), None)
            if base is None or attr in owner.summary.self_attribute_changes(base)[0]:
                return False  # a base class of the project binds or changes it too
        return not (self.project is not None and self.path is not None and self.project.changed_elsewhere(self.path, class_node, attr))

    def _class_constant(self, ref: ClassRef, node: ast.Attribute, value: object) -> object:
        """``Settings.speculative``: a dict or list written in a class body.  The module body reads
        it in order; a function reads a copy of it as the module left it, and when a function
        changes it (or hands it to unknown code) the class's name becomes volatile, as a module
        constant's does."""
        if not isinstance(node.value, ast.Name):
            return UNKNOWN
        key = f"{node.value.id}.{node.attr}"  # a dot never occurs in a Python name
        current = self.state.names.get(key)
        if current is not None:
            return current
        if self.scope.kind == "module" and ref.path is None:
            return value  # straight-line module code: mutations are seen in order
        copy_ = copy_value(value, {})
        self._class_constants_read = True
        if self.scope.kind != "module":
            self._global_copies.append((node.value.id, value, copy_))
        self.state.names[key] = copy_
        return copy_

    def _eval_Subscript(self, node: ast.Subscript) -> object:
        if self._is_environ(node.value):
            key = self._eval(node.slice)
            return self._env_get(key)
        base = self._eval(node.value)
        if base == StdName("sys.argv") and isinstance(node.slice, ast.Slice):
            arguments = ListObj([], exact=False)  # sys.argv[1:]: the process's own arguments
            if not self._argv_written():
                arguments.through = node
            return arguments
        key = self._eval(node.slice)
        if isinstance(base, DictObj) and isinstance(key, str):
            slot = base.items.get(key)
            return read_slot(slot, DROP) if slot is not None else UNKNOWN
        if (
            isinstance(base, ListObj)
            and base.exact
            and isinstance(key, int)
            and -len(base.elems) <= key < len(base.elems)
        ):
            return base.elems[key]
        return UNKNOWN

    def _argv_written(self) -> bool:
        """The module assigns or changes ``sys.argv`` (or ``argv``): then its arguments are the code's.
        Kept on the module's tree: every analysis of the module (its own, and each one that reads it
        for another module) asks the same."""
        written = getattr(self.tree, "_vllm_lint_argv_written", None)
        if written is None:
            written = False
            for node in nodes(self.tree):
                target = None
                if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    target = next((t for t in targets if _names_argv(t)), None)
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _names_argv(node.func.value):
                    target = node
                elif isinstance(node, ast.Delete):
                    target = next((t for t in node.targets if _names_argv(t)), None)
                if target is not None:
                    written = True
                    break
            self.tree._vllm_lint_argv_written = written
        return written

    def _eval_Dict(self, node: ast.Dict) -> DictObj:
        result = DictObj()
        self._mark_consumed_at_once([value for key, value in zip(node.keys, node.values) if key is None])
        for key_node, value_node in zip(node.keys, node.values):
            value = self._eval(value_node)
            if key_node is None:  # {**other}
                self._dict_update(result, [value], [], value_node)
                continue
            key = self._eval(key_node)
            if isinstance(key, str):
                span = Span(key_node.lineno, key_node.col_offset, value_node.end_lineno, value_node.end_col_offset)
                result.items[key] = Slot(value, self._origin(span, "dict-entry", result.alloc, value_node))
                self._note_feed(value)
            else:
                result.forget()
                result.escaped = False
        if "image" in result.items and ("command" in result.items or "args" in result.items):
            container_dict(self, node, result)  # a Kubernetes container's process
        return result

    def _eval_List(self, node: ast.AST) -> ListObj:
        result = ListObj(node=node)
        spans: list | None = []
        for elt in node.elts:
            # The process's own arguments are passed through only as the list's last elements.
            result.through = None
            if isinstance(elt, ast.Starred):
                inner = self._eval(elt.value)
                if isinstance(inner, ListObj):
                    kept = (inner.spans is not None and len(inner.spans) == len(inner.elems)) or not inner.elems
                    spans = spans + (inner.spans or []) if spans is not None and kept else None
                    result.through = inner.through if result.exact else None
                    result.exact, result.optional = concatenated(result, inner)
                    result.elems.extend(inner.elems)
                else:
                    self._escape(inner)
                    result.exact = False
                    result.optional = None
            else:
                value = self._eval(elt)
                self._note_feed(value)
                if result.optional is not None:
                    result.optional.append(False)
                result.elems.append(value)
                if spans is not None:
                    spans.append(self._element_span(elt))
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
        body, orelse = self._eval(node.body), self._eval(node.orelse)
        displays = (ast.List, ast.Tuple)
        if isinstance(node.body, displays) and isinstance(node.orelse, displays) and isinstance(body, ListObj) and isinstance(orelse, ListObj):
            # ``[flag] if value is True else [flag, str(value)]``: two new lists, one a start of the other.
            orelse_copy = ListObj(orelse.elems, orelse.exact, orelse.node, body.alloc)
            orelse_copy.spans, orelse_copy.optional = orelse.spans, orelse.optional
            return self._join_values([body, orelse_copy], {})
        # ``{} if x is None else {"device_ids": x}``: two new dicts, joined key by key.
        fresh = all(isinstance(arm, (ast.Dict, ast.Call)) for arm in (node.body, node.orelse))
        return self._join_values([body, orelse], {}, fresh=fresh)

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
            if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, DictObj) and isinstance(left, str):
                contained = _dict_contains(right, left)
                if contained is None:
                    result = UNKNOWN
                elif contained is isinstance(op, ast.NotIn):
                    result = False
                left = right
                continue
            if isinstance(op, (ast.Is, ast.IsNot)) and None in (left, right) and _a_container(left, right):
                # ``config is None`` of a dict or list this code holds: never None.
                if isinstance(op, ast.Is):
                    result = False
                left = right
                continue
            if not (
                isinstance(left, (str, int, float, bool, type(None)))
                and isinstance(right, (str, int, float, bool, type(None)))
            ):
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
        # ``"a" + "b" + ...`` nests to the left: fold it in a loop, so that a long chain
        # is evaluated like a short one instead of exhausting the recursion limit.
        chain = []
        while isinstance(node, ast.BinOp):
            chain.append(node)
            node = node.left
        value = self._eval(node)
        for link in reversed(chain):
            value = self._binop(link.op, value, self._eval(link.right))
        return value

    def _binop(self, op: ast.operator, left: object, right: object) -> object:
        if isinstance(op, ast.BitOr) and isinstance(left, DictObj) and isinstance(right, DictObj):
            result = DictObj()
            self._dict_update(result, [left, right], [], None)
            return result
        if isinstance(op, ast.Add) and isinstance(left, ListObj) and isinstance(right, ListObj):
            exact, optional = concatenated(left, right)
            result = ListObj(list(left.elems) + list(right.elems), exact)
            result.optional = optional
            result.spans = joined_spans(left, right)
            result.through = right.through if left.exact else None
            return result
        if isinstance(op, ast.Mult) and (isinstance(left, ListObj) or isinstance(right, ListObj)):
            repeated = _repeated(left, right) if isinstance(left, ListObj) else _repeated(right, left)
            if repeated is not None:
                return repeated
        if isinstance(op, ast.Add) and isinstance(left, (str, Prefixed)) and not isinstance(right, (DictObj, ListObj)):
            if isinstance(left, Prefixed):
                return left
            if not isinstance(right, str):
                return Prefixed(left) if left else UNKNOWN  # ``"--port=" + str(port)``
        if isinstance(left, (int, float, str)) and isinstance(right, type(left)) and not isinstance(left, bool):
            try:
                return _BINOPS[type(op)](left, right)
            except (KeyError, TypeError, ValueError, ZeroDivisionError, OverflowError, MemoryError):
                return UNKNOWN
        self._escape(left)
        self._escape(right)
        return UNKNOWN

    def _eval_JoinedStr(self, node: ast.JoinedStr) -> object:
        """An f-string of known values (``f"--{key}"``); formatting reads, it does not change."""
        parts: list[str] | None = []
        prefix: str | None = None
        pieces: list[str | None] | None = []  # the text, None for each unknown value
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                if parts is not None:
                    parts.append(part.value)
                if pieces is not None:
                    pieces.append(part.value)
                continue
            if not isinstance(part, ast.FormattedValue):
                parts = pieces = None
                continue
            value = self._eval(part.value)
            if part.format_spec is not None:
                self._eval(part.format_spec)
            known = (
                part.format_spec is None
                and part.conversion in (-1, ord("s"), ord("r"))
                and isinstance(value, (str, int, float, bool, type(None)))
            )
            text = (repr(value) if part.conversion == ord("r") else str(value)) if known else None
            if pieces is not None:
                pieces.append(text)
            if parts is None or text is None:
                if parts and prefix is None:
                    prefix = "".join(parts)  # ``f"--port={port}"``: the start is certain
                parts = None
                continue
            parts.append(text)
        if parts is not None:
            return "".join(parts)
        return Prefixed(prefix, tuple(pieces) if pieces is not None else None) if prefix else UNKNOWN

    def _eval_Lambda(self, node: ast.Lambda) -> object:
        return UNKNOWN  # its body runs later, with parameters we cannot know

    def _unrolled_comprehension(self, node: ast.AST, iterable: object) -> object:
        """A comprehension over one known, short sequence (``[f"--{k}={v}" for k, v in
        opts.items() if v is not None]``): its elements, each one optional where its condition
        is unknown.  None when it is not of that shape or its elements are containers (they
        are copies in the comprehension's own state, not the objects the code would alias)."""
        items = iteration_items(iterable)
        if items is None or len(items) > MAX_UNROLLED_ITEMS or len(items) > self._unroll_budget:
            return None
        self._unroll_budget -= len(items)
        generator = node.generators[0]
        is_dict = isinstance(node, ast.DictComp)
        result = DictObj() if is_dict else ListObj(node=node)
        optional: list[bool] = []
        spans: list = []
        for item in items:
            self._assign(generator.target, item, None)
            truths = [self._truth(self._eval(condition)) for condition in generator.ifs]
            if False in truths:
                continue
            maybe = None in truths
            if is_dict:
                key = self._eval(node.key)
                value = self._eval(node.value)
                if not isinstance(key, str) or not _plain(value):
                    return None
                origin = self._origin(span_of(node.value), "dict-entry", result.alloc)
                result.items[key] = Slot(UNKNOWN if maybe else value, origin)
                continue
            value = self._eval(node.elt)
            if not _plain(value):
                return None
            result.elems.append(value)
            spans.append(self._element_span(node.elt))
            optional.append(maybe)
        if not is_dict:
            result.spans = spans
            if any(optional):
                result.exact, result.optional = False, optional
        return result

    def _comprehension(self, node: ast.AST) -> object:
        # Comprehension variables are local to it: evaluate the iterables only,
        # and the element expressions with those variables unknown.
        saved = self.state
        self.state = saved.fork()
        try:
            generators = node.generators
            first_iterable = self._eval(generators[0].iter)
            if len(generators) == 1 and not generators[0].is_async and not isinstance(node, ast.SetComp):
                unrolled = self._unrolled_comprehension(node, first_iterable)
                if unrolled is not None:
                    return unrolled
            bounded = self._key_filtered_dict(node)
            for index, gen in enumerate(generators):
                if index:
                    self._eval(gen.iter)
                # Over a generator of tuples: each is that tuple (``f.remote(*x) for x in inputs``).
                each = first_iterable.element if index == 0 and isinstance(first_iterable, EachOf) else UNKNOWN
                self._assign(gen.target, each, None)
                for cond in gen.ifs:
                    self._eval(cond)
            if isinstance(node, ast.GeneratorExp) and isinstance(node.elt, ast.Tuple) and len(generators) == 1:
                element = self._eval(node.elt)
                if isinstance(element, ListObj):
                    return EachOf(element)  # read by what iterates it, escaped with it otherwise
                self._escape(element)
                return UNKNOWN
            for part in ("elt", "key", "value"):
                child = getattr(node, part, None)
                if child is not None:
                    self._escape(self._eval(child))
            return bounded if bounded is not None else UNKNOWN
        finally:
            self.state = saved

    def _key_filtered_dict(self, node: ast.AST) -> DictObj | None:
        """``{k: v for k, v in options.items() if k in ALLOWED}`` over a mapping we do not know,
        ``ALLOWED`` a collection of known strings: a dict whose keys can only be those, each one
        maybe there with an unknown value.  Only a test the key must pass bounds the keys (``if k
        not in DENIED`` does not), and only when the key written is the loop's key unchanged."""
        if not isinstance(node, ast.DictComp) or len(node.generators) != 1:
            return None
        generator = node.generators[0]
        key_name = _loop_key_name(generator)
        if key_name is None or not (isinstance(node.key, ast.Name) and node.key.id == key_name):
            return None
        allowed: list[str] | None = None
        for test in _conjuncts(generator.ifs):
            if not (
                isinstance(test, ast.Compare)
                and len(test.ops) == 1
                and isinstance(test.ops[0], ast.In)
                and isinstance(test.left, ast.Name)
                and test.left.id == key_name
            ):
                continue
            keys = _literal_strings(self._eval(test.comparators[0]))
            if keys is not None:
                allowed = keys if allowed is None else [key for key in allowed if key in keys]
        if allowed is None:
            return None
        result = DictObj()
        for key in allowed:
            # No origin: the key is not certainly written, so nothing is reported where it is.
            result.items[key] = Slot(OneOf(((ABSENT, None), (UNKNOWN, None))), None)
        return result

    _eval_ListComp = _eval_SetComp = _eval_DictComp = _eval_GeneratorExp = _comprehension

    def _eval_Await(self, node: ast.Await) -> object:
        return self._eval(node.value)

    def _eval_Starred(self, node: ast.Starred) -> object:
        self._escape(self._eval(node.value))
        return UNKNOWN

    # --------------------------------------------------------------- helpers

    def _truth(self, value: object) -> bool | None:
        if isinstance(value, OneOf):
            truths = {None if v is ABSENT else self._truth(v) for v, _ in value.options}
            return truths.pop() if len(truths) == 1 else None
        if isinstance(value, (bool, int, float, str, bytes)) or value is None:
            return bool(value)
        if isinstance(value, Prefixed):
            return True
        if isinstance(value, DictObj):
            if value.items:
                return True
            return False if value.complete else None
        if isinstance(value, ListObj):
            if value.elems:
                return True
            return False if value.exact else None
        return None


def _loop_key_name(generator: ast.comprehension) -> str | None:
    """The key variable of ``for k, v in d.items()`` or ``for k in d`` (a dict's keys are unique
    strings only when it is one: a list could repeat them, which a dict keeps once anyway)."""
    if generator.is_async:
        return None
    target = generator.target
    if isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(target.elts[0], ast.Name):
        call = generator.iter
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "items":
            return target.elts[0].id
        return None
    if isinstance(target, ast.Name):
        return target.id
    return None


def _conjuncts(tests: list[ast.expr]) -> list[ast.expr]:
    """The tests that must all hold: each ``if`` of a comprehension, and each side of an ``and``."""
    result: list[ast.expr] = []
    for test in tests:
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
            result.extend(_conjuncts(test.values))
        else:
            result.append(test)
    return result


def _literal_strings(value: object) -> list[str] | None:
    """The strings a membership test may match: every element of a known list, tuple or set, or
    every key of a known dict; None when any is not a known string or more may exist."""
    if isinstance(value, ListObj) and value.exact:
        elements = value.elems
    elif isinstance(value, DictObj) and value.complete and not any(isinstance(s.value, OneOf) for s in value.items.values()):
        elements = list(value.items)
    else:
        return None
    if not all(isinstance(element, str) for element in elements):
        return None
    return list(dict.fromkeys(elements))


def _plain(value: object) -> bool:
    """A value a comprehension may hand out as it is: a constant, a partly known string, unknown."""
    return value is UNKNOWN or isinstance(value, (str, int, float, bool, type(None), Prefixed))


def _repeated(items: ListObj, times: object) -> ListObj | None:
    """``[params] * len(prompts)``: the same elements again; an unknown count keeps the elements
    (every element is one of them) but not how many there are."""
    if isinstance(times, bool) or not (isinstance(times, int) or times is UNKNOWN):
        return None
    if isinstance(times, int) and items.exact and 0 <= times * len(items.elems) <= MAX_REPEATED_ELEMENTS:
        return ListObj(items.elems * times, True)
    if not items.exact or not items.elems:
        return None
    return ListObj(list(items.elems), False)


MAX_REPEATED_ELEMENTS = 64


def _dict_contains(mapping: DictObj, key: str) -> bool | None:
    """``key in mapping`` where certain."""
    slot = mapping.items.get(key)
    if slot is not None:
        return None if isinstance(slot.value, OneOf) else True
    return False if mapping.complete else None


def _identical(a: object, b: object) -> bool:
    """``a is b`` of constants: None and the booleans are singletons (``1 is True`` is False);
    equal strings and numbers are taken as the same object, as CPython keeps literals."""
    if a is None or b is None or isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return type(a) is type(b) and a == b


def _a_container(left: object, right: object) -> bool:
    return isinstance(left, (DictObj, ListObj)) or isinstance(right, (DictObj, ListObj))


_COMPARE = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.Is: lambda a, b: _identical(a, b),
    ast.IsNot: lambda a, b: not _identical(a, b),
}

_BINOPS = {
    ast.Add: lambda a, b: a + b if not (isinstance(a, str) and len(a) + len(b) > 100_000) else UNKNOWN,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: (
        a * b
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a) < 1e12 and abs(b) < 1e12
        else UNKNOWN
    ),
    ast.Div: lambda a, b: a / b,
}


def _names_argv(node: ast.AST) -> bool:
    """``sys.argv``, ``argv``, or an element or slice of them."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return (isinstance(node, ast.Attribute) and node.attr == "argv") or (isinstance(node, ast.Name) and node.id == "argv")
