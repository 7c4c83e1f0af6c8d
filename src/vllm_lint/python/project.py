"""Project-local imports: ``from .settings import ENGINE_KWARGS``.

An import is followed only into source files under the project root (the
nearest folder above the importing file with ``.git``, ``pyproject.toml``,
``setup.py`` or ``setup.cfg``), never into site-packages and never into vLLM.
Each module is parsed and analysed once per run; a cycle, a missing module or
a file that cannot be parsed makes the imported names unknown.
"""

from __future__ import annotations

import ast
import os
import re
from contextlib import contextmanager
from dataclasses import replace

from vllm_lint.facts import UNKNOWN, Origin
from vllm_lint.launch.project import outside_project, project_root
from vllm_lint.python.values import ProjectModule

MAX_MODULE_BYTES = 2 * 1024 * 1024
MAX_IMPORT_DEPTH = 3
# Analyses of callers' modules a run makes to learn what they pass (``callers.py``).
MAX_CALLER_ANALYSES = 200
# How many callers up a parameter's value is followed (a caller's parameter bound by its callers).
MAX_CALLER_DEPTH = 3
_IMPORT_RE = re.compile(
    rb"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]*\(?([\w \t,]*)|import[ \t]+([\w.]+))", re.M
)


class ProjectModules:
    def __init__(self) -> None:
        self._packages: dict[str, frozenset[str]] = {}
        self._exports: dict[str, dict[str, object] | None] = {}
        self._texts: dict[str, bytes | None] = {}
        self._in_progress: list[str] = []
        # Per analysed module: its module scope (functions inlined from it look names up there)
        # and the engines its own analysis found.
        self._scopes: dict[str, object] = {}
        self._engines: dict[str, list] = {}
        # Per analysed module: what its classes bind on ``self``, for subclasses in other modules.
        self._analyses: dict[str, object] = {}
        # Per analysed module: how many readers each of its dicts has (the fixer asks, across files).
        self._feeds: dict[str, dict[int, int]] = {}
        self._calls = None  # callers.CallIndex, made when a function first asks for its callers
        self._linted_engines: dict[str, list] = {}
        # Per (caller module, the calls watched there): what each call passes.
        self._watched: dict[tuple, dict | None] = {}
        self._watching: list[tuple] = []  # the callers' analyses under way, outermost first
        self._cut: list[tuple] = []  # callers' analyses refused because they were under way
        self._caller_budget = MAX_CALLER_ANALYSES

    # ---------------------------------------------------------------- finding

    @staticmethod
    def root_for(path: str) -> str:
        """The project root (``launch.project``), else the file's own folder."""
        return project_root(path) or os.path.dirname(os.path.abspath(path))

    def _top_level(self, root: str) -> frozenset[str]:
        """Importable top-level names under the project root and its ``src`` folder."""
        if root not in self._packages:
            names: set[str] = set()
            for base in (root, os.path.join(root, "src")):
                try:
                    entries = os.listdir(base)
                except OSError:
                    continue
                for entry in entries:
                    if entry.endswith(".py"):
                        names.add(entry[:-3])
                    elif os.path.isfile(os.path.join(base, entry, "__init__.py")):
                        names.add(entry)
            names.discard("vllm")
            self._packages[root] = frozenset(names)
        return self._packages[root]

    def top_level_names(self, importer: str) -> frozenset[str]:
        """The top-level modules an absolute import in ``importer`` can reach in the project."""
        return self._top_level(self.root_for(importer))

    def find(self, importer: str, module: str | None, level: int) -> str | None:
        """The file a ``from <module> import`` or ``import <module>`` reaches, if it is the project's."""
        parts = module.split(".") if module else []
        if level == 0:
            if not parts or parts[0] == "vllm":
                return None
            root = self.root_for(importer)
            if parts[0] not in self._top_level(root):
                return None
            bases = [root, os.path.join(root, "src")]
        else:
            base = os.path.dirname(os.path.abspath(importer))
            for _ in range(level - 1):
                base = os.path.dirname(base)
            bases = [base]
        for base in bases:
            target = os.path.join(base, *parts)
            for candidate in (target + ".py", os.path.join(target, "__init__.py")):
                if os.path.isfile(candidate) and not outside_project(candidate):
                    return candidate
        return None

    def _text(self, path: str) -> bytes | None:
        if path not in self._texts:
            try:
                if os.path.getsize(path) > MAX_MODULE_BYTES:
                    self._texts[path] = None
                else:
                    with open(path, "rb") as handle:
                        self._texts[path] = handle.read()
            except OSError:
                self._texts[path] = None
        return self._texts[path]

    def imports_relevant_module(self, importer: str, data: bytes, relevant) -> bool:
        """Whether a file imports a project module whose text passes ``relevant``."""
        if outside_project(importer):
            return False  # its imports could only reach installed packages or vLLM itself
        for relative, names, absolute in _IMPORT_RE.findall(data):
            spec = (relative or absolute).decode("ascii", "replace")
            level = len(spec) - len(spec.lstrip("."))
            module = spec[level:] or None
            candidates = [self.find(importer, module, level)]
            if candidates[0] is None and module and level == 0 and "." in module:
                candidates.append(self.find(importer, module.rsplit(".", 1)[0], 0))
            # ``from pkg import settings``: the names may be submodules.
            for name in names.decode("ascii", "replace").split(","):
                name = name.split()[0] if name.split() else ""
                if name.isidentifier():
                    candidates.append(self.find(importer, f"{module}.{name}" if module else name, level))
            for found in candidates:
                if found is not None:
                    text = self._text(found)
                    if text is not None and relevant(text):
                        return True
        return False

    # -------------------------------------------------------------- analysing

    @contextmanager
    def analysing(self, path: str):
        """Mark the linted file as being imported, so that an import cycle through it is unknown."""
        self._in_progress.append(os.path.abspath(path))
        try:
            yield
        finally:
            self._in_progress.pop()

    def exports(self, path: str) -> dict[str, object] | None:
        """The module-level values of a project module, or None when unknowable."""
        path = os.path.abspath(path)
        if path in self._exports:
            return self._exports[path]
        if path in self._in_progress or len(self._in_progress) >= MAX_IMPORT_DEPTH:
            return None  # a cycle, or too deep
        data = self._text(path)
        if data is None:
            self._exports[path] = None
            return None
        self._in_progress.append(path)
        try:
            from vllm_lint.python.analyzer import analyze_module
            from vllm_lint.sources import decode_python

            tree = ast.parse(decode_python(data), filename=path)
            analysis = analyze_module(tree, path=path, project=self)
            self._scopes[path] = analysis.module_scope
            self._engines[path] = analysis.engines
            self._analyses[path] = ClassBindings(analysis)
            self._feeds[path] = analysis.dict_feeds
            final = analysis.module_scope.final
            result = {name: relocate(value, path) for name, value in final.names.items()} if final else None
        except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError, LookupError):
            result = None
        finally:
            self._in_progress.pop()
        self._exports[path] = result
        return result

    def call_bindings(self, path: str, function: ast.AST, owner: ast.ClassDef | None) -> list[dict] | None:
        """What each call of a project function (a method of ``owner``; its ``__init__`` when the
        class is constructed) passes to its parameters: one ``{parameter: value}`` per call site,
        values from other files marked with their file, ``MISSING`` for a parameter left to its
        default; None when it is an entry point or a call cannot be read."""
        from vllm_lint.python.callers import CallIndex
        from vllm_lint.python.platforms import platform_bindings

        platform = platform_bindings(path, function, owner)
        if platform is not None:
            return platform  # a class the serving platform constructs itself
        if self._calls is None:
            self._calls = CallIndex(self)
        sites = self._calls.sites(path, function, owner)
        if sites is None:
            return None
        by_file: dict[str, list] = {}
        for site in sites:
            by_file.setdefault(site.path, []).append(site)
        bindings: list[dict] = []
        for caller, caller_sites in by_file.items():
            watch = {(site.line, site.col): (function, owner is not None) for site in caller_sites}
            captured = self._captures(caller, watch, path)
            if captured is None:
                return None
            for site in caller_sites:
                found = captured.get((site.line, site.col))
                if found is None:
                    return None  # the call is never reached by the analysis (dead code, too deep)
                elsewhere = caller if os.path.abspath(caller) != os.path.abspath(path) else None
                bindings.append({name: relocate(value, elsewhere, from_caller=True) for name, value in found.items()})
        return bindings

    def changed_elsewhere(self, path: str, owner: ast.ClassDef, attribute: str) -> bool:
        """``callers.CallIndex.changed_elsewhere``."""
        from vllm_lint.python.callers import CallIndex

        if self._calls is None:
            self._calls = CallIndex(self)
        return self._calls.changed_elsewhere(path, owner, attribute)

    def _captures(self, caller: str, watch: dict, callee: str) -> dict | None:
        """The values a module passes at the calls ``watch`` names, from an analysis of it that
        stops at each of them (``ModuleAnalysis.watched``).  The callee's module may be under
        analysis (the file being linted): the caller may still import it (the classes it passes
        are that module's)."""
        caller = os.path.abspath(caller)
        key = (caller, frozenset(watch))
        if key in self._watched:
            return self._watched[key]
        if key in self._watching or len(self._watching) >= MAX_CALLER_DEPTH or self._caller_budget <= 0:
            self._cut.append(key)  # a cycle through callers, or deeper than followed
            return None
        self._caller_budget -= 1
        data = self._text(caller)
        result = None
        cuts_before = len(self._cut)
        if data is not None:
            self._watching.append(key)
            in_progress = self._in_progress
            self._in_progress = [p for p in in_progress if p != os.path.abspath(callee)]
            try:
                from vllm_lint.python.analyzer import analyze_module
                from vllm_lint.sources import decode_python

                tree = ast.parse(decode_python(data), filename=caller)
                analysis = analyze_module(tree, path=caller, project=self, watch=watch)
                result = analysis.watched
            except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError, LookupError):
                result = None
            finally:
                self._watching.pop()
                self._in_progress = in_progress
        # A result computed while a caller's analysis further out was cut short (it was under
        # way) is not what that analysis will know once it ends: kept for this call only.
        cut_outside = [cut for cut in self._cut[cuts_before:] if cut in self._watching]
        if not cut_outside:
            self._watched[key] = result
            del self._cut[cuts_before:]
        return result

    def module_scope(self, path: str) -> object:
        """The module scope of an analysed project module (None when it could not be analysed)."""
        self.exports(path)
        return self._scopes.get(os.path.abspath(path))

    def analysis_of(self, path: str) -> object:
        """What a project module's classes bind on ``self`` (``ClassBindings``; None when it
        could not be analysed)."""
        self.exports(path)
        return self._analyses.get(os.path.abspath(path))

    def file_of_engine(self, facts) -> str | None:
        """The project module whose own analysis built an engine (or one of the engines it joins)."""
        parts = facts.joined or (facts,)
        for path, engines in self._engines.items():
            if any(part is engine for part in parts for engine in engines):
                return path
        return None

    def engines_as_linted(self, path: str) -> list:
        """The engines a project module's analysis finds when that module is the file linted (its
        functions analysed with what the project's callers pass): what it reports on its own."""
        path = os.path.abspath(path)
        if path not in self._linted_engines:
            engines = None
            data = self._text(path)
            if data is not None and path not in self._in_progress:
                self._in_progress.append(path)
                try:
                    from vllm_lint.python.analyzer import analyze_module
                    from vllm_lint.sources import decode_python

                    tree = ast.parse(decode_python(data), filename=path)
                    engines = analyze_module(tree, path=path, project=self, bind_callers=True).engines
                except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError, LookupError):
                    engines = None
                finally:
                    self._in_progress.pop()
            self._linted_engines[path] = engines if engines is not None else self.engines_of(path)
        return self._linted_engines[path]

    def engines_of(self, path: str) -> list:
        """The engines a project module's own analysis found."""
        self.exports(path)
        return self._engines.get(os.path.abspath(path), [])

    def feeds(self, alloc: int, besides: str | None = None) -> int:
        """Readers of a dict in the project modules analysed so far (allocations are unique),
        but for the module ``besides`` (the caller has its own analysis of that one)."""
        skip = os.path.abspath(besides) if besides else None
        return sum(feeds.get(alloc, 0) for path, feeds in self._feeds.items() if path != skip)

    def source_bytes(self, path: str) -> bytes | None:
        """The text of a project module as its analysis read it."""
        return self._text(os.path.abspath(path))

    def replace_text(self, path: str, data: bytes | None) -> None:
        """A module's text changed (a fix wrote it; None: read it again): forget what the old one taught."""
        path = os.path.abspath(path)
        if data is None:
            self._texts.pop(path, None)
        else:
            self._texts[path] = data
        for cache in (self._exports, self._scopes, self._engines, self._feeds, self._analyses, self._watched, self._linted_engines):
            cache.clear()
        self._calls = None

    def imported_name(self, path: str, name: str) -> object:
        """What ``from <module> import <name>`` at the top of a project module binds, looked up
        now: a module analysed deeper than imports are followed (``MAX_IMPORT_DEPTH``) kept the
        name unknown, and a class's bases read later may still be found."""
        data = self._text(os.path.abspath(path))
        if data is None:
            return UNKNOWN
        try:
            from vllm_lint.sources import decode_python

            tree = ast.parse(decode_python(data), filename=path)
        except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError, LookupError):
            return UNKNOWN
        found = UNKNOWN
        for node in tree.body:
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        module = self.find(path, node.module, node.level)
                        found = self.name(module, alias.name) if module is not None else UNKNOWN
            elif isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef, ast.Assign, ast.Import)):
                if _binds(node, name):
                    found = UNKNOWN  # bound otherwise, later: not the import
        return found

    def name(self, path: str, name: str) -> object:
        exports = self.exports(path)
        if exports is None:
            return UNKNOWN
        if name in exports:
            return exports[name]
        # ``from pkg import settings``: a submodule
        if os.path.basename(path) == "__init__.py":
            sub = os.path.join(os.path.dirname(path), name)
            for candidate in (sub + ".py", os.path.join(sub, "__init__.py")):
                if os.path.isfile(candidate):
                    return ProjectModule(candidate)
        return UNKNOWN


def _binds(node: ast.AST, name: str) -> bool:
    if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        return node.name == name
    if isinstance(node, ast.Import):
        return any((a.asname or a.name.split(".")[0]) == name for a in node.names)
    return any(isinstance(t, ast.Name) and t.id == name for target in node.targets for t in ast.walk(target))


class ClassBindings:
    """The part of a module's analysis its classes' subclasses in other modules read: the values
    each method binds on ``self``, the attributes that escape, and how its classes' bases resolve
    (kept instead of the whole analysis, which holds every intermediate state)."""

    def __init__(self, analysis) -> None:
        from vllm_lint.python.engines import EnginesMixin

        self.path = analysis.path
        self.project = analysis.project
        self.summary = analysis.summary
        self.module_scope = analysis.module_scope
        self._class_attrs = analysis._class_attrs
        self._self_escaped = analysis._self_escaped
        self._resolver = EnginesMixin._base_classes

    def _base_classes(self, base):
        return self._resolver(self, base)


def relocate(value: object, path: str | None, memo: dict | None = None, from_caller: bool = False) -> object:
    """A copy of a value from another file, its origins marked with that file (``path`` None:
    this file); ``from_caller``: a value a caller passes (``Origin.from_caller``)."""
    from vllm_lint.python.values import ClassRef, DictObj, FunctionRef, ListObj, ObjectArgs, OneOf, PartialObj, Slot

    if memo is None:
        memo = {}
    if id(value) in memo:
        return memo[id(value)]

    def moved(origin: Origin | None) -> Origin | None:
        if origin is None:
            return origin
        if from_caller and not origin.from_caller:
            origin = replace(origin, from_caller=True)
        if origin.path is not None or path is None:
            return origin
        return replace(origin, path=path)

    if isinstance(value, DictObj):
        # The same allocation: origins name it as their container, in either file's analysis.
        copy = DictObj({}, value.complete, value.alloc)
        memo[id(value)] = copy
        copy.attribute_access = value.attribute_access
        copy.items = {k: Slot(relocate(s.value, path, memo, from_caller), moved(s.origin)) for k, s in value.items.items()}
        return copy
    if isinstance(value, ListObj):
        copy = ListObj([], value.exact)
        memo[id(value)] = copy
        copy.elems = [relocate(e, path, memo, from_caller) for e in value.elems]
        return copy
    if isinstance(value, ObjectArgs):
        return UNKNOWN  # its source positions belong to the other file
    if isinstance(value, PartialObj):
        slots = {k: Slot(relocate(s.value, path, memo, from_caller), moved(s.origin)) for k, s in value.slots.items()}
        return PartialObj(value.target, slots, value.open)
    if isinstance(value, OneOf):
        return OneOf(tuple((relocate(option, path, memo, from_caller), moved(origin)) for option, origin in value.options))
    if isinstance(value, (FunctionRef, ClassRef)) and value.path is None and path is not None:
        return replace(value, path=path)
    return value
