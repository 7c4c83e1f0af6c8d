"""Version and feature guards: which vLLM releases can run each arm of a branch.

Code that supports several releases branches on the installed one::

    if Version(vllm.__version__) >= Version("0.13.0"):
        llm = LLM(model, runner="pooling")
    else:
        llm = LLM(model, task="embed")

A guard's test is evaluated for every minor release (and the patches of each):
the arm it selects runs only on the releases where the test can be true, the
other arm where it can be false.  Recognised:

* comparisons of the installed version with a literal: ``vllm.__version__``
  (a string, compared as Python compares strings; also ``vllm.version.__version__``
  and ``from vllm.version import __version__``), ``Version(...)`` /
  ``version.parse(...)`` of it (``packaging``), ``importlib.metadata.version("vllm")``,
  ``.release`` against a tuple; names assigned one of these, and names assigned
  such a comparison (``VLLM_GE_0_10 = ...``), here or in a project module this one
  imports them from (``from .compat import VLLM_GE_0_13``);
* ``"task" in inspect.signature(LLM).parameters`` (or ``LLM.__init__``) and
  ``hasattr(EngineArgs, "task")``: the releases whose constructor has the keyword;
* ``and``, ``or``, ``not`` of these.

``hasattr`` of anything else of vLLM's (``hasattr(vllm, "PoolingParams")``) is a
feature guard whose releases are not known: its arms are not checked for
arguments at all.
"""

from __future__ import annotations

import ast
import operator
from dataclasses import dataclass
from functools import lru_cache

# Every minor release a guard is evaluated for: those the schema knows, older ones, later ones.
UNIVERSE: frozenset = frozenset({(0, minor) for minor in range(0, 80)} | {(1, minor) for minor in range(0, 20)})
_PATCHES = range(0, 10)
_COMPARE = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}
CONSTRUCTORS = ("LLM", "EngineArgs", "AsyncEngineArgs")
_PARSERS = frozenset({"Version", "parse", "LooseVersion", "StrictVersion", "parse_version"})


@dataclass(frozen=True)
class Guard:
    """The releases on which a test can be true, and those on which it can be false
    (None: any release); ``feature``: a test on vLLM whose releases are unknown."""

    true: frozenset | None = None
    false: frozenset | None = None
    line: int = 0
    feature: bool = False

    def negated(self) -> Guard:
        return Guard(self.false, self.true, self.line, self.feature)


def _and(a: frozenset | None, b: frozenset | None) -> frozenset | None:
    if a is None:
        return b
    return a if b is None else a & b


def _or(a: frozenset | None, b: frozenset | None) -> frozenset | None:
    return None if a is None or b is None else a | b


class Guards:
    """The guards of one module; built once, read by the analyzer at each ``if``."""

    def __init__(self, tree: ast.Module, path: str | None = None, project=None, depth: int = 0) -> None:
        self.vllm_modules: set[str] = set()
        self.version_modules: set[str] = set()  # names bound to vllm.version (``from vllm import version``)
        self.version_names: dict[str, str] = {}  # name -> "str" | "parsed" | "tuple"
        self.guard_names: dict[str, Guard] = {}
        statements = list(_statements(tree.body))
        for node in statements:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == "vllm" or (alias.name in _VERSION_MODULES and alias.asname is None):
                        self.vllm_modules.add(alias.asname or "vllm")
                    elif alias.name in _VERSION_MODULES:
                        self.version_modules.add(alias.asname)
            elif isinstance(node, ast.ImportFrom) and node.module in ("vllm", *_VERSION_MODULES) and node.level == 0:
                for alias in node.names:
                    if alias.name == "__version__":  # from vllm import / from vllm.version import __version__
                        self.version_names[alias.asname or alias.name] = "str"
                    elif node.module == "vllm" and alias.name in ("version", "_version"):
                        self.version_modules.add(alias.asname or alias.name)
            elif isinstance(node, ast.ImportFrom) and project is not None and path and depth < MAX_IMPORT_DEPTH:
                self._imported(node, path, project, depth)
        if not self.active and "metadata" not in _source_names(tree):
            return
        # Assignments, in order, twice: a name may be defined from another one assigned later in the text.
        assignments = [node for node in statements if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None]
        for _ in range(2):
            for node in assignments:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [target.id for target in targets if isinstance(target, ast.Name)]
                if not names:
                    continue
                kind = self._version_kind(node.value)
                guard = None if kind else self.of(node.value)
                for name in names:
                    if kind:
                        self.version_names[name] = kind
                    elif guard is not None and not guard.feature:
                        self.guard_names[name] = guard

    @property
    def active(self) -> bool:
        return bool(self.vllm_modules or self.version_names or self.version_modules or self.guard_names)

    def _imported(self, node: ast.ImportFrom, path: str, project, depth: int) -> None:
        """Guards and versions a project module computes and this one imports
        (``from .compat import VLLM_GE_0_13, VLLM_VERSION``)."""
        found = project.find(path, node.module, node.level)
        if found is None:
            return
        other = module_guards(found, project, depth + 1)
        if other is None:
            return
        for alias in node.names:
            name = alias.asname or alias.name
            if alias.name in other.guard_names:
                self.guard_names[name] = other.guard_names[alias.name]
            elif alias.name in other.version_names:
                self.version_names[name] = other.version_names[alias.name]

    # ------------------------------------------------------------ the version

    def _version_kind(self, node: ast.AST) -> str | None:
        """How an expression holds the installed vLLM's version: "str", "parsed", "tuple"; None if it does not."""
        if isinstance(node, ast.Name):
            return self.version_names.get(node.id)
        if isinstance(node, ast.Attribute):
            if node.attr == "__version__" and isinstance(node.value, ast.Name) and node.value.id in self.vllm_modules | self.version_modules:
                return "str"
            if node.attr == "__version__" and _dotted(node.value) in {f"{name}.{tail}" for name in self.vllm_modules for tail in ("version", "_version")}:
                return "str"  # vllm.version.__version__
            if node.attr in ("release", "_version") and self._version_kind(node.value) == "parsed":
                return "tuple" if node.attr == "release" else None
            if node.attr in ("version",) and _is_distribution(node.value):
                return "str"
            if node.attr in ("base_version", "public") and self._version_kind(node.value) == "parsed":
                return "str"
            return None
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
            name = _called_name(node.func)
            argument = node.args[0]
            if name in _PARSERS and self._version_kind(argument) == "str":
                return "parsed"
            if name == "version" and isinstance(argument, ast.Constant) and argument.value == "vllm":
                return "str"  # importlib.metadata.version("vllm")
            if name == "str" and self._version_kind(argument) == "str":
                return "str"
        return None

    # ---------------------------------------------------------------- guards

    def of(self, test: ast.AST) -> Guard | None:
        """The guard a test is, or None when it is not about the vLLM release."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self.of(test.operand)
            return inner.negated() if inner is not None else None
        if isinstance(test, ast.BoolOp):
            parts = [self.of(value) for value in test.values]
            if all(part is None for part in parts):
                return None
            feature = any(part is not None and part.feature for part in parts)
            guards = [part or Guard() for part in parts]
            true, false = guards[0].true, guards[0].false
            for guard in guards[1:]:
                if isinstance(test.op, ast.And):
                    true, false = _and(true, guard.true), _or(false, guard.false)
                else:
                    true, false = _or(true, guard.true), _and(false, guard.false)
            return Guard(true, false, test.lineno, feature)
        if isinstance(test, ast.Name) and test.id in self.guard_names:
            guard = self.guard_names[test.id]
            return Guard(guard.true, guard.false, test.lineno)
        if isinstance(test, ast.Compare):
            return self._compare(test)
        if isinstance(test, ast.Call) and _called_name(test.func) == "hasattr" and len(test.args) == 2:
            return self._hasattr(test)
        return None

    def _compare(self, test: ast.Compare) -> Guard | None:
        if len(test.ops) > 1:  # a <= v < b: each pair must hold
            pairs = [
                ast.Compare(left, [op], [right])
                for left, op, right in zip([test.left] + test.comparators[:-1], test.ops, test.comparators)
            ]
            for pair in pairs:
                ast.copy_location(pair, test)
            return self.of(ast.BoolOp(ast.And(), pairs, lineno=test.lineno, col_offset=test.col_offset))
        op, right = test.ops[0], test.comparators[0]
        if isinstance(op, (ast.In, ast.NotIn)):
            guard = self._keyword_in_signature(test.left, right, test.lineno)
            return guard.negated() if guard is not None and isinstance(op, ast.NotIn) else guard
        compare = _COMPARE.get(type(op))
        if compare is None:
            return None
        left_kind, right_kind = self._version_kind(test.left), self._version_kind(right)
        if left_kind and not right_kind:
            literal = _literal(right, left_kind)
            if literal is None:
                return None
            return _evaluated(left_kind, literal, compare, False, test.lineno)
        if right_kind and not left_kind:
            literal = _literal(test.left, right_kind)
            if literal is None:
                return None
            return _evaluated(right_kind, literal, compare, True, test.lineno)
        return None

    def _keyword_in_signature(self, needle: ast.AST, haystack: ast.AST, line: int) -> Guard | None:
        """``"task" in inspect.signature(LLM.__init__).parameters`` (also ``signature(...).parameters.keys()``)."""
        if not (isinstance(needle, ast.Constant) and isinstance(needle.value, str)):
            return None
        if isinstance(haystack, ast.Call) and isinstance(haystack.func, ast.Attribute) and haystack.func.attr == "keys":
            haystack = haystack.func.value
        if not (isinstance(haystack, ast.Attribute) and haystack.attr == "parameters"):
            return None
        call = haystack.value
        if not (isinstance(call, ast.Call) and _called_name(call.func) == "signature" and len(call.args) == 1):
            return None
        target = call.args[0]
        if isinstance(target, ast.Attribute) and target.attr == "__init__":
            target = target.value
        kind = target.id if isinstance(target, ast.Name) and target.id in CONSTRUCTORS else None
        return _keyword_guard(kind, needle.value, line) if kind else None

    def _hasattr(self, test: ast.Call) -> Guard | None:
        owner, name = test.args
        if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
            return None
        if isinstance(owner, ast.Name) and owner.id in CONSTRUCTORS:
            return _keyword_guard(owner.id, name.value, test.lineno)
        root = owner
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in self.vllm_modules:
            return Guard(None, None, test.lineno, feature=True)  # a feature of vLLM's, releases unknown
        return None


_BODIES = ("body", "orelse", "handlers", "finalbody", "cases")
_VERSION_MODULES = ("vllm.version", "vllm._version")  # where vLLM's own __version__ is defined
MAX_IMPORT_DEPTH = 2  # a compat module may import its version from another one
_MODULE_GUARDS: dict[tuple, Guards | None] = {}


def module_guards(path: str, project, depth: int = 1) -> Guards | None:
    """The guards a project module computes (read once per text)."""
    data = project.source_bytes(path)
    if data is None or b"vllm" not in data and b"import" not in data:
        return None
    key = (path, len(data), hash(data), depth)
    if key not in _MODULE_GUARDS:
        try:
            tree = ast.parse(data)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            _MODULE_GUARDS[key] = None
        else:
            _MODULE_GUARDS[key] = Guards(tree, path, project, depth)
    return _MODULE_GUARDS[key]


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else None
    return None


def _statements(body: list):
    """Every statement, nested ones too (not the expressions: a module's imports and assignments)."""
    for node in body:
        yield node
        for field in _BODIES:
            inner = getattr(node, field, None)
            if inner:
                yield from _statements(inner)


def _source_names(tree: ast.Module) -> set[str]:
    return {alias.name.rsplit(".", 1)[-1] for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names} | {
        node.module.rsplit(".", 1)[-1] for node in tree.body if isinstance(node, ast.ImportFrom) and node.module
    }


def _called_name(func: ast.AST) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _is_distribution(node: ast.AST) -> bool:
    """``pkg_resources.get_distribution("vllm")`` / ``importlib.metadata.distribution("vllm")``."""
    return (
        isinstance(node, ast.Call)
        and _called_name(node.func) in ("get_distribution", "distribution")
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value == "vllm"
    )


def _literal(node: ast.AST, kind: str):
    """The literal a version is compared with, as that kind of value; None when not a literal."""
    from packaging.version import InvalidVersion
    from packaging.version import Version as Pep440

    if isinstance(node, ast.Call) and _called_name(node.func) in _PARSERS and len(node.args) == 1:
        node = node.args[0]
        if kind == "str":
            return None  # a string compared with a parsed version: a TypeError, not a guard
    if kind == "tuple":
        if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Constant) and isinstance(e.value, int) for e in node.elts):
            return tuple(e.value for e in node.elts)
        return None
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return None
    if kind == "str":
        return node.value
    try:
        return Pep440(node.value)
    except InvalidVersion:
        return None


def _evaluated(kind: str, literal, compare, swapped: bool, line: int) -> Guard:
    """Evaluate the comparison for every release of the universe (each of its patches)."""
    true, false = _table(kind, literal, compare, swapped)
    return Guard(true, false, line)


@lru_cache(maxsize=256)
def _table(kind: str, literal, compare, swapped: bool) -> tuple[frozenset, frozenset]:
    from packaging.version import Version as Pep440

    true, false = set(), set()
    for major, minor in UNIVERSE:
        for patch in _PATCHES:
            text = f"{major}.{minor}.{patch}"
            value = text if kind == "str" else (major, minor, patch) if kind == "tuple" else Pep440(text)
            try:
                holds = compare(literal, value) if swapped else compare(value, literal)
            except TypeError:
                return frozenset(UNIVERSE), frozenset(UNIVERSE)
            (true if holds else false).add((major, minor))
    return frozenset(true), frozenset(false)


def _keyword_guard(kind: str, keyword: str, line: int) -> Guard:
    """The releases whose ``kind`` constructor has the keyword; releases the schema lacks are either."""
    from vllm_lint.launch.schema import keyword_releases, releases

    having = frozenset(keyword_releases(kind, keyword))
    known = frozenset(releases())
    unknown = UNIVERSE - known
    return Guard(having | unknown, (known - having) | unknown, line)


def narrowed(current: frozenset | None, releases: frozenset | None) -> frozenset | None:
    """The releases that run code nested in both guards."""
    return _and(current, releases)


def widened(contexts: list) -> frozenset | None:
    """The releases that reach the code after several arms."""
    result: frozenset | None = frozenset()
    for context in contexts:
        result = _or(result, context)
    return result


def catches_type_error(handler: ast.ExceptHandler) -> bool:
    """``except TypeError`` (or a handler that catches it: bare, ``Exception``, a tuple naming it)."""
    if handler.type is None:
        return True
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(name, ast.Name) and name.id in ("TypeError", "Exception", "BaseException") for name in names)


def accepting_releases(engines: list) -> tuple[frozenset, frozenset] | None:
    """For constructions in a ``try`` whose handler catches ``TypeError``: the releases on
    which every one accepts all its keywords, and those on which one raises (the handler's).
    Releases the schema lacks are in both.  None when no construction is judged."""
    from vllm_lint.launch.schema import releases, schema_for
    from vllm_lint.versions import Version

    judged = [engine for engine in engines if engine.source == "python" and engine.kind in CONSTRUCTORS]
    if not judged:
        return None
    known = frozenset(releases())
    accepted = set()
    for release in known:
        keywords = schema_for(Version(*release)).keywords
        if all(
            name in keywords.get(engine.kind, ())
            for engine in judged
            for name in engine.fields
            if engine.present(name)
        ):
            accepted.add(release)
    unknown = UNIVERSE - known
    return frozenset(accepted) | unknown, (known - frozenset(accepted)) | unknown
