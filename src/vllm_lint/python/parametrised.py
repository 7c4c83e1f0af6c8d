"""pytest parametrisation: which names a fixture or test binds, and to what, on each run.

``@pytest.fixture(params=[...])`` runs the fixture once per value with ``request.param``
bound to it; ``@pytest.mark.parametrize("a, b", [(1, 2), (3, 4)])`` runs the test once per
row with its arguments bound (several decorators: every combination).  The resolver reads
these as a sweep: the body once per arm, an engine started in it one engine per arm.
Only the syntax is read here; the values are evaluated by the analysis, where a module
constant (also one imported from another project module) is known.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from vllm_lint.python.calls import call_name

# A parametrised body with more arms than this is analysed once with its arguments unknown.
MAX_PARAMETRISED_ARMS = 16

# The argument through which a fixture reads its parameter.
FIXTURE_REQUEST = "request"


@dataclass(frozen=True)
class Parametrisation:
    """One decorator: the argument names it binds (``None``: a fixture's ``request.param``)
    and the expression of its values."""

    names: tuple[str, ...] | None
    values: ast.expr


def _is_mark(func: ast.expr) -> bool:
    """``pytest.mark.parametrize`` or ``mark.parametrize``."""
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "parametrize"
        and call_name(func.value) == "mark"
    )


def _argument_names(node: ast.expr) -> tuple[str, ...] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        names = tuple(name.strip() for name in node.value.split(",") if name.strip())
        return names or None
    if isinstance(node, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return tuple(e.value for e in node.elts) or None
    return None


# Calls a collection of values may be spelled with: ``list(CONFIGS.keys())``, ``sorted(CONFIGS)``.
_COLLECTION_CALLS = frozenset({"list", "tuple", "sorted", "keys", "values", "items"})


def _spelled_out(values: ast.expr) -> bool:
    """The values are data (literals, names, subscripts, ``list(D.keys())``), not computed by
    other code at collection time (a function that reads the environment or a file)."""
    wrapped = pytest_param_values(values)
    if wrapped is not None:
        return all(_spelled_out(value) for value in wrapped)  # its marks are not values
    if isinstance(values, ast.Call) and call_name(values.func) not in _COLLECTION_CALLS:
        return False
    return all(_spelled_out(child) for child in ast.iter_child_nodes(values) if isinstance(child, ast.expr))


def parametrisations(function: ast.AST) -> list[Parametrisation]:
    """The parametrising decorators of ``function``, outermost first; empty when there are
    none or one is not understood (an ``indirect`` parametrisation, names not spelled out)."""
    found: list[Parametrisation] = []
    arguments = {a.arg for a in function.args.posonlyargs + function.args.args + function.args.kwonlyargs}
    for decorator in getattr(function, "decorator_list", ()):
        if not isinstance(decorator, ast.Call):
            continue
        keywords = {k.arg: k.value for k in decorator.keywords if k.arg is not None}
        if _is_mark(decorator.func):
            if "indirect" in keywords:
                return []  # the values go to fixtures, not to the test's arguments
            names_node = decorator.args[0] if decorator.args else keywords.get("argnames")
            values = decorator.args[1] if len(decorator.args) > 1 else keywords.get("argvalues")
            names = _argument_names(names_node) if names_node is not None else None
            if names is None or values is None or not set(names) <= arguments or not _spelled_out(values):
                return []
            if _reads(function, set(names)):  # a value the body never reads changes nothing
                found.append(Parametrisation(names, values))
        elif call_name(decorator.func) == "fixture" and "params" in keywords:
            if FIXTURE_REQUEST not in arguments:
                continue  # a fixture that never reads its parameter
            if not _spelled_out(keywords["params"]):
                return []
            if _reads(function, {FIXTURE_REQUEST}):
                found.append(Parametrisation(None, keywords["params"]))
    return found


def _reads(function: ast.AST, names: set[str]) -> bool:
    return any(
        isinstance(node, ast.Name) and node.id in names
        for statement in function.body
        for node in ast.walk(statement)
    )


def pytest_param_values(node: ast.AST) -> list[ast.expr] | None:
    """``pytest.param(v1, v2, marks=...)``: the values it wraps; None for anything else."""
    if isinstance(node, ast.Call) and call_name(node.func) == "param" and not any(
        isinstance(a, ast.Starred) for a in node.args
    ):
        return list(node.args)
    return None
