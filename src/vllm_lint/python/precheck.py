"""Whether a parsed module could produce any finding at all, decided without analysing it.

The analyzer (``analyzer.py``) reports engines, requests and framework launches, and every one
of them starts at a value only a few things produce:

* a vLLM class or engine function (``symbols.KNOWN_CLASSES``, ``symbols.ENGINE_ARGS_FUNCTIONS``):
  a name imported from ``vllm`` (``from vllm import LLM [as X]``, ``from vllm import *``), or an
  attribute of that name on a vLLM module (``import vllm; vllm.LLM``), which is how
  ``EngineArgs``, ``LLM``, ``VllmConfig``, ``SamplingParams``, ``from_engine_args``,
  ``create_engine_config`` and ``build_async_engine_client_from_engine_args`` are reached;
* a process-starting function (``subprocesses.SUBPROCESS_CALLS``: ``subprocess.run``,
  ``os.execvp``, ``asyncio.create_subprocess_exec``, ...), imported or reached as an attribute
  of its module: argv lists with ``vllm serve``, servers of the project, RL framework entry points;
* a module of the project (``project.ProjectModules.find``): its values may be any of these,
  its functions and classes may build engines (base classes, helpers in other modules);
* a serving framework's command hook (``subprocesses.COMMAND_HOOKS``: a method named
  ``__command__`` in a module that imports BentoML), whose returned argv the framework runs;
* a dict with the keys of a Kubernetes container (``image`` and ``command`` or ``args``), whose
  process the cluster runs.

A module that imports none of the first two kinds, or binds them but reads them only in
annotations (where the analyzer never calls them), and imports no project module, has no
engine, no request and no launch: ``could_find`` says False and the analysis is skipped.
Anything it is unsure of counts as a use.

The walk is cheap: imports are statements, so the first pass visits statements only; the
second looks for the bound names only on the lines whose text holds one of them.

``byte_triggers`` is the same question asked of the bytes before any parse (each trigger
needs one of a few words in the text), used to skip parsing files that cannot hold a finding.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left

import vllm_lint.python.symbols as symbols
from vllm_lint.python.state import STD_MODULES
from vllm_lint.python.subprocesses import COMMAND_HOOKS, SUBPROCESS_CALLS, imports_module
from vllm_lint.sources import NAME_BYTES

# Names whose value starts an engine, a request or an engine built from EngineArgs.
ENGINE_NAMES = symbols.KNOWN_CLASSES | symbols.ENGINE_ARGS_FUNCTIONS
# Per standard module (as ``import <module>`` binds it): the attributes that start a process.
PROCESS_ATTRIBUTES: dict[str, frozenset[str]] = {}
for _call in SUBPROCESS_CALLS:
    _module, _, _attr = _call.rpartition(".")
    PROCESS_ATTRIBUTES[_module] = PROCESS_ATTRIBUTES.get(_module, frozenset()) | {_attr}
del _call, _module, _attr

# The statement lists nested in each compound statement.
_NESTED: dict[type, tuple[str, ...]] = {
    ast.FunctionDef: ("body",),
    ast.AsyncFunctionDef: ("body",),
    ast.ClassDef: ("body",),
    ast.If: ("body", "orelse"),
    ast.While: ("body", "orelse"),
    ast.For: ("body", "orelse"),
    ast.AsyncFor: ("body", "orelse"),
    ast.With: ("body",),
    ast.AsyncWith: ("body",),
    ast.Try: ("body", "orelse", "finalbody"),
}
if hasattr(ast, "TryStar"):
    _NESTED[ast.TryStar] = ("body", "orelse", "finalbody")


def _statements(body: list[ast.stmt], lines: list[int] | None):
    """Every statement, nested ones too (function and class bodies, branches, handlers, cases),
    whose lines hold one of ``lines`` (None: every statement)."""
    stack = list(reversed(body))
    while stack:
        stmt = stack.pop()
        if lines is not None:
            decorators = getattr(stmt, "decorator_list", None)
            index = bisect_left(lines, decorators[0].lineno if decorators else stmt.lineno)
            if index == len(lines) or lines[index] > (stmt.end_lineno or stmt.lineno):
                continue
        yield stmt
        fields = _NESTED.get(type(stmt))
        if fields is None:
            if hasattr(ast, "Match") and isinstance(stmt, ast.Match):
                for case in reversed(stmt.cases):
                    stack.extend(reversed(case.body))
            continue
        for handler in reversed(getattr(stmt, "handlers", ())):
            stack.extend(reversed(handler.body))
        for field in reversed(fields):
            stack.extend(reversed(getattr(stmt, field)))


class _Triggers:
    """What the imports of a module bind: names to look for, attributes to look for."""

    def __init__(self) -> None:
        self.names: set[str] = set()  # bound to a vLLM class/engine function or a process-starting function
        self.attributes: set[str] = set()  # attributes that reach one through a bound module
        self.project_import = False


def _imports(tree: ast.Module, path: str | None, project, lines: list[int] | None) -> _Triggers:
    """What the imports bind (``lines``: the lines that may hold an import, None: any)."""
    found = _Triggers()
    vllm_module = False
    for stmt in _statements(tree.body, lines):
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                top = alias.name.split(".")[0]
                bound_module = alias.name if alias.asname else top
                if symbols.is_vllm_module(bound_module):
                    vllm_module = True
                elif bound_module in STD_MODULES:  # ``import os``: ``os.execvp`` starts a process
                    found.attributes |= PROCESS_ATTRIBUTES.get(bound_module, frozenset())
                elif project is not None and project.find(path, bound_module, 0) is not None:
                    found.project_import = True
                    return found
        elif isinstance(stmt, ast.ImportFrom):
            module = stmt.module if stmt.level == 0 else None
            if symbols.is_vllm_module(module):
                for alias in stmt.names:
                    if alias.name == "*":
                        found.names |= symbols.KNOWN_CLASSES
                    elif alias.name in ENGINE_NAMES:
                        found.names.add(alias.asname or alias.name)
                    else:
                        vllm_module = True  # a vLLM module (or a name of one): its attributes may be classes
                continue
            project_checked = False
            for alias in stmt.names:
                if alias.name == "*":
                    continue
                if f"{module}.{alias.name}" in SUBPROCESS_CALLS:
                    found.names.add(alias.asname or alias.name)
                    continue
                if not project_checked and project is not None:
                    project_checked = True
                    if project.find(path, stmt.module, stmt.level) is not None:
                        found.project_import = True
                        return found
    if vllm_module:
        found.attributes |= ENGINE_NAMES
    return found


def _word_lines(text: str, words) -> list[int]:
    """The (sorted) line numbers where any of ``words`` occurs in ``text``."""
    positions: list[int] = []
    for word in words:
        index = text.find(word)
        while index >= 0:
            positions.append(index)
            index = text.find(word, index + len(word))
    positions.sort()
    lines: list[int] = []
    line, last = 1, 0
    for index in positions:
        line += text.count("\n", last, index)
        last = index
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


# Methods of a vLLM class the analyzer follows (``engines.EnginesMixin._class_method``): any other
# attribute of the class (``SamplingParams.for_sampler_warmup()``, ``ModelConfig.model``) is
# unknown code that builds nothing.
CLASS_METHODS = frozenset({"from_engine_args", "from_vllm_config", "from_cli_args"})
# Built-in type tests: ``isinstance(x, SamplingParams)`` reads the class and calls nothing.
_TYPE_TESTS = ("isinstance", "issubclass")


class _Context:
    """What one module's walk looks for."""

    def __init__(self, names: set[str], attributes: set[str], source: str | None) -> None:
        self.names = names
        self.attributes = attributes
        # The type tests the module never rebinds (every occurrence of the word is a call).
        self.type_tests = frozenset(name for name in _TYPE_TESTS if source is not None and _only_called(source, name))


def _only_called(text: str, name: str) -> bool:
    """Every occurrence of the identifier ``name`` in ``text`` is followed by ``(`` and is not
    the name of a ``def`` or ``class``: the module never binds it, so it is the builtin."""
    index = text.find(name)
    while index >= 0:
        end = index + len(name)
        before = text[index - 1] if index else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before == "_" or after.isalnum() or after == "_"):
            if not text[end:].lstrip(" \t").startswith("("):
                return False
            head = text[max(0, index - 40) : index].rstrip()
            if head.endswith(("def", "class")):
                return False
        index = text.find(name, end)
    return True


def _inert(node: ast.AST) -> bool:
    """Classes named as values only: a name, a dotted name (``vllm.SamplingParams``), a tuple of them."""
    stack = [node]
    while stack:
        node = stack.pop()
        while isinstance(node, ast.Attribute):
            node = node.value
        if isinstance(node, ast.Tuple):
            stack.extend(node.elts)
        elif not isinstance(node, ast.Name):
            return False
    return True


def _used(expr: ast.AST, ctx: _Context) -> bool:
    """A bound name read, or a watched attribute taken, anywhere in ``expr`` but in annotations,
    type tests and attributes of a class other than the methods the analyzer follows."""
    names, attributes = ctx.names, ctx.attributes
    stack = [expr]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is ast.Name:
            if node.id in names and not isinstance(node.ctx, ast.Store):
                return True
            continue
        if kind is ast.Attribute:
            if node.attr in attributes:
                return True
            base = node.value
            if (
                node.attr not in CLASS_METHODS
                and ((type(base) is ast.Name and base.id in names) or (type(base) is ast.Attribute and base.attr in attributes))
            ):
                # ``SamplingParams.for_sampler_warmup``: vLLM's own class method, not followed.
                if type(base) is ast.Attribute:
                    stack.append(base.value)
                continue
        elif kind is ast.arg:
            continue  # its annotation: never evaluated as a call target
        elif (
            kind is ast.Call
            and type(node.func) is ast.Name
            and node.func.id in ctx.type_tests
            and len(node.args) == 2
            and not node.keywords
            and _inert(node.args[1])
        ):
            stack.append(node.args[0])
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


# The nested statement lists, and the parts of a statement that are not evaluated where it
# stands (a function's signature, a handler's clauses, an annotation), are read on their own.
_NOT_EVALUATED = {kind: fields for kind, fields in _NESTED.items()}
for _kind, _extra in ((ast.FunctionDef, ("returns", "args")), (ast.AsyncFunctionDef, ("returns", "args")), (ast.Try, ("handlers",))):
    _NOT_EVALUATED[_kind] += _extra
if hasattr(ast, "TryStar"):
    _NOT_EVALUATED[ast.TryStar] += ("handlers",)
_NOT_EVALUATED[ast.AnnAssign] = ("annotation",)
if hasattr(ast, "Match"):
    _NOT_EVALUATED[ast.Match] = ("cases",)
del _kind, _extra


def _statement_uses(stmt: ast.stmt, ctx: _Context) -> bool:
    """The statement's own expressions (not its nested statements, visited on their own) read a
    bound name or a watched attribute outside annotations."""
    skipped = _NOT_EVALUATED.get(type(stmt))
    if skipped is None:
        return _used(stmt, ctx)
    for field in stmt._fields:
        if field in skipped:
            continue
        value = getattr(stmt, field)
        for item in value if isinstance(value, list) else (value,):
            if isinstance(item, ast.AST) and _used(item, ctx):
                return True
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        defaults = stmt.args.defaults + [d for d in stmt.args.kw_defaults if d is not None]
        if any(_used(default, ctx) for default in defaults):
            return True
    if isinstance(stmt, (ast.Try, getattr(ast, "TryStar", ast.Try))):
        if any(h.type is not None and _used(h.type, ctx) for h in stmt.handlers):
            return True
    if hasattr(ast, "Match") and isinstance(stmt, ast.Match):
        for case in stmt.cases:
            if _used(case.pattern, ctx) or (case.guard is not None and _used(case.guard, ctx)):
                return True
    return False


def could_find(tree: ast.Module, source: str | None = None, path: str | None = None, project=None) -> bool:
    """Whether the analyzer could report anything for ``tree`` (False: it certainly reports nothing).

    ``source`` is the text ``tree`` was parsed from (None: unknown, every statement is looked at);
    ``project`` is the analyzer's ``ProjectModules`` (None where it follows no imports: stdin)."""
    if source is not None and "\r" in source:  # the parser's line ends: \n, \r\n and \r
        source = source.replace("\r\n", "\n").replace("\r", "\n")
    import_lines = None if source is None else _word_lines(source, ("import",))
    triggers = _imports(tree, path, project, import_lines)
    if triggers.project_import or _has_command_hook(tree, source) or _has_container_dict(tree, source):
        return True
    words = triggers.names | triggers.attributes
    if not words:
        return False
    ctx = _Context(triggers.names, triggers.attributes, source)
    lines = None if source is None else _word_lines(source, words)
    return any(_statement_uses(stmt, ctx) for stmt in _statements(tree.body, lines))


def _has_command_hook(tree: ast.Module, source: str | None) -> bool:
    """A class with a command hook method in a module that imports the framework that runs it."""
    if source is not None and not any(hook in source for hook in COMMAND_HOOKS):
        return False
    for stmt in _statements(tree.body, None):
        if isinstance(stmt, ast.ClassDef):
            for item in stmt.body:
                framework = COMMAND_HOOKS.get(getattr(item, "name", "")) if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
                if framework is not None and imports_module(tree, framework):
                    return True
    return False


# A dict literal with a container's keys: ``"image": ...`` and ``"command": ...`` or ``"args": ...``
# (the same patterns on the text and, before parsing, on the bytes).
_IMAGE_KEY = r"[\"']image[\"']\s*:"
_COMMAND_KEY = r"[\"'](?:command|args)[\"']\s*:"
_IMAGE_KEY_TEXT, _COMMAND_KEY_TEXT = re.compile(_IMAGE_KEY), re.compile(_COMMAND_KEY)


def _has_container_dict(tree: ast.Module, source: str | None) -> bool:
    """A dict written with the keys of a Kubernetes container that runs a process
    (``subprocesses.container_dict``)."""
    if source is not None and not (
        "image" in source and _IMAGE_KEY_TEXT.search(source) and _COMMAND_KEY_TEXT.search(source)
    ):
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = {key.value for key in node.keys if isinstance(key, ast.Constant)}
            if "image" in keys and ("command" in keys or "args" in keys):
                return True
    return False


# ----------------------------------------------------------------- before parsing

_ENGINE_WORDS = tuple(sorted(name.encode() for name in ENGINE_NAMES))
# ``subprocess.*``, ``asyncio.create_subprocess_*``, ``os.exec*``, ``os.system``, ``os.popen`` and the command
# hooks need one of these in the text.
_PROCESS_WORDS = (b"subprocess", b"execv", b"execl", *(hook.encode() for hook in COMMAND_HOOKS))
_PROCESS_NAMES = (b"system", b"popen")  # whole names: "system" is a common part of others
_RELATIVE_IMPORT = re.compile(rb"from[\s\\]*\.")
_CONTAINER_IMAGE_KEY = re.compile(_IMAGE_KEY.encode())
_CONTAINER_COMMAND_KEY = re.compile(_COMMAND_KEY.encode())


def _names(data: bytes, word: bytes) -> bool:
    """``word`` stands as a whole name somewhere in ``data``: ``LLM`` in ``vLLM`` or ``VLLM_PORT``
    is not the class (an import binds, and code reads, only whole names)."""
    index = data.find(word)
    while index >= 0:
        end = index + len(word)
        if (index == 0 or data[index - 1] not in NAME_BYTES) and (end == len(data) or data[end] not in NAME_BYTES):
            return True
        index = data.find(word, end)
    return False


def byte_triggers(data: bytes, path: str | None, project) -> bool:
    """Whether the text could hold what ``could_find`` looks for: a word of the vLLM names or of
    the process-starting functions, a relative import, or the name of a top-level module of the
    project.  False only when ``could_find`` would be False for any parse of these bytes."""
    if any(_names(data, word) for word in _ENGINE_WORDS) or any(word in data for word in _PROCESS_WORDS):
        return True
    if any(_names(data, word) for word in _PROCESS_NAMES):
        return True
    if b"image" in data and _CONTAINER_IMAGE_KEY.search(data) and _CONTAINER_COMMAND_KEY.search(data):
        return True  # a Kubernetes container written as a dict
    if project is None or path is None or b"import" not in data:
        return False
    if _RELATIVE_IMPORT.search(data) is not None:
        return True
    return any(name.encode() in data for name in project.top_level_names(path))
