"""Callers bind parameters: what every call in the project passes to a function.

A function that builds an engine from its parameters (``def make(**kwargs): return LLM(**kwargs)``,
a class whose ``__init__(self, **kwargs)`` keeps them for the method that starts the engine) is
analysed with what its callers pass when the project shows every call: each parameter is the
join of the values at every call site (keywords, ``**d``, ``Actor.remote(**d)``,
``Actor.options(...).remote(...)``, Ray Serve's ``Deployment.bind(**d)``), each evaluated where
it is written, by that module's own analysis (whose functions' parameters are bound the same
way, a few levels up).

A function is an *entry point*, its parameters unknown, when the project may not show every call:

* no call in the project at all (a public API, a hook some framework calls);
* a reference other than a call: passed as a value, registered in a table, handed to
  ``ray.remote``/``fire.Fire``/``getattr``, named by a console script;
* a decorator other than the plain ones (``staticmethod``, ``functools.cache``, ``ray.remote``,
  Ray Serve's ``deployment``, ...): a framework may call it;
* a class with subclasses in the project (their constructors reach ``__init__`` through
  ``super()``), or a method called on anything but ``self``;
* more calls than the analysis follows (``MAX_CALL_SITES``).

Call sites are found by name, a byte search first, then the syntax of the files that mention
it; the files of the project are listed once per run.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass

from vllm_lint.python.deferred import spelled_target

MAX_CALL_SITES = 24
MAX_PROJECT_FILES = 20000
_SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".tox", ".nox", ".venv", "venv", "env", "node_modules", "site-packages", "__pycache__",
     "build", "dist", ".eggs", ".mypy_cache", ".pytest_cache"}
)
# Decorators that hand the function to no framework: its calls are the project's.
PLAIN_DECORATORS = frozenset(
    {"staticmethod", "classmethod", "wraps", "cache", "lru_cache", "cached_property", "dataclass",
     "remote", "deployment", "no_grad", "inference_mode", "override", "final", "abstractmethod",
     "contextmanager", "asynccontextmanager", "total_ordering", "singledispatchmethod"}
)
# Calls that construct a class for the caller: ``Actor.remote(...)``, ``Deployment.bind(...)``.
CONSTRUCTING_METHODS = frozenset({"remote", "bind"})
# Calls that read a class or function without calling it.
_HARMLESS_READERS = frozenset({"isinstance", "issubclass", "type", "repr", "str", "print", "id", "hash", "cast"})


@dataclass(frozen=True)
class CallSite:
    path: str
    line: int
    col: int


class CallIndex:
    """The project's calls of its own functions, found by name (one per run and project)."""

    def __init__(self, project) -> None:
        self._project = project
        self._files: dict[str, list[str]] = {}
        self._trees: dict[str, ast.Module | None] = {}
        self._sites: dict[tuple, list[CallSite] | None] = {}
        self._written: dict[tuple, bool] = {}
        self._subclassed_elsewhere: dict[tuple, bool] = {}
        self._import_nodes: dict[str, list[ast.AST]] = {}

    # ----------------------------------------------------------------- files

    def _project_files(self, root: str) -> list[str]:
        if root not in self._files:
            found: list[str] = []
            for folder, dirs, files in os.walk(root):
                dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS and not d.startswith("."))
                for name in sorted(files):
                    if name.endswith(".py"):
                        found.append(os.path.join(folder, name))
                if len(found) > MAX_PROJECT_FILES:
                    found = []  # too large to search: every function is an entry point
                    break
            self._files[root] = found
        return self._files[root]

    def _tree(self, path: str) -> ast.Module | None:
        if path not in self._trees:
            tree = None
            data = self._project.source_bytes(path)
            if data is not None:
                from vllm_lint.sources import decode_python

                try:
                    tree = ast.parse(decode_python(data), filename=path)
                except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError, LookupError):
                    tree = None
            self._trees[path] = tree
        return self._trees[path]

    # ----------------------------------------------------------------- sites

    def sites(self, path: str, function: ast.AST, owner: ast.ClassDef | None) -> list[CallSite] | None:
        """Every call of ``function`` (a module-level function, or a method of ``owner``; its
        ``__init__`` is called by constructing the class) in the project, or None when it is an
        entry point."""
        path = os.path.abspath(path)
        key = (path, function.lineno, function.col_offset)
        if key not in self._sites:
            self._sites[key] = self._find_sites(path, function, owner)
        return self._sites[key]

    def _find_sites(self, path: str, function: ast.AST, owner: ast.ClassDef | None) -> list[CallSite] | None:
        if not _plain(function) or (owner is not None and not _plain(owner)):
            return None
        root = self._project.root_for(path)
        if owner is not None and function.name != "__init__":
            return self._method_sites(path, function, owner, root)
        name = owner.name if owner is not None else function.name
        if name.startswith("__"):
            return None
        if _named_as_entry_point(self._project, root, name):
            return None
        word = name.encode()
        pattern = re.compile(rb"\b" + re.escape(word) + rb"\b")
        sites: list[CallSite] = []
        for candidate in self._project_files(root):
            data = self._project.source_bytes(candidate)
            # A substring test first: it is many times cheaper than the pattern, which confirms it.
            if data is None or word not in data or not pattern.search(data):
                continue
            tree = self._tree(candidate)
            if tree is None:
                if candidate == path:
                    return None
                continue
            local = self._local_names(candidate, tree, path, name)
            if owner is not None and _subclassed(tree, local):
                return None  # subclasses reach __init__ through super()
            found = _calls_of(tree, local, name, candidate == path)
            if found is None:
                return None
            sites.extend(CallSite(candidate, node.lineno, node.col_offset) for node in found)
            if len(sites) > MAX_CALL_SITES:
                return None
        return sites or None

    def changed_elsewhere(self, path: str, owner: ast.ClassDef, attribute: str) -> bool:
        """Whether code other than ``owner``'s own methods may change ``self.<attribute>`` of its
        instances: a store to, or a mutating call on, an attribute of that name on anything but
        ``self`` anywhere in the project, or a subclass in another module."""
        path = os.path.abspath(path)
        root = self._project.root_for(path)
        if (root, attribute) not in self._written:
            self._written[(root, attribute)] = self._written_elsewhere(root, path, attribute)
        if self._written[(root, attribute)]:
            return True
        key = (path, owner.lineno, owner.name)
        if key not in self._subclassed_elsewhere:
            self._subclassed_elsewhere[key] = self._find_subclass(root, path, owner)
        return self._subclassed_elsewhere[key]

    def _written_elsewhere(self, root: str, path: str, attribute: str) -> bool:
        name = re.escape(attribute.encode())
        writes = re.compile(
            rb"([\w\])]*)\.%s\b\s*(?:\[[^\]\n]*\]\s*|\.\w+\s*)?(?:=(?!=)|[-+|&*/]=)" % name
            + rb"|([\w\])]*)\.%s\s*\.\s*(?:update|pop|popitem|setdefault|clear|append|extend|insert|remove)\s*\(" % name
            + rb"|(setattr)\s*\([^,\n]*,\s*[\"']%s[\"']" % name
        )
        word, quoted = b"." + attribute.encode(), attribute.encode()
        for candidate in self._project_files(root) or [path]:
            data = self._project.source_bytes(candidate)
            if data is None:
                return True
            if word not in data and not (b"setattr" in data and quoted in data):
                continue  # the substring tests are far cheaper than the pattern
            for match in writes.finditer(data):
                receiver = match.group(1) or match.group(2) or match.group(3)
                if receiver != b"self":  # ``self.x`` elsewhere is another class's (a subclass: below)
                    return True
        return False

    def _find_subclass(self, root: str, path: str, owner: ast.ClassDef) -> bool:
        word = owner.name.encode()
        class_name = re.compile(rb"\b" + re.escape(word) + rb"\b")
        for candidate in self._project_files(root):
            if candidate == path:
                continue
            data = self._project.source_bytes(candidate)
            if data is None or word not in data or not class_name.search(data):
                continue
            tree = self._tree(candidate)
            if tree is None or _subclassed(tree, self._local_names(candidate, tree, path, owner.name)):
                return True
        return False

    def _local_names(self, candidate: str, tree: ast.Module, defined_in: str, name: str) -> dict[str, str]:
        """The names that mean the function in ``candidate``: ``{name: "direct"}`` for the
        function itself or an import of it, ``{alias: "module"}`` for its module."""
        names: dict[str, str] = {}
        if candidate == defined_in:
            names[name] = "direct"
        for node in self._imports(candidate, tree):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                for alias in node.names:
                    if alias.name == name and self._exports(self._project.find(candidate, module or None, node.level), name, defined_in):
                        names[alias.asname or name] = "direct"
                    elif self._project.find(
                        candidate, f"{module}.{alias.name}" if module else alias.name, node.level
                    ) == defined_in:
                        names[alias.asname or alias.name] = "module"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if self._project.find(candidate, alias.name, 0) == defined_in:
                        names[alias.asname or alias.name] = "module" if alias.asname else "package:" + alias.name
        return names

    def _imports(self, path: str, tree: ast.Module) -> list[ast.AST]:
        """The import statements of a file, anywhere in it (found once)."""
        if path not in self._import_nodes:
            self._import_nodes[path] = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
        return self._import_nodes[path]

    def _exports(self, module: str | None, name: str, defined_in: str, depth: int = 0) -> bool:
        """``module`` is where ``name`` is defined, or re-exports it from there (a package's
        ``__init__.py`` with ``from .worker import Name``)."""
        if module is None or depth > 3:
            return False
        if module == defined_in:
            return True
        tree = self._tree(module)
        if tree is None:
            return False
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and any(alias.name == name and alias.asname in (None, name) for alias in node.names):
                if self._exports(self._project.find(module, node.module, node.level), name, defined_in, depth + 1):
                    return True
        return False

    def _method_sites(self, path: str, function: ast.AST, owner: ast.ClassDef, root: str) -> list[CallSite] | None:
        """A method's callers: ``self.method(...)`` in its own class; a call on anything else
        (or a subclass in the module) could be any object's."""
        name = function.name
        tree = self._tree(path)
        if tree is None or name.startswith("__") or _subclassed(tree, {owner.name: "direct"}):
            return None
        _with_parents(tree)
        word = b"." + name.encode()
        pattern = re.compile(re.escape(word) + rb"\b")
        for candidate in self._project_files(root):
            if candidate == path:
                continue
            data = self._project.source_bytes(candidate)
            if data is not None and word in data and pattern.search(data):
                return None
        sites: list[CallSite] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == name:
                inside = _enclosing_class(tree, node)
                receiver = node.value
                same_class = inside is not None and (inside.lineno, inside.name) == (owner.lineno, owner.name)
                if not same_class or not (isinstance(receiver, ast.Name) and receiver.id == "self"):
                    return None
                parent = getattr(node, "_vllm_lint_parent", None)
                if not isinstance(parent, ast.Call) or parent.func is not node:
                    return None
                sites.append(CallSite(path, parent.lineno, parent.col_offset))
        return sites if 0 < len(sites) <= MAX_CALL_SITES else None


def _plain(node: ast.AST) -> bool:
    for decorator in getattr(node, "decorator_list", []):
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", None)
        if name not in PLAIN_DECORATORS:
            return False
    return True


def _subclassed(tree: ast.Module, local: dict[str, str]) -> bool:
    """A class of the file derives from one of the ``local`` names (the classes, found once)."""
    if not local:
        return False
    classes = getattr(tree, "_vllm_lint_classes", None)
    if classes is None:
        classes = tree._vllm_lint_classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    for node in classes:
        for base in node.bases:
            if isinstance(base, ast.Name) and local.get(base.id) == "direct":
                return True
            if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id in local:
                return True
    return False


def _with_parents(tree: ast.Module) -> None:
    if getattr(tree, "_vllm_lint_parents", False):
        return
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            child._vllm_lint_parent = node
    tree._vllm_lint_parents = True


def _enclosing_class(tree: ast.Module, node: ast.AST) -> ast.ClassDef | None:
    _with_parents(tree)
    current = getattr(node, "_vllm_lint_parent", None)
    while current is not None and not isinstance(current, ast.ClassDef):
        current = getattr(current, "_vllm_lint_parent", None)
    return current


def _calls_of(tree: ast.Module, local: dict[str, str], name: str, defining: bool) -> list[ast.Call] | None:
    """The calls of the function or class in one file, or None when it is used otherwise."""
    if not local:
        return []
    _with_parents(tree)
    calls: list[ast.Call] = []
    for node in ast.walk(tree):
        reference = None
        if isinstance(node, ast.Name) and local.get(node.id) == "direct" and isinstance(node.ctx, ast.Load):
            reference = node
        elif isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.ctx, ast.Load):
            base = node.value
            if isinstance(base, ast.Name) and local.get(base.id, "").startswith("module"):
                reference = node
            elif any(kind.startswith("package") for kind in local.values()):
                return None  # ``pkg.mod.name`` or another object's attribute of that name: not told apart
        if reference is None:
            continue
        call = _construction(reference)
        if call is not None:
            calls.append(call)
            continue
        if _harmless(reference):
            continue
        return None
    return calls


def _construction(reference: ast.AST) -> ast.Call | None:
    """The call that runs the function or builds the class ``reference`` names: ``f(...)``,
    ``Actor.remote(...)``, ``Actor.options(...).remote(...)``, ``Deployment.bind(...)``,
    ``ray.remote(Actor).remote(...)``, ``serve.deployment(Cls).bind(...)``, and the deferring calls
    that construct or run it later (``lp.CourierNode(Actor, ...)``, ``Process(target=f, ...)``)."""
    parent = getattr(reference, "_vllm_lint_parent", None)
    if isinstance(parent, ast.Call) and parent.func is reference:
        return parent
    if isinstance(parent, ast.keyword):
        parent = getattr(parent, "_vllm_lint_parent", None)
    if isinstance(parent, ast.Call) and spelled_target(parent) is reference:
        # ``lp.CourierNode(Actor, ...)``, ``Process(target=serve, args=...)``: the caller's
        # analysis confirms the import and reads the call it makes (``deferred.py``).
        return parent
    if isinstance(parent, ast.Call) and reference in parent.args and len(parent.args) == 1:
        wrapper = parent.func
        wrapper_name = wrapper.id if isinstance(wrapper, ast.Name) else getattr(wrapper, "attr", None)
        if wrapper_name in ("remote", "deployment"):
            return _method_chain(parent)
        return None
    if isinstance(parent, ast.Attribute):
        return _method_chain(reference)
    return None


def _method_chain(node: ast.AST) -> ast.Call | None:
    parent = getattr(node, "_vllm_lint_parent", None)
    if not isinstance(parent, ast.Attribute):
        return None
    call = getattr(parent, "_vllm_lint_parent", None)
    if not isinstance(call, ast.Call) or call.func is not parent:
        return None
    if parent.attr in CONSTRUCTING_METHODS:
        return call
    if parent.attr == "options":
        return _method_chain(call)
    return None


def _harmless(reference: ast.AST) -> bool:
    """A read that does not call it elsewhere: ``isinstance(x, Cls)``, an annotation."""
    parent = getattr(reference, "_vllm_lint_parent", None)
    if isinstance(parent, ast.Call) and reference in parent.args:
        func = parent.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        return name in _HARMLESS_READERS
    node = reference
    while parent is not None:
        if isinstance(parent, (ast.arg, ast.AnnAssign)) and getattr(parent, "annotation", None) is node:
            return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and parent.returns is node:
            return True
        if isinstance(parent, ast.Subscript) or isinstance(parent, ast.Tuple) and isinstance(
            getattr(parent, "_vllm_lint_parent", None), ast.Subscript
        ):
            node, parent = parent, getattr(parent, "_vllm_lint_parent", None)
            continue
        return False
    return False


_ENTRY_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
_entry_texts: dict[str, bytes] = {}


def _named_as_entry_point(project, root: str, name: str) -> bool:
    """A console script or plugin entry point names it (``cli = "pkg.mod:main"``)."""
    if root not in _entry_texts:
        text = b""
        for file in _ENTRY_FILES:
            data = project.source_bytes(os.path.join(root, file)) if os.path.isfile(os.path.join(root, file)) else None
            text += data or b""
        _entry_texts[root] = text
    return re.search(rb":\s*" + re.escape(name.encode()) + rb"\b", _entry_texts[root]) is not None
