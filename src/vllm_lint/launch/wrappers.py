"""Project modules that start vLLM's OpenAI server with vLLM's own parser.

RL frameworks ship their own server entry points (AReaL's
``areal_vllm_server``, prime-rl's inference server and the like): a module
whose ``__main__`` block builds vLLM's parser (``make_arg_parser`` on a
``FlexibleArgumentParser``), parses the process's command line and hands the
result to vLLM's ``run_server`` (often ``uvloop.run(run_server(args))``).
``python -m that.module --flags`` then reads its flags exactly as
``python -m vllm.entrypoints.openai.api_server`` does: every ``vllm serve``
option, ``--model`` for the model (the positional ``model_tag`` is read only
when the module copies it into ``args.model``), ``--config`` files.

What such a module does to the parsed arguments is read too, cheaply and on
that one file: a setting it assigns (``args.logprobs_mode = ...``) is unknown;
arguments handed to code other than vLLM's entry points, a command line built
by the module itself (``parse_args([...])``, ``namespace=``, ``sys.argv``
edits), or a runner other than vLLM's make it no wrapper we read (unknown).
``os.environ`` writes with literal values in straight-line module code are
applied to the server's environment; any other environment write, or an
import of another project module (which may write it), makes the environment
unknown.  Each file is classified once per run (keyed by its size and mtime).
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass

from vllm_lint.facts import ABSENT, UNKNOWN
from vllm_lint.launch.flags import Dialect
from vllm_lint.launch.project import module_file, project_root, script_file

MAX_MODULE_BYTES = 2 * 1024 * 1024
# vLLM functions that serve a parsed namespace (vllm/entrypoints/openai/api_server.py, cli/serve.py).
RUNNERS = frozenset({"run_server", "run_server_worker", "run_headless", "run_multi_api_server"})
# vLLM functions that read the namespace without changing the engine's settings.
READERS = frozenset({"validate_parsed_serve_args", "cli_env_setup", "configure_logging_from_args", "log_non_default_args"})


@dataclass(frozen=True)
class Wrapper:
    """A server module and how it reads its command line."""

    path: str
    dialect: Dialect
    env_writes: tuple[tuple[str, str, str | None], ...] = ()  # (set | setdefault | unset, key, value)
    env_unknown: bool = False

    def environment(self, env: dict[str, object], env_open: bool) -> tuple[dict[str, object], bool]:
        """The environment vLLM sees once the module's own writes ran."""
        if self.env_unknown:
            return {}, True
        env = dict(env)
        for action, key, value in self.env_writes:
            if action == "set":
                env[key] = value
            elif action == "unset":
                env[key] = ABSENT
            else:  # setdefault: the caller's value when it has one
                current = env.get(key, UNKNOWN if env_open else ABSENT)
                env[key] = value if current is ABSENT else current
        return env, env_open


class WrapperFinder:
    """Looks up server wrappers in the project of one linted file."""

    def __init__(self, linted_path: str | None) -> None:
        self.linted_path = linted_path if linted_path not in (None, "", "-", "stdin", "<stdin>") else None
        self._root: str | None | bool = False

    @property
    def root(self) -> str | None:
        if self._root is False:
            self._root = project_root(self.linted_path) if self.linted_path else None
        return self._root  # type: ignore[return-value]

    def module(self, dotted: str) -> Wrapper | None:
        """``python -m dotted``."""
        if self.root is None:
            return None
        path = module_file(self.root, dotted)
        return classify(path, self.root) if path else None

    def script(self, text: str) -> Wrapper | None:
        """``python path/to/module.py``."""
        if self.linted_path is None:
            return None
        path = script_file(self.root, self.linted_path, text)
        return classify(path, self.root) if path else None


_cache: dict[tuple[str, int, int], Wrapper | None] = {}


def classify(path: str, root: str | None) -> Wrapper | None:
    """The wrapper a file is, or None (also for files that cannot be read or parsed)."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    key = (path, stat.st_size, stat.st_mtime_ns)
    if key not in _cache:
        _cache[key] = _classify(path, root, stat.st_size)
    return _cache[key]


def _classify(path: str, root: str | None, size: int) -> Wrapper | None:
    if size > MAX_MODULE_BYTES:
        return None
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    # Cheap test first: most modules a command line runs are not servers.
    if b"vllm" not in data or b"make_arg_parser" not in data or b"__main__" not in data:
        return None
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return _Reader(tree, root).wrapper(path)


def _vllm_names(tree: ast.Module) -> tuple[dict[str, str], set[str]]:
    """Names bound to vLLM objects (``from vllm... import x``) and to vLLM modules (``import vllm... as m``)."""
    names: dict[str, str] = {}
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.split(".")[0] == "vllm":
            for alias in node.names:
                names[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "vllm":
                    modules.add(alias.asname or alias.name.split(".")[0])
    return names, modules


def _is_main_guard(node: ast.stmt) -> bool:
    test = getattr(node, "test", None)
    return (
        isinstance(node, ast.If)
        and isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


class _Reader:
    def __init__(self, tree: ast.Module, root: str | None) -> None:
        self.tree = tree
        self.root = root
        self.vllm, self.vllm_modules = _vllm_names(tree)
        self.functions = {node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def vllm_callee(self, func: ast.AST) -> str | None:
        """The vLLM function a call reaches (``run_server``, ``api_server.run_server``), by its own name."""
        if isinstance(func, ast.Name) and func.id in self.vllm:
            return self.vllm[func.id]
        if isinstance(func, ast.Attribute):
            base = func.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in self.vllm_modules:
                return func.attr
        return None

    def main_path(self) -> list[ast.stmt] | None:
        """The statements ``python -m module`` runs: the ``__main__`` block and a function it calls."""
        guards = [node for node in self.tree.body if _is_main_guard(node)]
        if len(guards) != 1:
            return None
        body = list(guards[0].body)
        for node in ast.walk(guards[0]):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.functions:
                body.extend(self.functions[node.func.id].body)
        return body

    def wrapper(self, path: str) -> Wrapper | None:
        if "make_arg_parser" not in self.vllm.values() or "FlexibleArgumentParser" not in self.vllm.values():
            return None
        body = self.main_path()
        if body is None or self._edits_argv():
            return None
        nodes = [inner for statement in body for inner in ast.walk(statement)]
        calls = [node for node in nodes if isinstance(node, ast.Call)]
        if not any(self.vllm_callee(call.func) == "make_arg_parser" for call in calls):
            return None
        parses = [call for call in calls if isinstance(call.func, ast.Attribute) and call.func.attr in ("parse_args", "parse_known_args")]
        if len(parses) != 1 or not _reads_process_argv(parses[0]):
            return None
        namespace = _assigned_name(body, parses[0])
        if namespace is None:
            return None
        served = False
        copies_model_tag = False
        overridden: set[str] = set()
        for node in nodes:
            if isinstance(node, ast.Call):
                callee = self.vllm_callee(node.func)
                passes = any(isinstance(arg, ast.Name) and arg.id == namespace for arg in node.args) or any(
                    isinstance(kw.value, ast.Name) and kw.value.id == namespace for kw in node.keywords
                )
                if not passes:
                    continue
                if callee in RUNNERS:
                    served = True
                elif callee not in READERS and not _only_shows(node.func):
                    return None  # the namespace goes to code we do not read
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == namespace:
                        value = getattr(node, "value", None)
                        if target.attr == "model" and _is_attribute(value, namespace, "model_tag"):
                            copies_model_tag = True
                        else:
                            overridden.add(target.attr)
                    elif isinstance(target, ast.Name) and target.id == namespace and node is not _parent_assign(body, parses[0]):
                        return None  # the name is rebound: not the parsed namespace any more
        if not served:
            return None
        dialect = Dialect(
            "wrapper",
            config="parser",
            positional_model=copies_model_tag,
            overridden=frozenset(overridden),
        )
        env_writes, env_unknown = self._environment(body)
        return Wrapper(path, dialect, env_writes, env_unknown)

    def _edits_argv(self) -> bool:
        for node in ast.walk(self.tree):
            target = None
            if isinstance(node, (ast.Assign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                target = next((t for t in targets if _is_sys_argv(t) or (isinstance(t, ast.Subscript) and _is_sys_argv(t.value))), None)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is_sys_argv(node.func.value):
                target = node
            if target is not None:
                return True
        return False

    def _environment(self, body: list[ast.stmt]) -> tuple[tuple[tuple[str, str, str | None], ...], bool]:
        """Literal ``os.environ`` writes in straight-line code; anything else makes the environment unknown."""
        straight = [s for s in self.tree.body if not _is_main_guard(s)] + body
        writes: list[tuple[str, str, str | None]] = []
        modelled: set[int] = set()
        for statement in straight:
            write = _environ_write(statement)
            if write is not None:
                writes.append(write)
                modelled.update(id(node) for node in ast.walk(statement))
        if any(_touches_environ(node) for node in ast.walk(self.tree) if id(node) not in modelled):
            return (), True
        if self._imports_project_module():
            return (), True  # another project module may write the environment when imported
        return tuple(writes), False

    def _imports_project_module(self) -> bool:
        if self.root is None:
            return True
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                return True
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                top = name.split(".")[0]
                if top == "vllm":
                    continue
                for base in (self.root, os.path.join(self.root, "src")):
                    if os.path.isfile(os.path.join(base, top + ".py")) or os.path.isdir(os.path.join(base, top)):
                        return True
        return False


def _only_shows(func: ast.AST) -> bool:
    """``print(args)``, ``logger.info("%s", args)``: reads the namespace, changes nothing."""
    if isinstance(func, ast.Name):
        return func.id in ("print", "repr", "str")
    return isinstance(func, ast.Attribute) and func.attr in ("debug", "info", "warning", "error", "exception", "log", "critical")


def _is_sys_argv(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "argv" and isinstance(node.value, ast.Name) and node.value.id == "sys"


def _is_attribute(node: ast.AST | None, name: str, attribute: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == attribute and isinstance(node.value, ast.Name) and node.value.id == name


def _reads_process_argv(call: ast.Call) -> bool:
    """``parse_args()`` or ``parse_args(sys.argv[1:])``: the command line is the process's, and only it."""
    if call.keywords:
        return False  # namespace= pre-sets values; args= a list the module builds
    if not call.args:
        return True
    if len(call.args) != 1:
        return False
    arg = call.args[0]
    return (
        isinstance(arg, ast.Subscript)
        and _is_sys_argv(arg.value)
        and isinstance(arg.slice, ast.Slice)
        and isinstance(arg.slice.lower, ast.Constant)
        and arg.slice.lower.value == 1
        and arg.slice.upper is None
    )


def _parent_assign(body: list[ast.stmt], call: ast.Call) -> ast.stmt | None:
    for statement in body:
        for node in ast.walk(statement):
            if isinstance(node, ast.Assign) and node.value is call:
                return node
    return None


def _assigned_name(body: list[ast.stmt], call: ast.Call) -> str | None:
    """The name the parsed namespace is bound to: ``args = p.parse_args()``, ``args, _ = p.parse_known_args()``."""
    assign = _parent_assign(body, call)
    if assign is None or len(assign.targets) != 1:
        return None
    target = assign.targets[0]
    if isinstance(target, ast.Name) and call.func.attr == "parse_args":  # type: ignore[attr-defined]
        return target.id
    if isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name) and call.func.attr == "parse_known_args":  # type: ignore[attr-defined]
        return target.elts[0].id
    return None


def _is_environ(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ" and isinstance(node.value, ast.Name) and node.value.id == "os"


def _literal(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _environ_write(statement: ast.stmt) -> tuple[str, str, str | None] | None:
    """``os.environ["K"] = "v"``, ``os.environ.setdefault("K", "v")``, ``os.environ.pop("K"[, d])``, ``del os.environ["K"]``."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Subscript) and _is_environ(target.value):
            key, value = _literal(target.slice), _literal(statement.value)
            if key is not None and value is not None:
                return ("set", key, value)
    if isinstance(statement, ast.Delete) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Subscript) and _is_environ(target.value) and _literal(target.slice) is not None:
            return ("unset", _literal(target.slice), None)  # type: ignore[return-value]
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        call = statement.value
        func = call.func
        if isinstance(func, ast.Attribute) and _is_environ(func.value) and not call.keywords:
            key = _literal(call.args[0]) if call.args else None
            if key is None:
                return None
            if func.attr == "setdefault" and len(call.args) == 2 and _literal(call.args[1]) is not None:
                return ("setdefault", key, _literal(call.args[1]))
            if func.attr == "pop" and len(call.args) in (1, 2):
                return ("unset", key, None)
    return None


def _touches_environ(node: ast.AST) -> bool:
    """A write to the process environment this module does not model."""
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
        return any(_is_environ(t) or (isinstance(t, ast.Subscript) and _is_environ(t.value)) for t in targets)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        func = node.func
        if _is_environ(func.value) and func.attr in ("update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__"):
            return True
        if isinstance(func.value, ast.Name) and func.value.id == "os" and func.attr in ("putenv", "unsetenv"):
            return True
    return False
