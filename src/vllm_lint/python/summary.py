"""Syntactic facts about a module, collected once: what functions and loops may change,
which names are local to a function."""

from __future__ import annotations

import ast
import re

from vllm_lint.python.deferred import COPYING_SPELLINGS
from vllm_lint.python.subprocesses import imports_module


def nodes(node: ast.AST):
    """``node`` and every node below it, as ``ast.walk`` gives them but in another order (depth
    first) and at half its cost: for the questions asked of every node of a module or function
    (does any ...), where the order does not matter."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                stack.extend(item for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)


def is_generator(function: ast.AST) -> bool:
    """The function (or a function nested in it) yields.  Kept on the node: the analysis
    inlines the same function at every call it follows."""
    known = getattr(function, "_vllm_lint_generator", None)
    if known is None:
        known = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes(function))
        function._vllm_lint_generator = known
    return known


def is_import_error_handler(handler: ast.ExceptHandler) -> bool:
    names = []
    if isinstance(handler.type, ast.Tuple):
        names = handler.type.elts
    elif handler.type is not None:
        names = [handler.type]
    return bool(names) and all(
        isinstance(n, ast.Name) and n.id in ("ImportError", "ModuleNotFoundError") for n in names
    )


# Methods that change the container they are called on.
MUTATING_METHODS = frozenset(
    {"update", "pop", "popitem", "setdefault", "clear", "append", "extend", "insert", "remove", "add",
     "discard", "sort", "reverse", "__setitem__", "__delitem__"}
)
# Calls that read ``self`` without changing it.
_SELF_READERS = frozenset({"isinstance", "type", "id", "repr", "str", "hash", "print", "super", "getattr", "hasattr", "vars"})


def _self_attribute_changes(class_node: ast.ClassDef) -> tuple[dict[str, set[str]], bool]:
    changes: dict[str, set[str]] = {}
    hands_self = False
    for method in class_node.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(method):
            attribute = None
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
                for target in targets:
                    for leaf in ast.walk(target):
                        name = _self_attribute_root(leaf)
                        if name is not None:
                            changes.setdefault(name, set()).add(method.name)
            elif isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Attribute) and func.attr in MUTATING_METHODS:
                    attribute = _self_attribute_root(func.value)
                elif isinstance(func, ast.Name) and func.id in ("setattr", "delattr") and node.args:
                    attribute = _self_attribute_root(node.args[0]) or (
                        "*" if isinstance(node.args[0], ast.Name) and node.args[0].id == "self" else None
                    )
                if attribute is not None:
                    changes.setdefault(attribute, set()).add(method.name)
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name not in _SELF_READERS and any(
                    isinstance(a, ast.Name) and a.id == "self" for a in [*node.args, *(k.value for k in node.keywords)]
                ):
                    hands_self = True
    return changes, hands_self


def _self_attribute_root(node: ast.AST) -> str | None:
    """``x`` for ``self.x``, ``self.x[k]``, ``self.x.y``: the attribute of ``self`` a store reaches."""
    while isinstance(node, (ast.Subscript, ast.Attribute, ast.Starred)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            return node.attr
        node = node.value
    return None


_AVAILABILITY_WORDS = re.compile(r"(?i)avail|install|find_spec|has_|importable|is_package|exists")


def vllm_world_arm(node: ast.If) -> list[ast.stmt] | None:
    """The arm of ``if is_package_available("vllm"): from vllm import LLM else: LLM = Mock()``
    that runs where vLLM is importable (the other binds stand-ins, and builds no engine), or None
    when the test is not about vLLM being installed or that arm imports nothing from it."""
    test, negated = node.test, False
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, negated = test.operand, not negated
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and _is_none(test.comparators[0]):
        if isinstance(test.ops[0], ast.Is):
            negated = not negated  # find_spec("vllm") is None
        elif not isinstance(test.ops[0], ast.IsNot):
            return None
        test = test.left
    if not _tests_vllm_availability(test):
        return None
    arm = node.orelse if negated else node.body
    return arm if any(_imports_vllm(statement) for statement in arm) else None


def _is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _tests_vllm_availability(test: ast.AST) -> bool:
    name = test.func if isinstance(test, ast.Call) else test
    identifier = name.id if isinstance(name, ast.Name) else getattr(name, "attr", None)
    if identifier is None or not _AVAILABILITY_WORDS.search(identifier):
        return False
    if "vllm" in identifier.lower():
        return not isinstance(test, ast.Call) or not test.args
    return isinstance(test, ast.Call) and any(
        isinstance(a, ast.Constant) and a.value == "vllm" for a in test.args
    )


def _imports_vllm(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.ImportFrom):
        return statement.level == 0 and (statement.module or "").split(".")[0] == "vllm"
    if isinstance(statement, ast.Import):
        return any(alias.name.split(".")[0] == "vllm" for alias in statement.names)
    return False


# Leaves no handler here reads: not visited at all (``ctx`` alone is on every name).
_UNREAD_LEAVES = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.Constant)
# Fields that never hold a node to visit (names, flags, numbers, the leaves above).
_PLAIN_FIELDS = frozenset(
    {"ctx", "id", "attr", "name", "arg", "module", "level", "type_comment", "kind", "conversion", "is_async", "simple", "op", "ops"}
)


def _visited(kind: type) -> bool:
    return issubclass(kind, ast.AST) and not issubclass(kind, _UNREAD_LEAVES)


class _Walker:
    """``ast.NodeVisitor``'s protocol at a lower cost per node: the handler and the fields that
    may hold nodes are looked up once per node type, and leaves that no handler reads are
    skipped.  The summary walks every node of every analysed module, so this is a visible
    share of the run (and of the language server's time per keystroke)."""

    _handlers: dict[type, object] = {}
    _child_fields: dict[type, tuple[str, ...]] = {}
    _visits: dict[type, bool] = {}

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls._handlers = {}

    def visit(self, node: ast.AST) -> None:
        kind = node.__class__
        handler = self._handlers.get(kind)
        if handler is None:
            handler = getattr(type(self), "visit_" + kind.__name__, None) or type(self).generic_visit
            self._handlers[kind] = handler
        handler(self, node)

    def generic_visit(self, node: ast.AST) -> None:
        kind = node.__class__
        fields = _Walker._child_fields.get(kind)
        if fields is None:
            fields = _Walker._child_fields[kind] = tuple(f for f in kind._fields if f not in _PLAIN_FIELDS)
        visits = _Walker._visits
        for name in fields:
            value = getattr(node, name, None)
            if value.__class__ is list:
                for item in value:
                    wanted = visits.get(item.__class__)
                    if wanted is None:
                        wanted = visits[item.__class__] = _visited(item.__class__)
                    if wanted:
                        self.visit(item)
            elif value is not None:
                wanted = visits.get(value.__class__)
                if wanted is None:
                    wanted = visits[value.__class__] = _visited(value.__class__)
                if wanted:
                    self.visit(value)


class _ChainVisitor(_Walker):
    """A visitor that walks ``a + b + ...`` (nested to the left) in a loop, not by recursion."""

    def visit_BinOp(self, node: ast.BinOp) -> None:
        while isinstance(node, ast.BinOp):
            self.visit(node.right)
            node = node.left
        self.visit(node)


class Touched(_ChainVisitor):
    """Names a block may rebind or mutate, and whether it touches os.environ."""

    MUTATORS = frozenset(
        {"update", "setdefault", "pop", "popitem", "clear", "append", "extend", "insert", "remove", "__setitem__"}
    )

    def __init__(self, call_arguments: bool = True, copying: frozenset[str] = frozenset()) -> None:
        self.names: set[str] = set()
        # Calls whose arguments are pickled for another process (a launchpad node in a module that
        # imports launchpad): they cannot change the caller's objects.
        self.copying = copying
        # ``d["key"] = v`` with a literal key: only those keys of ``d`` change (unless ``d`` is in ``names``).
        self.literal_keys: dict[str, set[str]] = {}
        self.environ = False
        self.call_arguments = call_arguments
        # Names only grown at their end (``cmd.append(x)``, ``cmd.extend(xs)``, ``cmd += [...]``), and
        # the names changed any other way: a list in ``grown - changed`` keeps the elements it had.
        self.grown: set[str] = set()
        self.changed: set[str] = set()
        # Attributes of ``self`` stored to or changed in place (``self.llm = ...``,
        # ``self.kwargs.update(...)``): only those, unless ``self`` itself is in ``names``.
        self.self_attributes: set[str] = set()

    @property
    def grown_only(self) -> set[str]:
        return self.grown - self.changed

    @classmethod
    def of_names(cls, names: set[str]) -> Touched:
        touched = cls()
        touched.names = set(names)
        return touched

    def without(self, names: set[str]) -> Touched:
        """The same block's changes but for ``names``."""
        touched = Touched(self.call_arguments)
        touched.names = self.names - names
        touched.literal_keys = {k: v for k, v in self.literal_keys.items() if k not in names}
        touched.environ = self.environ
        touched.self_attributes = set(self.self_attributes)
        return touched

    def _base(self, node: ast.AST) -> None:
        attribute = None
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            if isinstance(node, ast.Attribute) and node.attr == "environ":
                self.environ = True
                return  # ``os.environ[...] = v`` changes the environment, not the name ``os``
            if isinstance(node, ast.Attribute):
                attribute = node.attr
            node = node.value
        if isinstance(node, ast.Name):
            if node.id == "self" and attribute is not None:
                self.self_attributes.add(attribute)  # ``self.kwargs[k] = v``: that attribute's object
                return
            self.names.add(node.id)
            self.changed.add(node.id)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.names.add(node.id)
            self.changed.add(node.id)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if (
            isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
        ):
            self.literal_keys.setdefault(node.value.id, set()).add(node.slice.value)
        elif isinstance(node.ctx, (ast.Store, ast.Del)):
            self._base(node.value)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                self.self_attributes.add(node.attr)  # ``self.llm = ...`` rebinds that attribute only
            else:
                self._base(node.value)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Name) and isinstance(node.op, ast.Add):
            self.names.add(node.target.id)
            self.grown.add(node.target.id)
            self.visit(node.value)
            return
        self._base(node.target)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("append", "extend") and isinstance(func.value, ast.Name):
            self.names.add(func.value.id)
            self.grown.add(func.value.id)
        elif isinstance(func, ast.Attribute) and func.attr in self.MUTATORS:
            self._base(func.value)
        if isinstance(func, ast.Attribute) and func.attr in ("putenv", "unsetenv"):
            self.environ = True
        # Containers passed to calls may be changed by them.
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if self.call_arguments and name not in self.copying:
            # ``*args`` and ``**kwargs`` hand over copies: the callee cannot change the originals.
            for arg in list(node.args) + [k.value for k in node.keywords if k.arg is not None]:
                if isinstance(arg, ast.Name):
                    self.names.add(arg.id)
                    self.changed.add(arg.id)
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.AST) -> None:
        self.names.add(node.name)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.names.add(node.name)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        return


def touched_by(nodes: list[ast.AST], call_arguments: bool = True, copying: frozenset[str] = frozenset()) -> Touched:
    visitor = Touched(call_arguments, copying)
    for node in nodes:
        visitor.visit(node)
    return visitor


class _ScopeNames(_ChainVisitor):
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


class _SummaryCollector(Touched):
    """One walk of a module: what each function mutates, and attribute stores."""

    def __init__(self, summary: ModuleSummary) -> None:
        super().__init__(call_arguments=False)
        self.summary = summary
        self.functions: list[ast.AST] = []
        self.classes: list[ast.AST] = []
        self.mutations: dict[ast.AST, Touched] = {}

    def _record(self) -> Touched | None:
        if not self.functions:
            return None
        return self.mutations.setdefault(self.functions[-1], Touched(call_arguments=False))

    # Each inherited handler records into the current function's Touched.
    def _with_function(self, method, node) -> None:
        target = self._record()
        if target is not None:
            method(target, node)

    def visit_FunctionDef(self, node: ast.AST) -> None:
        self.functions.append(node)
        self.mutations.setdefault(node, Touched(call_arguments=False))
        for child in ast.iter_child_nodes(node):
            self.visit(child)
        self.functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(node)
        self.summary.classes.append(node)
        self.summary.self_attributes.setdefault(id(node), set())
        saved, self.functions = self.functions, []  # a class body is not its enclosing function
        self.generic_visit(node)
        self.functions = saved
        self.classes.pop()

    def visit_Name(self, node: ast.Name) -> None:
        self._with_function(Touched.visit_Name, node)

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
        if (
            isinstance(node.func, ast.Name)
            and node.func.id in ("setattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            # ``setattr(Settings, "speculative", ...)``: class attributes of that name are not constants.
            self.summary.class_attr_stores.add(node.args[1].value)
        target = self._record()
        if target is not None:
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in Touched.MUTATORS:
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
        # Every class of the module, in source order (the collector's walk fills it).
        self.classes: list[ast.ClassDef] = []
        self._touched: dict[int, Touched] = {}
        self._tree = tree
        self._copying_calls: frozenset[str] | None = None
        self._self_changes: dict[int, tuple[dict[str, set[str]], bool]] = {}
        collector = _SummaryCollector(self)
        collector.visit(tree)
        for function, touched in collector.mutations.items():
            local, declared = self.locals_of(function)
            self.volatile |= declared | (touched.names - local)
            self.volatile_env |= touched.environ

    def subclasses_of(self, class_node: ast.AST) -> list[ast.ClassDef]:
        """Classes of this module that derive from ``class_node``, directly or through each other."""
        found: list[ast.ClassDef] = []
        names = {getattr(class_node, "name", None)}
        changed = True
        while changed:
            changed = False
            for candidate in self.classes:
                if candidate is class_node or candidate in found:
                    continue
                bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", None) for b in candidate.bases}
                if bases & names:
                    found.append(candidate)
                    names.add(candidate.name)
                    changed = True
        return found

    def self_attribute_changes(self, class_node: ast.ClassDef) -> tuple[dict[str, set[str]], bool]:
        """Per attribute of ``self``, the methods of the class that bind or change it (assign,
        delete, augment, item or attribute store, a mutating method, ``setattr``), and whether
        a method hands ``self`` itself to other code (which may change anything)."""
        key = id(class_node)
        if key not in self._self_changes:
            self._self_changes[key] = _self_attribute_changes(class_node)
        return self._self_changes[key]

    def locals_of(self, node: ast.AST) -> tuple[set[str], set[str]]:
        key = id(node)
        if key not in self._locals:
            self._locals[key] = function_locals(node)
        return self._locals[key]

    @property
    def copying_calls(self) -> frozenset[str]:
        """The spellings of calls that pickle their arguments (launchpad nodes, where the module
        imports launchpad); looked for the first time a loop or a ``try`` asks."""
        if self._copying_calls is None:
            self._copying_calls = COPYING_SPELLINGS if imports_module(self._tree, "launchpad") else frozenset()
        return self._copying_calls

    def touched_by_loop(self, node: ast.AST, header: list[ast.AST]) -> Touched:
        key = id(node)
        if key not in self._touched:
            self._touched[key] = touched_by(node.body + node.orelse + header, copying=self.copying_calls)
        return self._touched[key]

    def touched_by_block(self, node: ast.AST) -> Touched:
        key = id(node)
        if key not in self._touched:
            self._touched[key] = touched_by(node.body, copying=self.copying_calls)
        return self._touched[key]
