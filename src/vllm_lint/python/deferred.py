"""Calls that call their first argument later: deferred construction.

``lp.CourierNode(Actor, server, engine_kwargs)`` (launchpad) constructs ``Actor(server,
engine_kwargs)`` in the node's own process; ``multiprocessing.Process(target=serve,
args=(cfg,), kwargs={...})`` and ``threading.Thread(...)`` run ``serve(cfg, ...)`` when started;
``executor.submit(build, cfg)`` runs ``build(cfg)``.  Each is read as the direct call it makes:
the class's ``__init__`` (or the function) runs with those arguments, and the call is a call
site of that class or function for the analysis of its callers (``callers.py``).

The table says, for each callable (by the import it resolves to), where the called object is
and where the arguments it receives are; the call it makes is rebuilt as a syntax node at the
same position, so that everything that reads a direct call reads it unchanged.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True)
class DeferredCall:
    """Where a deferring call keeps the callable and the arguments it receives.

    ``target``/``target_keyword``: the positional index and keyword of the callable.
    ``forwards_rest``: every other argument is passed on as written (``CourierNode(cls, *a, **kw)``,
    ``submit(fn, *a, **kw)``).  Otherwise ``args``/``kwargs`` name the positional index and
    keyword of a sequence and a mapping unpacked into the call (``Process(target=f, args=(...),
    kwargs={...})``); the remaining keywords are the deferring call's own."""

    target: int
    target_keyword: str | None
    forwards_rest: bool
    args: tuple[int, str] | None = None
    kwargs: tuple[int, str] | None = None


_FORWARDING = DeferredCall(0, None, True)
# ``Process(group=None, target=None, name=None, args=(), kwargs={}, *, daemon=None)``, ``Thread`` alike.
_PROCESS = DeferredCall(1, "target", False, (3, "args"), (4, "kwargs"))

EXECUTOR = "concurrent.futures.Executor"  # what an executor class's call returns
# Resolved import -> how it defers.  Executors' ``submit`` is reached as a method of the object a
# ``ThreadPoolExecutor(...)``/``ProcessPoolExecutor(...)`` call returns (``EXECUTOR_CLASSES``).
DEFERRED_CALLS: dict[str, DeferredCall] = {
    "launchpad.CourierNode": _FORWARDING,
    "launchpad.PyNode": _FORWARDING,
    "launchpad.PyClassNode": _FORWARDING,
    "multiprocessing.Process": _PROCESS,
    "threading.Thread": _PROCESS,
    f"{EXECUTOR}.submit": _FORWARDING,
}

EXECUTOR_CLASSES = frozenset(
    {"concurrent.futures.ThreadPoolExecutor", "concurrent.futures.ProcessPoolExecutor"}
)
# Names whose attributes the resolver follows for this table: the modules (``import launchpad as
# lp``: ``lp.CourierNode``) and what an executor class's call returns (``ex.submit``).
DEFERRING_MODULES = frozenset(
    {"launchpad", "multiprocessing", "threading", "concurrent", "concurrent.futures", "concurrent.futures.Executor"}
)
# ``torch.multiprocessing`` re-exports ``multiprocessing``'s names.
MODULE_ALIASES = {"torch.multiprocessing": "multiprocessing"}
# launchpad nodes pickle their arguments for the node's process: the caller's objects never change.
COPYING_SPELLINGS = frozenset({"CourierNode", "PyNode", "PyClassNode"})
# The names a function's body may spell a deferring call with (a cheap syntactic test only).
SPELLINGS = frozenset(path.rsplit(".", 1)[1] for path in DEFERRED_CALLS)


def deferred_name(module: str | None, name: str) -> str | None:
    """The table's name for ``from <module> import <name>`` (None when not one of its callables)."""
    module = MODULE_ALIASES.get(module or "", module)
    dotted = f"{module}.{name}"
    if dotted in DEFERRED_CALLS or dotted in EXECUTOR_CLASSES:
        return dotted
    if dotted in ("multiprocessing.get_context", "concurrent.futures"):
        return dotted
    return None


@dataclass
class Deferral:
    """One deferring call, split: the callable's expression, the call it makes (a syntax node at
    the deferring call's position), and the deferring call's own arguments."""

    target: ast.AST
    call: ast.Call
    own: list[ast.AST]


def split(spec: DeferredCall, node: ast.Call) -> Deferral | None:
    """The call ``node`` makes later, or None when its callable is not written in it.  Made once
    per node: every pass of an analysis, and every analysis of the module, reads the same call."""
    made = getattr(node, "_vllm_lint_deferral", None)
    if made is None or made[0] is not spec:
        made = (spec, _split(spec, node))
        node._vllm_lint_deferral = made
    return made[1]


def _split(spec: DeferredCall, node: ast.Call) -> Deferral | None:
    target = _argument(node, spec.target, spec.target_keyword)
    if target is None:
        return None
    if spec.forwards_rest:
        if any(isinstance(a, ast.Starred) for a in node.args[: spec.target + 1]):
            return None
        args = [a for a in node.args if a is not target]
        keywords = [k for k in node.keywords if k.value is not target]
        return Deferral(target, _call_at(node, target, args, keywords), [])
    if any(isinstance(a, ast.Starred) for a in node.args):
        return None
    own = [a for a in node.args if a is not target] + [k.value for k in node.keywords if k.value is not target]
    args: list[ast.AST] = []
    keywords: list[ast.keyword] = []
    passed = _argument(node, *spec.args) if spec.args else None
    if passed is not None:
        own.remove(passed)
        if isinstance(passed, (ast.Tuple, ast.List)):
            args = list(passed.elts)
        else:
            args = [ast.copy_location(ast.Starred(passed, ast.Load()), passed)]
    mapping = _argument(node, *spec.kwargs) if spec.kwargs else None
    if mapping is not None:
        own.remove(mapping)
        if isinstance(mapping, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in mapping.keys):
            keywords = [ast.copy_location(ast.keyword(k.value, v), v) for k, v in zip(mapping.keys, mapping.values)]
        else:
            keywords = [ast.copy_location(ast.keyword(None, mapping), mapping)]
    return Deferral(target, _call_at(node, target, args, keywords), own)


def _argument(node: ast.Call, position: int, keyword: str | None) -> ast.AST | None:
    for item in node.keywords:
        if keyword is not None and item.arg == keyword:
            return item.value
    if position < len(node.args) and not any(isinstance(a, ast.Starred) for a in node.args[: position + 1]):
        return node.args[position]
    return None


def _call_at(node: ast.Call, target: ast.AST, args: list, keywords: list) -> ast.Call:
    """``target(*args, **keywords)`` at the deferring call's position: the analysis of callers
    finds it there, and engines it builds are reported there."""
    call = ast.Call(target, args, keywords)
    call.lineno, call.col_offset = node.lineno, node.col_offset
    call.end_lineno, call.end_col_offset = node.end_lineno, node.end_col_offset
    return call


def spelled_target(node: ast.Call) -> ast.AST | None:
    """The callable a call spelled like a deferring one names (syntax only: ``callers.py`` and
    the test for functions that call a parameter confirm it against the file's imports)."""
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    if name not in SPELLINGS:
        return None
    for path, spec in DEFERRED_CALLS.items():
        if path.rsplit(".", 1)[1] == name:
            return _argument(node, spec.target, spec.target_keyword)
    return None
