"""Generate vLLM's argument schema from release wheels: ``src/vllm_lint/launch/vllm_schema.json``
(every engine argument of every release) and ``serve_options.json`` (how many values each
``vllm serve`` option takes, 0.28-0.34).

    python tools/vllm_schema.py                     # regenerate from the releases the schema lists
    python tools/vllm_schema.py --add 0.35.0        # add a release (pip download --no-deps vllm==0.35.0)
    python tools/vllm_schema.py --check             # exit 1 when a committed file differs
    python tools/vllm_schema.py 0.33.0 0.34.0       # exactly these releases

Wheels are looked up in ``$VLLM_LINT_WHEELS`` (folders separated by ``os.pathsep``), then
``~/.cache/vllm-lint/wheels`` (``$VLLM_LINT_CACHE``), where a missing one is downloaded with
``pip download --no-deps``.  Nothing is imported from vLLM: its sources are read with ``ast``.

Per release the schema holds:

* every option string of ``vllm serve`` (``EngineArgs.add_cli_args``,
  ``AsyncEngineArgs.add_cli_args``, ``make_arg_parser`` with the ``FrontendArgs``
  dataclass fields, the ``serve`` subcommand's own), short aliases, ``--no-x`` for
  ``BooleanOptionalAction`` and ``--disable-x`` for ``--enable-x`` (and ``--enable-x`` for
  ``--disable-x``) where the release has ``EnableDisableAction``; each with the ``dest`` it sets (``"?"``: a ``--no-x`` a custom
  action may add, which the linter treats as existing);
* the keywords of ``LLM.__init__`` (with ``EngineArgs``' fields when it takes ``**kwargs``),
  ``EngineArgs`` and ``AsyncEngineArgs`` (dataclass fields, base classes included);
* per dest, the accepted values where they are a closed set: ``cli`` from an explicit
  literal ``choices=`` or a config field typed ``Literal[...]`` (aliases resolved, through
  vLLM's imports, re-exports and ``from x import *``; a
  ``| str`` member makes argparse use ``metavar``, no check; a member that takes no
  string, ``torch.dtype``, does not: ``get_kwargs`` still gives ``choices``), the same for
  the server's ``FrontendArgs`` fields; ``config`` what the config field validates at
  start-up (the same ``Literal`` reading, the members of an ``IntEnum``, or a
  ``@field_validator`` that admits only a ``Literal`` alias's members, with the head of
  its message in ``message``: ``kv_cache_dtype``, 0.33+); ``python`` from the
  ``EngineArgs`` field's own annotation read the same way; a ``type``/``choices``
  changed after ``get_kwargs`` leaves ``cli`` out;
* per dest, the ``Field(ge=, gt=, le=, lt=)`` bounds of the config field it spreads
  (constant arithmetic such as ``2**32 - 1`` evaluated);
* per dest whose config field holds one ``@config`` dataclass (``--compilation-config``,
  ``--speculative-config``), where the release's ``@config`` forbids extra fields: the
  class and the fields its JSON value may name (``keys``), with the closed ``Literal`` values
  of those fields pydantic checks as written (``choices``: no ``before`` validator first);
* the renames the release's own deprecation messages document (``release_renames``):
  per old argument, its successor, the value the message writes with it, how a fix may
  rewrite it, the message, and (across releases) the first and last release whose
  source carries it.

Option kinds in ``serve_options.json``, derived as ``get_kwargs`` derives them:

* ``bool``: ``BooleanOptionalAction`` (``--x`` / ``--no-x``), no value;
* ``flag``: ``store_true`` and the like, no value;
* ``one``: exactly one value;
* ``optional``: ``nargs="?"``; ``many``: a list of values;
* ``unknown``: anything this reader cannot decide (a custom action, an
  ``nargs``/``action`` changed after ``get_kwargs``, a type it cannot resolve).

A doubt is always the permissive answer (``unknown``, ``"?"``, no choices), so that
the linter never reports what vLLM accepts.
"""

from __future__ import annotations

import argparse
import ast
import copy
import itertools
import json
import re
import sys
import zipfile
from pathlib import Path

import os
import subprocess

OUTPUT = Path(__file__).resolve().parents[1] / "src" / "vllm_lint" / "launch" / "serve_options.json"
SCHEMA = Path(__file__).resolve().parents[1] / "src" / "vllm_lint" / "launch" / "vllm_schema.json"
# The releases serve_options.json covers (the option kinds the command-line reader needs).
SUPPORTED = ("0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0", "0.34.0")
BUILTIN_ONE = {"int", "float", "str", "dict", "Any", "bytes", "Path"}
COLLECTIONS = {"list", "tuple", "set", "List", "Tuple", "Set", "Sequence", "frozenset"}
NO_VALUE_ACTIONS = {"store_true", "store_false", "store_const", "count", "help", "version"}
# Hints that stand for their first argument: argparse's get_kwargs unwraps Annotated, and
# pydantic's SkipValidation[X] is Annotated[X, SkipValidation()].
TRANSPARENT = {"Annotated", "SkipValidation"}


class Tree:
    """The ``vllm`` package's modules in a wheel, parsed on demand."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        self.archive = archive
        self.names = set(archive.namelist())
        self.modules: dict[str, ast.Module | None] = {}

    def module(self, dotted: str) -> ast.Module | None:
        if dotted not in self.modules:
            tree = None
            for candidate in (dotted.replace(".", "/") + ".py", dotted.replace(".", "/") + "/__init__.py"):
                if candidate in self.names:
                    tree = ast.parse(self.archive.read(candidate).decode("utf-8"))
                    break
            self.modules[dotted] = tree
        return self.modules[dotted]

    def lookup(self, dotted: str, name: str, depth: int = 0):
        """The class or type alias bound to ``name`` in a module, following vLLM-internal imports."""
        tree = self.module(dotted)
        if tree is None or depth > 8:
            return None
        runtime = self._runtime_fallback(tree, name)
        if runtime is not None:
            return ("alias", dotted, runtime)
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                return ("class", dotted, node)
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                return ("alias", dotted, node.value)
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name and node.value is not None:
                return ("alias", dotted, node.value)
            if isinstance(node, ast.TypeAlias) if hasattr(ast, "TypeAlias") else False:  # pragma: no cover - 3.12+
                if node.name.id == name:
                    return ("alias", dotted, node.value)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or node.level):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        source = self.absolute(dotted, node.module, node.level)
                        if source.split(".")[0] != "vllm":
                            return ("external", source, alias.name)
                        return self.lookup(source, alias.name, depth + 1)
        # ``from .types import *`` (vllm/renderers/chat_utils/__init__.py, 0.33+): the name is
        # bound when the module star-exports it (its ``__all__``, or any public name without one).
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and [alias.name for alias in node.names] == ["*"]:
                source = self.absolute(dotted, node.module, node.level)
                if source.split(".")[0] != "vllm" or source == dotted or not self.star_exports(source, name):
                    continue
                found = self.lookup(source, name, depth + 1)
                if found is not None:
                    return found
        return None

    @staticmethod
    def _runtime_fallback(tree: ast.Module, name: str) -> ast.AST | None:
        """The value of ``name = ...`` in the ``else:`` of ``if TYPE_CHECKING:`` when that is the
        module's last binding of the name: what the module holds at run time, whatever the
        imports before it say (``QuantizationMethods = Any`` in 0.10's ``vllm/config``)."""
        last = None
        for node in tree.body:
            if isinstance(node, ast.If) and ast.unparse(node.test).rsplit(".", 1)[-1] == "TYPE_CHECKING":
                for inner in node.orelse:
                    if isinstance(inner, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in inner.targets):
                        last = inner.value
                continue
            bound = isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name == name
            bound = bound or isinstance(node, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name) == name for a in node.names)
            bound = bound or isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
            bound = bound or isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name
            if bound:
                last = None
        return last

    def star_exports(self, dotted: str, name: str) -> bool:
        """Whether ``from dotted import *`` binds ``name``: listed in a literal ``__all__``; without
        one (or with one this reader cannot list), any name that does not start with ``_``."""
        tree = self.module(dotted)
        if tree is None:
            return False
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
                if isinstance(node.value, (ast.List, ast.Tuple)) and all(
                    isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.value.elts
                ):
                    return name in {e.value for e in node.value.elts}
                break
        return not name.startswith("_")

    def absolute(self, dotted: str, module: str | None, level: int) -> str:
        if level == 0:
            return module or ""
        is_package = dotted.replace(".", "/") + "/__init__.py" in self.names
        parts = dotted.split(".")
        base = parts if is_package else parts[:-1]
        base = base[: len(base) - (level - 1)] if level > 1 else base
        return ".".join(base + ([module] if module else []))


def dataclass_fields(tree: Tree, dotted: str, cls: ast.ClassDef, depth: int = 0) -> dict[str, tuple[str, ast.AST]]:
    """Field name -> (module, annotation), base classes first."""
    found: dict[str, tuple[str, ast.AST]] = {}
    if depth < 6:
        for base in cls.bases:
            if isinstance(base, ast.Name):
                bound = tree.lookup(dotted, base.id)
                if bound is not None and bound[0] == "class":
                    found.update(dataclass_fields(tree, bound[1], bound[2], depth + 1))
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if "ClassVar" in ast.unparse(node.annotation) or "InitVar" in ast.unparse(node.annotation):
                continue
            found[node.target.id] = (dotted, node.annotation)
    return found


def _unquoted(node: ast.AST) -> ast.AST | None:
    """A hint written as a string (``"int | None"``) as the expression it spells; None if it is not one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return None
    return node


def _hints(tree: Tree, dotted: str, node: ast.AST, depth: int = 0) -> list[tuple[str, object]] | None:
    """The members of a type hint's union, each ("name", text) or ("generic", origin); None when unresolved."""
    if depth > 10:
        return None
    node = _unquoted(node)
    if node is None:
        return None
    if isinstance(node, ast.Constant) and node.value is None:
        return [("name", "None")]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left = _hints(tree, dotted, node.left, depth + 1)
        right = _hints(tree, dotted, node.right, depth + 1)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.Subscript):
        origin = ast.unparse(node.value).rsplit(".", 1)[-1]
        if origin in ("Optional",):
            inner = _hints(tree, dotted, node.slice, depth + 1)
            return None if inner is None else inner + [("name", "None")]
        if origin == "Union":
            members = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            result: list = []
            for member in members:
                inner = _hints(tree, dotted, member, depth + 1)
                if inner is None:
                    return None
                result += inner
            return result
        if origin in TRANSPARENT:
            first = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) else node.slice
            return _hints(tree, dotted, first, depth + 1)
        return [("generic", origin)]
    if isinstance(node, (ast.Name, ast.Attribute)):
        name = node.id if isinstance(node, ast.Name) else node.attr
        if name in BUILTIN_ONE or name in ("bool", "None") or name in COLLECTIONS:
            return [("name", name)]
        if isinstance(node, ast.Attribute):
            return [("class", name)]  # torch.dtype and the like: not builtins
        bound = tree.lookup(dotted, name)
        if bound is None:
            return None
        if bound[0] == "class":
            return [("class", name)]
        if bound[0] == "external":
            if name in ("Literal", "Any"):
                return [("name", name)]
            return [("class", name)]
        return _hints(tree, bound[1], bound[2], depth + 1)
    return None


def kind_of_field(tree: Tree, dotted: str, annotation: ast.AST) -> str:
    """The argparse kind ``get_kwargs`` gives a field (vllm/engine/arg_utils.py ``_compute_kwargs``)."""
    hints = _hints(tree, dotted, annotation)
    if hints is None:
        return "unknown"
    names = {value for kind, value in hints if kind == "name"}
    generics = {value for kind, value in hints if kind == "generic"}
    classes = {value for kind, value in hints if kind == "class"}
    if classes:
        return "one"  # a dataclass (JSON) or another non-builtin type (str): one value
    if names == {"bool", "str", "None"} and not generics:
        return "optional"
    if "bool" in names:
        return "bool"
    if "Literal" in generics:
        return "one"
    if generics & COLLECTIONS or names & COLLECTIONS:
        return "many"
    if names & BUILTIN_ONE or generics & {"dict", "Dict", "Mapping"}:
        return "one"
    return "unknown"


class Reader:
    """The options one ``add_cli_args`` / ``make_arg_parser`` function registers."""

    def __init__(self, tree: Tree, dotted: str) -> None:
        self.tree = tree
        self.dotted = dotted
        self.options: dict[str, str] = {}
        self.dests: dict[str, str] = {}  # option string -> argparse dest
        # dest -> (module, config class, field) whose get_kwargs() entry the option spreads
        self.sources: dict[str, tuple[str, ast.ClassDef, str]] = {}
        self.choices: dict[str, list] = {}  # dest -> an explicit, literal choices= list
        self.doubtful: set[str] = set()  # dests whose type or choices this reader cannot tell
        self.targets: dict[str, tuple[str, ast.ClassDef, str]] = {}  # dest -> the config field its value fills
        self.extra: dict[str, list] = {}  # dest -> choices added to get_kwargs' own
        self.fewer: dict[str, list] = {}  # dest -> get_kwargs' choices removed
        self.added: dict[tuple[str, str], list] = {}
        self.removed: dict[tuple[str, str], list] = {}
        self.plain_actions: set[str] = set()  # option strings whose custom action adds no --no-x
        self.items: dict[str, dict] = {}  # dest -> how a custom action parses each of its values

    def function(self, func: ast.FunctionDef) -> None:
        kwargs_of: dict[str, tuple[str, ast.ClassDef]] = {}  # variable -> config class
        changed: set[tuple[str, str]] = set()  # (variable, field) whose nargs/action changed
        aliases: dict[str, tuple[str, str]] = {}  # name = X["field"]
        for node in ast.walk(func):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
                if isinstance(target, ast.Name) and isinstance(value, ast.Call) and ast.unparse(value.func).endswith("get_kwargs") and value.args:
                    cls_name = ast.unparse(value.args[0]).rsplit(".", 1)[-1]
                    bound = self.tree.lookup(self.dotted, cls_name)
                    if bound is not None and bound[0] == "class":
                        kwargs_of[target.id] = (bound[1], bound[2])
                elif (
                    isinstance(target, ast.Name) and isinstance(value, ast.Subscript) and isinstance(value.value, ast.Call)
                    and ast.unparse(value.value.func).endswith("get_kwargs") and value.value.args and isinstance(value.slice, ast.Constant)
                ):
                    # name = get_kwargs(VllmConfig)["logging_config"] (0.33+): one entry, taken at once.
                    cls_name = ast.unparse(value.value.args[0]).rsplit(".", 1)[-1]
                    bound = self.tree.lookup(self.dotted, cls_name)
                    if bound is not None and bound[0] == "class":
                        kwargs_of[f"get_kwargs({cls_name})"] = (bound[1], bound[2])
                        aliases[target.id] = (f"get_kwargs({cls_name})", value.slice.value)
                elif isinstance(target, ast.Name) and isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name):
                    key = value.slice
                    if isinstance(key, ast.Constant):
                        aliases[target.id] = (value.value.id, key.value)
                elif isinstance(target, ast.Subscript):
                    self._note_change(target, changed, aliases)
            elif isinstance(node, ast.Delete):
                for target in node.targets:
                    if isinstance(target, ast.Subscript):
                        self._note_change(target, changed, aliases)
        # X["field"]["choices"] += [",".join(p) for p in permutations(get_args(Alias), r=2)]: choices
        # added to get_kwargs' own, which this reader can list (--collect-detailed-traces, 0.9-0.30).
        added: dict[tuple[str, str], list] = {}
        adding: set[int] = set()
        for node in ast.walk(func):
            if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and isinstance(node.target, ast.Subscript):
                key = self._entry(node.target, "choices", aliases)
                values = joined_permutations(self.tree, self.dotted, node.value)
                if key is not None:
                    added[key] = values if values is not None and key not in added else None
                    adding.add(id(node.target))
        # X["field"]["choices"].remove(NAME) (--all2all-backend, 0.32+): one member fewer than get_kwargs'.
        removed: dict[tuple[str, str], list] = {}
        for node in ast.walk(func):
            if (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "remove"
                and isinstance(node.func.value, ast.Subscript) and len(node.args) == 1 and not node.keywords
            ):
                key = self._entry(node.func.value, "choices", aliases)
                if key is not None:
                    member = self._constant(node.args[0])
                    removed.setdefault(key, []).append(member)
                    adding.add(id(node.func.value))
        touched: dict[tuple[str, str], set[tuple[str, str]]] = {}
        for node in ast.walk(func):
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value in ("choices", "type", "metavar"):
                key = self._entry(node, node.slice.value, aliases)
                if key is not None:
                    use = "add" if id(node) in adding else type(node.ctx).__name__
                    touched.setdefault(key, set()).add((node.slice.value, use))
        retyped: set[tuple[str, str]] = set()  # X["field"]["choices"|"type"] read or written: choices unknown
        for key, uses in touched.items():
            # Reading the choices (for a metavar), setting the metavar, adding listed choices and
            # removing named members leave argparse's choices known: get_kwargs' own, changed so.
            known = (key not in added or added[key] is not None) and None not in removed.get(key, [])
            if (key in added or key in removed) and known and uses <= {("choices", "Load"), ("choices", "add"), ("metavar", "Store")}:
                self.added[key] = added.get(key, [])
                self.removed[key] = removed.get(key, [])
            else:
                retyped.add(key)
        self.retyped = retyped
        unrolled = loop_bindings(func)
        for node in ast.walk(func):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
                for bindings in unrolled.get(id(node), [{}]):
                    self.add_argument(substituted(node, bindings) if bindings else node, kwargs_of, changed, aliases)

    def _constant(self, node: ast.AST):
        """A string constant, written or named (``PASSTHROUGH_ALL2ALL_BACKEND: Final = "passthrough"``); else None."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            bound = self.tree.lookup(self.dotted, node.id)
            if bound is not None and bound[0] == "alias" and isinstance(bound[2], ast.Constant) and isinstance(bound[2].value, str):
                return bound[2].value
        return None

    @staticmethod
    def _entry(node: ast.Subscript, attribute: str, aliases) -> tuple[str, str] | None:
        """(variable, field) of ``X["field"][attribute]`` or ``name[attribute]`` (name = X["field"])."""
        if not (isinstance(node.slice, ast.Constant) and node.slice.value == attribute):
            return None
        inner = node.value
        if isinstance(inner, ast.Subscript) and isinstance(inner.value, ast.Name) and isinstance(inner.slice, ast.Constant):
            return inner.value.id, inner.slice.value
        if isinstance(inner, ast.Name) and inner.id in aliases:
            return aliases[inner.id]
        return None

    @staticmethod
    def _note_change(target: ast.Subscript, changed, aliases) -> None:
        # X["field"]["nargs"] = ... / del X["field"]["nargs"] / name["action"] = ...
        attribute = target.slice.value if isinstance(target.slice, ast.Constant) else None
        if attribute not in ("nargs", "action", "const"):
            return
        inner = target.value
        if isinstance(inner, ast.Subscript) and isinstance(inner.value, ast.Name) and isinstance(inner.slice, ast.Constant):
            changed.add((inner.value.id, inner.slice.value))
        elif isinstance(inner, ast.Name) and inner.id in aliases:
            changed.add(aliases[inner.id])

    def add_argument(self, node: ast.Call, kwargs_of, changed, aliases) -> None:
        names = [arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("-")]
        if not names:
            return
        explicit = {kw.arg: kw.value for kw in node.keywords if kw.arg is not None}
        splats = [kw.value for kw in node.keywords if kw.arg is None]
        kind = None
        if "action" in explicit:
            action = explicit["action"]
            text = ast.unparse(action)
            if isinstance(action, ast.Constant) and action.value in NO_VALUE_ACTIONS:
                kind = "flag"
            elif text.endswith("BooleanOptionalAction"):
                kind = "bool"
            else:
                kind = "unknown"
                if self._adds_no_negation(action):
                    self.plain_actions.update(names)
                form = self._item_form(action)
                if form is not None:
                    dest = explicit.get("dest")
                    long = next((n for n in names if n.startswith("--")), names[0])
                    name = dest.value if isinstance(dest, ast.Constant) else long.lstrip("-").replace("-", "_")
                    self.items[name] = form
        elif "nargs" in explicit:
            nargs = explicit["nargs"]
            value = nargs.value if isinstance(nargs, ast.Constant) else None
            kind = {"?": "optional", "+": "many", "*": "many"}.get(value, "unknown")
        if kind is None:
            field_kinds = [self._splat_kind(splat, kwargs_of, changed, aliases) for splat in splats]
            if not splats:
                kind = "one"
            elif len(field_kinds) == 1:
                kind = field_kinds[0]
            else:
                kind = "unknown"
        for name in names:
            previous = self.options.get(name)
            self.options[name] = kind if previous in (None, kind) else "unknown"
        dest_node = explicit.get("dest")
        if isinstance(dest_node, ast.Constant) and isinstance(dest_node.value, str):
            dest = dest_node.value
        else:
            long = next((name for name in names if name.startswith("--")), names[0])
            dest = long.lstrip("-").replace("-", "_")
        for name in names:
            self.dests[name] = dest
        if "type" in explicit and "choices" not in explicit:
            self.doubtful.add(dest)
        if "choices" in explicit:
            values = literal_list(self.tree, self.dotted, explicit["choices"])
            if values is None:
                self.doubtful.add(dest)
            else:
                self.choices[dest] = values
        if len(splats) == 1:
            # The config field the value ends in, whatever parses it on the way (its JSON keys).
            target = self._splat_source(splats[0], kwargs_of, aliases, retyped_too=True)
            if target is not None:
                self.targets[dest] = target
            source = self._splat_source(splats[0], kwargs_of, aliases)
            if source is None:
                self.doubtful.add(dest)
            else:
                self.sources[dest] = source
                key = self._splat_key(splats[0], aliases)
                if key in self.added:
                    self.extra[dest] = self.added[key]
                    self.fewer[dest] = self.removed[key]
        elif splats:
            self.doubtful.add(dest)

    def _adds_no_negation(self, action: ast.AST) -> bool:
        """Whether an ``action=`` certainly registers no ``--no-x`` spelling: argparse's own
        ``"append"``/``"extend"``/``"store"``, or a vLLM class that derives from ``argparse.Action``
        directly (``LoRAParserAction``); only ``BooleanOptionalAction`` and its kin add one."""
        if isinstance(action, ast.Constant):
            return action.value in ("append", "extend", "store")
        if isinstance(action, ast.Name):
            bound = self.tree.lookup(self.dotted, action.id)
            if bound is not None and bound[0] == "class":
                return bool(bound[2].bases) and all(ast.unparse(base) == "argparse.Action" for base in bound[2].bases)
        return False

    def _item_form(self, action: ast.AST) -> dict | None:
        """How a vLLM ``argparse.Action`` class parses each value it is given, where its
        ``__call__`` says so plainly (``LoRAParserAction``): each item is ``json.loads``-ed and
        given as keywords to a dataclass (its fields, and those without a default), and where
        an ``if "=" in item and "," not in item:`` branch comes first, a ``name=value`` item is
        taken as it is.  A JSON error or a wrong field stops the parser (``parser.error``)."""
        if not isinstance(action, ast.Name):
            return None
        bound = self.tree.lookup(self.dotted, action.id)
        if bound is None or bound[0] != "class":
            return None
        call = next((n for n in bound[2].body if isinstance(n, ast.FunctionDef) and n.name == "__call__"), None)
        if call is None or not any(isinstance(n, ast.Call) and ast.unparse(n.func) == "parser.error" for n in ast.walk(call)):
            return None
        loaded = {t.id for n in ast.walk(call) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and ast.unparse(n.value.func) == "json.loads" for t in n.targets if isinstance(t, ast.Name)}
        made = [
            n for n in ast.walk(call)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and len(n.keywords) == 1 and n.keywords[0].arg is None
            and isinstance(n.keywords[0].value, ast.Name) and n.keywords[0].value.id in loaded
        ]
        if len(made) != 1:
            return None
        target = self.tree.lookup(bound[1], made[0].func.id)
        if target is None or target[0] != "class":
            return None
        fields = dataclass_fields(self.tree, target[1], target[2])
        required = [
            n.target.id for n in target[2].body
            if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.value is None and n.target.id in fields
        ]
        form = {"class": target[2].name, "fields": sorted(fields), "required": required}
        for node in ast.walk(call):
            if isinstance(node, ast.If) and ast.unparse(node.test).replace("'", '"').endswith('"," not in item') and ast.unparse(node.test).replace("'", '"').startswith('"=" in item'):
                form["pair"] = True  # name=value, as long as it has no comma
        return form

    @staticmethod
    def _splat_key(splat: ast.AST, aliases) -> tuple[str, str] | None:
        """(variable, field) a ``**X["field"]`` / ``**name`` / ``**{**X["field"], ...}`` splat spreads."""
        if isinstance(splat, ast.Dict):
            inner = [v for k, v in zip(splat.keys, splat.values) if k is None]
            if len(inner) != 1:
                return None
            splat = inner[0]
        if isinstance(splat, ast.Name) and splat.id in aliases:
            return aliases[splat.id]
        if isinstance(splat, ast.Subscript) and isinstance(splat.value, ast.Name) and isinstance(splat.slice, ast.Constant):
            return splat.value.id, splat.slice.value
        return None

    def _splat_source(self, splat: ast.AST, kwargs_of, aliases, retyped_too: bool = False):
        """The (module, config class, field) a ``**kwargs`` splat spreads, None when unsure
        (``retyped_too``: also when the entry's type is changed afterwards)."""
        if isinstance(splat, ast.Dict):
            inner = [v for k, v in zip(splat.keys, splat.values) if k is None]
            overridden = {k.value for k in splat.keys if isinstance(k, ast.Constant)}
            if len(inner) != 1 or overridden & {"type", "choices", "metavar"}:
                return None
            splat = inner[0]
        if isinstance(splat, ast.Name) and splat.id in aliases:
            variable, field = aliases[splat.id]
        elif isinstance(splat, ast.Subscript) and isinstance(splat.value, ast.Name) and isinstance(splat.slice, ast.Constant):
            variable, field = splat.value.id, splat.slice.value
        else:
            return None
        if variable not in kwargs_of or ((variable, field) in self.retyped and not retyped_too):
            return None
        dotted, cls = kwargs_of[variable]
        return dotted, cls, field

    def _splat_kind(self, splat: ast.AST, kwargs_of, changed, aliases) -> str:
        # **X["field"], **{**X["field"], "default": ...}, **name (name = X["field"])
        if isinstance(splat, ast.Dict):
            inner = [v for k, v in zip(splat.keys, splat.values) if k is None]
            overridden = {k.value for k in splat.keys if isinstance(k, ast.Constant)}
            if len(inner) != 1 or overridden & {"nargs", "action", "const"}:
                return "unknown"
            splat = inner[0]
        if isinstance(splat, ast.Name) and splat.id in aliases:
            variable, field = aliases[splat.id]
        elif isinstance(splat, ast.Subscript) and isinstance(splat.value, ast.Name) and isinstance(splat.slice, ast.Constant):
            variable, field = splat.value.id, splat.slice.value
        else:
            return "unknown"
        if (variable, field) in changed or variable not in kwargs_of:
            return "unknown"
        dotted, cls = kwargs_of[variable]
        fields = dataclass_fields(self.tree, dotted, cls)
        if field not in fields:
            return "unknown"
        return kind_of_field(self.tree, *fields[field])


def loop_bindings(func: ast.AST) -> dict[int, list[dict[str, ast.AST]]]:
    """``add_argument`` calls inside ``for arg, type in [("--x", str), ...]:`` (the deprecated
    guided-decoding options of 0.11): per call, the loop variables' values of each iteration.
    A loop over anything but a literal list or tuple is left alone (its options stay unread)."""
    found: dict[int, list[dict[str, ast.AST]]] = {}
    for loop in ast.walk(func):
        if not isinstance(loop, ast.For) or not isinstance(loop.iter, (ast.List, ast.Tuple)):
            continue
        target = loop.target
        names = [target.id] if isinstance(target, ast.Name) else [e.id for e in target.elts if isinstance(e, ast.Name)] if isinstance(target, ast.Tuple) else []
        if not names or (isinstance(target, ast.Tuple) and len(names) != len(target.elts)):
            continue
        iterations = []
        for item in loop.iter.elts:
            values = [item] if isinstance(target, ast.Name) else item.elts if isinstance(item, (ast.Tuple, ast.List)) else None
            if values is None or len(values) != len(names):
                iterations = []
                break
            iterations.append(dict(zip(names, values)))
        if not iterations:
            continue
        for statement in loop.body:
            for node in ast.walk(statement):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
                    found[id(node)] = iterations
    return found


def substituted(call: ast.Call, bindings: dict[str, ast.AST]) -> ast.Call:
    """A copy of the call with the loop variables replaced by one iteration's values."""

    class Replace(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return copy.deepcopy(bindings[node.id]) if node.id in bindings and isinstance(node.ctx, ast.Load) else node

    return Replace().visit(copy.deepcopy(call))


class ConfigClasses:
    """How pydantic treats vLLM's config dataclasses in one release.

    From 0.16 ``@config`` makes a pydantic dataclass that forbids unknown keys (``extra="forbid"``
    in ``vllm/config/utils.py``). Up to 0.15 ``@config`` only marks the class: pydantic validates
    it when the class is ``pydantic.dataclasses.dataclass``, and forbids unknown keys only where
    the class's own ``ConfigDict(extra="forbid")`` says so (``CompilationConfig``, 0.14-0.15)."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        utils = "vllm/config/utils.py"
        self.forbid_all = utils in tree.names and 'extra="forbid"' in tree.archive.read(utils).decode("utf-8")

    @staticmethod
    def _decorator_names(cls: ast.ClassDef) -> list[tuple[str, ast.AST]]:
        return [(ast.unparse(d.func if isinstance(d, ast.Call) else d).rsplit(".", 1)[-1], d) for d in cls.decorator_list]

    def is_config(self, cls: ast.ClassDef) -> bool:
        return any(name == "config" for name, _ in self._decorator_names(cls))

    def validated(self, dotted: str, cls: ast.ClassDef) -> bool:
        """Whether pydantic checks the field types when the class is built."""
        if self.forbid_all and self.is_config(cls):
            return True
        for decorator in cls.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if isinstance(target, ast.Attribute) and target.attr == "dataclass":
                if ast.unparse(target.value) == "pydantic.dataclasses":
                    return True
            elif isinstance(target, ast.Name) and target.id == "dataclass":
                bound = self.tree.lookup(dotted, "dataclass")
                if bound is not None and bound[0] == "external" and bound[1] == "pydantic.dataclasses":
                    return True
        return False

    def forbids_extra(self, dotted: str, cls: ast.ClassDef) -> bool:
        """Whether a key that is not a field is an error ("Unexpected keyword argument")."""
        if self.forbid_all and self.is_config(cls):
            return True
        return self.validated(dotted, cls) and any(
            isinstance(node, ast.keyword) and node.arg == "extra" and isinstance(node.value, ast.Constant) and node.value.value == "forbid"
            for _, decorator in self._decorator_names(cls) for node in ast.walk(decorator)
        )

    def of_field(self, dotted: str, cls: ast.ClassDef, field: str) -> bool:
        """Whether the config field's own value is validated (its class is, and no SkipValidation)."""
        annotation = field_annotation(self.tree, dotted, cls, field)
        return annotation is not None and self.validated(dotted, cls) and not skips_validation(annotation[1])


def skips_validation(annotation: ast.AST) -> bool:
    node = _unquoted(annotation)
    return isinstance(node, ast.Subscript) and ast.unparse(node.value).rsplit(".", 1)[-1] == "SkipValidation"


def config_keys(tree: Tree, dotted: str, cls: ast.ClassDef, field: str, classes: ConfigClasses, depth: int = 0) -> dict | None:
    """{"class": name, "fields": [...], "choices": {...}, "bounds": {...}, "nested": {...}} when
    the field holds one ``@config`` dataclass: the keys its JSON value may have (when pydantic
    rejects others: "Unexpected keyword argument"), the closed choices and the ``Field`` bounds
    of its keys (when pydantic validates them), and the same for a key that holds a config
    dataclass itself (``compilation_config["pass_config"]``, a ``PassConfig``)."""
    annotation = field_annotation(tree, dotted, cls, field)
    hints = _hints(tree, *annotation) if annotation is not None else None
    found = [value for kind, value in hints or () if kind == "class"]
    names = {value for kind, value in hints or () if kind == "name"} - {"None"}
    if len(found) != 1 or names:
        return None
    bound = tree.lookup(annotation[0], found[0])
    if bound is None or bound[0] != "class":
        return None
    node = bound[2]
    if not classes.is_config(node) or not classes.validated(bound[1], node):
        return None
    entry: dict = {"class": node.name}
    if classes.forbids_extra(bound[1], node):
        fields = set(dataclass_fields(tree, bound[1], node))
        for item in ast.walk(node):  # InitVar fields are __init__ arguments too
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and "InitVar" in ast.unparse(item.annotation):
                fields.add(item.target.id)
        entry["fields"] = sorted(fields)
    values = key_choices(tree, bound[1], node)
    if values:
        entry["choices"] = values
    limits = {}
    nested = {}
    for name, (_, annotation) in dataclass_fields(tree, bound[1], node).items():
        if skips_validation(annotation):
            continue
        found = field_bounds(node, tree, bound[1], name)
        if found:
            limits[name] = found
        if depth < 2:
            inner = config_keys(tree, bound[1], node, name, classes, depth + 1)
            if inner is not None:
                nested[name] = inner
    if limits:
        entry["bounds"] = dict(sorted(limits.items()))
    if nested:
        entry["nested"] = dict(sorted(nested.items()))
    return entry if len(entry) > 1 else None


def key_choices(tree: Tree, dotted: str, cls: ast.ClassDef) -> dict[str, list]:
    """The fields of a ``@config`` dataclass that pydantic validates against a closed set when
    the class is built from a JSON value or dict (``SpeculativeConfig.method`` in 0.33: a
    ``Literal`` alias; 0.34 adds ``| str``, an open set, and no values): field -> values.

    The same reading as the engine arguments' ``config`` choices (``Literal`` members, an
    ``IntEnum``'s values, members that take no string passed over).  A field a ``before``,
    ``wrap`` or ``plain`` validator sees first (it may turn the value into a member), and every
    field of a class with such a model validator, has none."""
    rewritten, whole = rewriting_validators(tree, dotted, cls)
    if whole:
        return {}
    found = {}
    for name, (module, annotation) in dataclass_fields(tree, dotted, cls).items():
        if name in rewritten or "*" in rewritten or skips_validation(annotation):
            continue
        values = literal_values(tree, module, annotation, others=VALIDATED)
        if values:
            found[name] = ordered(values)
    return dict(sorted(found.items()))


def ordered(values: list) -> list:
    """Values sorted by their text, each once (a ``Literal`` alias may repeat a member)."""
    return sorted({(type(v).__name__, v): v for v in values}.values(), key=str)


def rewriting_validators(tree: Tree, dotted: str, cls: ast.ClassDef, depth: int = 0) -> tuple[set[str], bool]:
    """The fields a pydantic ``field_validator(..., mode="before"|"wrap"|"plain")`` of the class
    (base classes too) sees before the type is checked, and whether a ``model_validator`` in
    such a mode sees the whole input."""
    fields: set[str] = set()
    whole = False
    for node in cls.body:
        for decorator in getattr(node, "decorator_list", ()):
            if not isinstance(decorator, ast.Call):
                continue
            kind = ast.unparse(decorator.func).rsplit(".", 1)[-1]
            mode = next((k.value for k in decorator.keywords if k.arg == "mode"), None)
            early = not (isinstance(mode, ast.Constant) and mode.value == "after")
            if kind == "field_validator" and (early and mode is not None):
                fields |= {a.value for a in decorator.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
                if any(not isinstance(a, ast.Constant) for a in decorator.args):
                    fields.add("*")
            elif kind == "model_validator" and early:
                whole = True
    if depth < 6:
        for base in cls.bases:
            if isinstance(base, ast.Name):
                bound = tree.lookup(dotted, base.id)
                if bound is not None and bound[0] == "class":
                    more, everything = rewriting_validators(tree, bound[1], bound[2], depth + 1)
                    fields |= more
                    whole = whole or everything
    return fields, whole


# vLLM's own argparse ``type=`` functions whose grammar the linter reads (VLM305).
PARSE_FUNCTIONS = ("human_readable_int", "human_readable_int_or_auto")


def parse_functions(module: ast.Module) -> dict[str, str]:
    """Fields ``get_kwargs`` gives one of vLLM's own ``type=`` functions (``PARSE_FUNCTIONS``):
    ``if name == "max_model_len": kwargs[name]["type"] = human_readable_int_or_auto`` and
    ``elif name in human_readable_int_args: ...``, the set a literal of the same function."""
    found: dict[str, str] = {}
    for function in ast.walk(module):
        if not isinstance(function, ast.FunctionDef):
            continue
        sets = {
            node.targets[0].id: literal_strings(node.value)
            for node in ast.walk(function)
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Set)
        }
        for node in ast.walk(function):
            if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare) and len(node.test.ops) == 1):
                continue
            names: set = set()
            right = node.test.comparators[0]
            if isinstance(node.test.ops[0], ast.Eq) and isinstance(right, ast.Constant) and isinstance(right.value, str):
                names = {right.value}
            elif isinstance(node.test.ops[0], ast.In) and isinstance(right, ast.Name):
                names = sets.get(right.id) or set()
            for stmt in node.body:
                if (
                    isinstance(stmt, ast.Assign)
                    and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Subscript)
                    and isinstance(stmt.targets[0].slice, ast.Constant)
                    and stmt.targets[0].slice.value == "type"
                    and isinstance(stmt.value, ast.Name)
                    and stmt.value.id in PARSE_FUNCTIONS
                ):
                    for name in names:
                        found.setdefault(name, stmt.value.id)
    return found


def parse_grammar(tree: Tree, name: str) -> dict | None:
    """What one of vLLM's ``type=`` functions reads, from its source: the pattern it matches
    (``re.fullmatch(r"(\\d+(?:\\.\\d+)?)([kKmMgGtT])", value)``), whether a decimal number
    with a binary (upper-case) suffix is an error, and the words it takes for -1 (``auto``);
    a plain integer is read by ``int()`` after them.  None where the function is not found or
    reads otherwise."""
    for dotted in ("vllm.utils.argparse_utils", "vllm.engine.arg_utils", "vllm.utils"):
        module = tree.module(dotted)
        function = next((n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == name), None) if module else None
        if function is None:
            continue
        text = ast.unparse(function)
        pattern = next(
            (
                n.args[0].value for n in ast.walk(function)
                if isinstance(n, ast.Call) and ast.unparse(n.func) == "re.fullmatch" and n.args and isinstance(n.args[0], ast.Constant)
            ),
            None,
        )
        if name == "human_readable_int_or_auto":
            inner = parse_grammar(tree, "human_readable_int")
            if inner is None or "return human_readable_int(value)" not in text:
                return None
            return {**inner, "auto": "value.lower() == 'auto'" in text}
        if pattern is None or not text.rstrip().endswith("return int(value)"):
            return None
        return {"pattern": pattern, "binary_decimals": "Decimals are not allowed" not in text}
    return None


def literal_strings(node: ast.AST) -> set:
    return {e.value for e in getattr(node, "elts", ()) if isinstance(e, ast.Constant) and isinstance(e.value, str)}


def frontend_item_forms(tree: Tree, dotted: str, cls: ast.ClassDef, depth: int = 0) -> dict[str, dict]:
    """FrontendArgs fields given a custom action after get_kwargs
    (``frontend_kwargs["lora_modules"]["action"] = LoRAParserAction``), base classes too:
    field -> how the action parses each value (``Reader._item_form``)."""
    found: dict[str, dict] = {}
    reader = Reader(tree, dotted)
    for node in ast.walk(cls):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        if (
            isinstance(target, ast.Subscript)
            and isinstance(target.slice, ast.Constant)
            and target.slice.value == "action"
            and isinstance(target.value, ast.Subscript)
            and isinstance(target.value.slice, ast.Constant)
            and isinstance(target.value.slice.value, str)
        ):
            form = reader._item_form(node.value)
            if form is not None:
                found[target.value.slice.value] = form
    if depth < 6:
        for base in cls.bases:
            if isinstance(base, ast.Name):
                bound = tree.lookup(dotted, base.id)
                if bound is not None and bound[0] == "class":
                    for name, form in frontend_item_forms(tree, bound[1], bound[2], depth + 1).items():
                        found.setdefault(name, form)
    return found


def frontend_retyped(tree: Tree, dotted: str, cls: ast.ClassDef) -> set[str]:
    """FrontendArgs fields whose ``type``/``choices``/``metavar``/``action`` the class changes after get_kwargs."""
    classes = [cls]
    for base in cls.bases:
        if isinstance(base, ast.Name):
            bound = tree.lookup(dotted, base.id)
            if bound is not None and bound[0] == "class":
                classes.append(bound[2])
    found: set[str] = set()
    for klass in classes:
        for node in ast.walk(klass):
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value in ("type", "choices", "metavar", "action"):
                inner = node.value
                if isinstance(inner, ast.Subscript) and isinstance(inner.slice, ast.Constant) and isinstance(inner.slice.value, str):
                    found.add(inner.slice.value)
    return found


def validated_choices(tree: Tree, dotted: str, cls: ast.ClassDef, field: str) -> list | None:
    """(values, message head) when a ``@field_validator(field)`` raises unless the value is in a
    list built from a Literal alias (``KV_CACHE_DTYPES = list(get_args(CacheDType))``, 0.33+)."""
    for node in cls.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            if not (isinstance(decorator, ast.Call) and ast.unparse(decorator.func).endswith("field_validator")):
                continue
            if not any(isinstance(a, ast.Constant) and a.value == field for a in decorator.args):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.Raise) and inner.exc is not None and "Invalid" in ast.unparse(inner.exc):
                    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
                        n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                    }
                    for name in sorted(names):
                        values = _membership_list(tree, dotted, name)
                        if values:
                            return values, _message_head(inner.exc)
    return None


def _message_head(exc: ast.AST) -> str | None:
    """The text of ``raise ValueError(f"Invalid x: {value!r}. ...")`` up to its first placeholder."""
    if isinstance(exc, ast.Call) and exc.args and isinstance(exc.args[0], ast.JoinedStr):
        head = ""
        for part in exc.args[0].values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                head += part.value
            else:
                return head or None
    return None


def _membership_list(tree: Tree, dotted: str, name: str, depth: int = 0) -> list | None:
    """``NAME = list(get_args(Alias))``, or a function ``return x in NAME``: the alias's values."""
    if depth > 2:
        return None
    module = tree.module(dotted)
    for node in module.body if module is not None else ():
        if isinstance(node, ast.FunctionDef) and node.name == name:
            ret = node.body[-1]
            if len(node.body) <= 3 and isinstance(ret, ast.Return) and isinstance(ret.value, ast.Compare) and isinstance(ret.value.ops[0], ast.In):
                target = ret.value.comparators[0]
                if isinstance(target, ast.Name):
                    return _membership_list(tree, dotted, target.id, depth + 1)
            return None
    bound = tree.lookup(dotted, name)
    if bound is not None and bound[0] == "alias":
        value = bound[2]
        if isinstance(value, ast.Call) and ast.unparse(value.func) == "list" and value.args:
            inner = value.args[0]
            if isinstance(inner, ast.Call) and ast.unparse(inner.func).endswith("get_args") and inner.args:
                return literal_values(tree, bound[1], inner.args[0])
    return None


def frontend_options(tree: Tree, dotted: str, cls: ast.ClassDef) -> dict[str, str]:
    """``FrontendArgs.add_cli_args``: one option per dataclass field, after ``_customize_cli_kwargs``."""
    options: dict[str, str] = {}
    changed: set[str] = set()
    classes = [cls]
    for base in cls.bases:
        if isinstance(base, ast.Name):
            bound = tree.lookup(dotted, base.id)
            if bound is not None and bound[0] == "class":
                classes.append(bound[2])
    for klass in classes:
        for node in ast.walk(klass):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else []
            for target in targets:
                if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant) and target.slice.value in ("nargs", "action"):
                    inner = target.value
                    if isinstance(inner, ast.Subscript) and isinstance(inner.slice, ast.Constant):
                        changed.add(inner.slice.value)
    for name, (module, annotation) in dataclass_fields(tree, dotted, cls).items():
        kind = "unknown" if name in changed else kind_of_field(tree, module, annotation)
        options["--" + name.replace("_", "-")] = kind
    return options


# Union members that never take a string: a string outside the Literal members fails them all.
NOT_STRINGS = frozenset({"dtype", "device", "type"})  # torch.dtype, torch.device, type[Executor]
# What a config's validation admits (not argparse): also the values of an IntEnum type.
VALIDATED = NOT_STRINGS | {"IntEnum"}


def literal_values(tree: Tree, dotted: str, node: ast.AST, depth: int = 0, others: frozenset = frozenset()) -> list | None:
    """The values of a hint that is only ``Literal[...]`` members (and ``None``), aliases resolved; else None.

    ``others``: names of further union members to pass over (``torch.dtype`` in ``Literal[...] | torch.dtype``)."""
    if depth > 10:
        return None
    if others and isinstance(node, (ast.Name, ast.Attribute)):
        name = node.id if isinstance(node, ast.Name) else node.attr
        if name in others:
            return []
    node = _unquoted(node)
    if node is None:
        return None
    if isinstance(node, ast.Constant) and node.value is None:
        return []
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left = literal_values(tree, dotted, node.left, depth + 1, others)
        right = literal_values(tree, dotted, node.right, depth + 1, others)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.Subscript):
        origin = ast.unparse(node.value).rsplit(".", 1)[-1]
        members = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if origin in others and origin in ("type", "Type"):
            return []  # a class object: never a string
        if origin == "Literal":
            values = []
            for member in members:
                if isinstance(member, ast.Constant) and member.value is not None:
                    values.append(member.value)
                elif isinstance(member, ast.Constant):
                    continue
                else:
                    inner = literal_values(tree, dotted, member, depth + 1)  # Literal[Alias, "x"]
                    if inner is None:
                        return None
                    values += inner
            return values
        if origin in ("Optional", "Union"):
            values = []
            for member in members:
                inner = literal_values(tree, dotted, member, depth + 1, others)
                if inner is None:
                    return None
                values += inner
            return values
        if origin in TRANSPARENT:
            return literal_values(tree, dotted, members[0], depth + 1, others)
        return None
    if isinstance(node, ast.Name):
        if node.id == "None":
            return []
        bound = tree.lookup(dotted, node.id)
        if bound is not None and bound[0] == "alias":
            return literal_values(tree, bound[1], bound[2], depth + 1, others)
        if "IntEnum" in others and bound is not None and bound[0] == "class":
            return int_enum_values(bound[2])
    return None


def int_enum_values(cls: ast.ClassDef) -> list | None:
    """The values of an ``IntEnum`` whose members are int constants (``OptimizationLevel``): pydantic
    accepts exactly those at start-up."""
    if not any(ast.unparse(base).rsplit(".", 1)[-1] == "IntEnum" for base in cls.bases):
        return None
    values = []
    for node in cls.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and type(node.value.value) is int:
            values.append(node.value.value)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            return None
    return values or None


def joined_permutations(tree: Tree, dotted: str, node: ast.AST) -> list | None:
    """``[",".join(p) for p in permutations(get_args(Alias), r=N)]``: those strings; else None."""
    if not (isinstance(node, ast.ListComp) and len(node.generators) == 1):
        return None
    loop = node.generators[0]
    call, element = loop.iter, node.elt
    if loop.ifs or not isinstance(loop.target, ast.Name) or not isinstance(call, ast.Call):
        return None
    if ast.unparse(call.func).rsplit(".", 1)[-1] != "permutations" or len(call.args) != 1:
        return None
    size = [kw.value for kw in call.keywords if kw.arg == "r"] or call.args[1:]
    if len(size) != 1 or not isinstance(size[0], ast.Constant) or not isinstance(size[0].value, int):
        return None
    if not (
        isinstance(element, ast.Call) and isinstance(element.func, ast.Attribute) and element.func.attr == "join"
        and isinstance(element.func.value, ast.Constant) and isinstance(element.func.value.value, str)
        and len(element.args) == 1 and isinstance(element.args[0], ast.Name) and element.args[0].id == loop.target.id
    ):
        return None
    members = literal_list(tree, dotted, call.args[0])
    if members is None or not all(isinstance(m, str) for m in members):
        return None
    return [element.func.value.value.join(p) for p in itertools.permutations(members, r=size[0].value)]


def element_literals(tree: Tree, dotted: str, node: ast.AST) -> list | None:
    """``list[Alias] | None`` whose elements are one closed Literal: its values (each element is one)."""
    node = _unquoted(node)
    members = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ast.BinOp) and isinstance(item.op, ast.BitOr):
            stack += [item.left, item.right]
        elif isinstance(item, ast.Subscript) and ast.unparse(item.value).rsplit(".", 1)[-1] == "Optional":
            stack.append(item.slice)
        elif not (isinstance(item, ast.Constant) and item.value is None):
            members.append(item)
    if len(members) != 1 or not isinstance(members[0], ast.Subscript):
        return None
    if ast.unparse(members[0].value).rsplit(".", 1)[-1] not in ("list", "List"):
        return None
    return literal_values(tree, dotted, members[0].slice)


def literal_list(tree: Tree, dotted: str, node: ast.AST) -> list | None:
    """An explicit ``choices=``: a list or tuple of constants, or ``get_args(Alias)``; else None."""
    if isinstance(node, (ast.List, ast.Tuple)):
        if all(isinstance(e, ast.Constant) for e in node.elts):
            return [e.value for e in node.elts if e.value is not None]
        return None
    if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("get_args") and len(node.args) == 1:
        return literal_values(tree, dotted, node.args[0])
    return enum_member_values(tree, dotted, node)


def enum_member_values(tree: Tree, dotted: str, node: ast.AST) -> list | None:
    """``[f.value for f in SomeEnum]`` (``--logprobs-mode``, ``--model-impl`` in 0.10): the
    constants an ``Enum`` class assigns to its members; else None."""
    if not (isinstance(node, ast.ListComp) and len(node.generators) == 1 and not node.generators[0].ifs):
        return None
    loop, element = node.generators[0], node.elt
    if not (isinstance(loop.target, ast.Name) and isinstance(loop.iter, ast.Name)):
        return None
    if not (isinstance(element, ast.Attribute) and element.attr == "value" and isinstance(element.value, ast.Name) and element.value.id == loop.target.id):
        return None
    bound = tree.lookup(dotted, loop.iter.id)
    if bound is None or bound[0] != "class":
        return None
    cls = bound[2]
    if not any(ast.unparse(base).rsplit(".", 1)[-1] in ("Enum", "StrEnum", "IntEnum") for base in cls.bases):
        return None
    values = []
    for item in cls.body:
        if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
            if not (isinstance(item.value, ast.Constant) and isinstance(item.value.value, (str, int))):
                return None  # auto() or a computed value
            values.append(item.value.value)
    return values or None


def _number(node: ast.AST) -> float | int | None:
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Pow)):
        left, right = _number(node.left), _number(node.right)
        if left is None or right is None or (isinstance(node.op, ast.Pow) and abs(right) > 128):
            return None
        return {ast.Add: left + right, ast.Sub: left - right, ast.Mult: left * right}.get(type(node.op)) if not isinstance(node.op, ast.Pow) else left**right
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    return None


def field_bounds(cls: ast.ClassDef, tree: Tree, dotted: str, name: str) -> dict | None:
    """``Field(ge=/gt=/le=/lt=)`` of a config class field (base classes too)."""
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            value = node.value
            if isinstance(value, ast.Call) and ast.unparse(value.func).rsplit(".", 1)[-1] == "Field":
                bounds = {}
                for keyword in value.keywords:
                    if keyword.arg in ("ge", "gt", "le", "lt"):
                        number = _number(keyword.value)
                        if number is not None:
                            bounds[keyword.arg] = number
                return bounds or None
            return None
    for base in cls.bases:
        if isinstance(base, ast.Name):
            bound = tree.lookup(dotted, base.id)
            if bound is not None and bound[0] == "class":
                found = field_bounds(bound[2], tree, bound[1], name)
                if found is not None:
                    return found
    return None


def field_annotation(tree: Tree, dotted: str, cls: ast.ClassDef, name: str):
    found = dataclass_fields(tree, dotted, cls).get(name)
    return found  # (module, annotation) or None


ARG_MODULES = ("vllm.entrypoints.openai.cli_args", "vllm.entrypoints.launchers.cli_args", "vllm.entrypoints.common.cli_args")



# ------------------------------------------------------------------ documented renames

# Modules whose text documents the engine arguments: where a deprecation says what replaces one.
RENAME_MODULES = ("vllm.engine.arg_utils", "vllm.config", *ARG_MODULES, "vllm.entrypoints.openai.cli_args", "vllm.entrypoints.cli.serve")
# "`--old` is deprecated", "The `--old` flag is deprecated", "old has been renamed": the subject.
_NAME = r"(?:--[a-z0-9][a-z0-9-]*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)"
_SUBJECT = re.compile(
    rf"(?<![\w.`'-])(?:[`'\"]?({_NAME})[`'\"]?|[`'\"]([a-z][a-z0-9_]*)[`'\"])(?:\s+(?:flag|option|argument))?\s+"
    r"(?:is|has been|have been|will be)\s+(?:now\s+)?(?:deprecated|renamed|replaced|removed)"
)
# "use `--new 0` instead", "replaced with `new`", "renamed to `new`", "in favor of new",
# "replace this option with `--new value`": the successor, and a value written with it.
_SUCCESSOR = re.compile(
    r"(?:\buse|\breplaced?\s+(?:this\s+option\s+)?with|\brenamed\s+to|\bin\s+favou?r\s+of)\s+(?:the\s+)?"
    r"(?:`(--[a-z0-9][a-z0-9.\-_]*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:\.[a-z0-9_]+)*)(?:[ =]([^`]*))?`"
    r"|(--[a-z0-9][a-z0-9.\-_]*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:\.[a-z0-9_]+)*)(?=[\s.,;)]|$))",
    re.I,
)


def _texts(node: ast.AST) -> str | None:
    """A string constant's text; an f-string with ``{...}`` where its fields are."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "{...}" for part in node.values)
    return None


def _strings(node: ast.AST) -> list[tuple[ast.AST, str]]:
    found = []
    for inner in ast.walk(node):
        if isinstance(inner, ast.JoinedStr):
            found.append((inner, _texts(inner)))
        elif isinstance(inner, ast.Constant) and isinstance(inner.value, str):
            found.append((inner, inner.value))
    inside_fstrings = {id(c) for n, _ in found if isinstance(n, ast.JoinedStr) for c in ast.walk(n) if c is not n}
    return [(n, " ".join(t.split())) for n, t in found if id(n) not in inside_fstrings]


def _successors(text: str) -> list[tuple[str, str | None]]:
    found = []
    for match in _SUCCESSOR.finditer(text):
        name = (match.group(1) or match.group(3)).rstrip(".")
        value = match.group(2).strip() if match.group(2) else None
        if value is not None and (not value or re.search(r"[{}%$`\s]", value)):
            value = "?"  # a value vLLM fills in at run time: not a fixed one
        found.append((name, value))
    return found


def release_renames(tree: Tree, options: dict[str, str], kinds: dict[str, str], keywords: set[str]) -> dict[str, dict]:
    """Arguments this release's own text says are replaced by another one: old name -> record.

    A deprecation message names the old argument as its subject ("`--old` is deprecated",
    "old has been replaced with") and the successor ("use `--new 0` instead"); when the
    message names no successor, the strings of the ``if`` block that emits it may (the
    hint of ``--task``).  Both must be arguments of this release (a flag or a keyword of
    ``LLM``/``EngineArgs``; a dotted successor, ``--x-config.field``, counts by its flag).
    """
    by_dest: dict[str, list[str]] = {}
    for option, dest in options.items():
        if option.startswith("--") and dest not in ("?", "help"):
            by_dest.setdefault(dest, []).append(option)

    def resolve(name: str) -> tuple[str, str | None] | None:
        """(argument name, its flag) for a name a message writes, None when no argument has it."""
        base = name.split(".", 1)[0]
        if base.startswith("--"):
            flag = base.replace("_", "-")
            if flag in options and options[flag] not in ("?", "help"):
                return name.lstrip("-").replace("-", "_") if "." not in name else flag[2:].replace("-", "_") + "." + name.split(".", 1)[1], flag
            return None
        flag = "--" + base.replace("_", "-")
        if flag in options or base in by_dest or base in keywords:
            if flag not in options:
                flag = by_dest.get(base, [None])[0]
            return name, flag
        return None

    found: dict[str, dict] = {}
    for dotted in RENAME_MODULES:
        modules = [dotted]
        if dotted == "vllm.config":
            prefix = "vllm/config/"
            modules += sorted(n[:-3].replace("/", ".") for n in tree.names if n.startswith(prefix) and n.endswith(".py") and "__init__" not in n)
        for name in modules:
            module = tree.module(name)
            if module is None:
                continue
            parents: dict[int, ast.AST] = {}
            for node in ast.walk(module):
                for child in ast.iter_child_nodes(node):
                    parents[id(child)] = node
            for node, text in _strings(module):
                if not re.search(r"deprecat|renamed|replaced", text, re.I):
                    continue
                for subject in _SUBJECT.finditer(text):
                    old = resolve(subject.group(1) or subject.group(2))
                    if old is None or "." in old[0]:
                        continue
                    successors = [s for s in _successors(text[subject.end():]) if s[0].lstrip("-").replace("-", "_") != old[0]]
                    if not successors:
                        # The hint may be another string of the block that emits the message.
                        block = parents.get(id(node))
                        while block is not None and not isinstance(block, (ast.If, ast.FunctionDef)):
                            block = parents.get(id(block))
                        if isinstance(block, ast.If):
                            for _inner, other in _strings(block):
                                if other != text:
                                    successors += _successors(other)
                    targets = {}
                    for successor, value in successors:
                        new = resolve(successor)
                        if new is not None and new[0] != old[0]:
                            targets.setdefault(new[0], (new[1], value))
                    if not targets:
                        continue
                    record = found.setdefault(old[0], {"flag": old[1], "to": {}, "message": text})
                    for new_name, (flag, value) in targets.items():
                        record["to"].setdefault(new_name, {"flag": flag, "value": value})
    renames = {}
    for old, record in sorted(found.items()):
        targets = record["to"]
        entry = {"flag": record["flag"], "message": record["message"]}
        if len(targets) == 1:
            (new, target), = targets.items()
            entry.update(to=new, to_flag=target["flag"], value=target["value"])
            entry["fix"] = _rename_fix(old, new, record["flag"], target, kinds)
        else:
            entry.update(to=sorted(targets), to_flag=None, value=None, fix=None)
        renames[old] = entry
    return renames


def _rename_fix(old: str, new: str, old_flag: str | None, target: dict, kinds: dict[str, str]) -> str | None:
    """How a fix may rewrite the old argument, or None (the message alone):

    * ``"rename"``: the new argument takes the same kind of value (or none): keep it;
    * ``"value"``: the old one is an on/off flag and vLLM's text gives the new one's value.

    An inverse (``disable_x`` -> ``enable_x``), a dotted successor, a value vLLM fills in
    at run time, or kinds that differ: no fix.
    """
    if "." in new or old_flag is None or target["flag"] is None or target["value"] == "?":
        return None
    old_kind, new_kind = kinds.get(old_flag), kinds.get(target["flag"])
    if old_kind in (None, "unknown") or new_kind in (None, "unknown"):
        return None
    polarity = re.compile(r"^(?:enable|disable|no|use|skip)_")
    if polarity.match(old) and polarity.match(new) and polarity.match(old).group(0) != polarity.match(new).group(0):
        return None
    if target["value"] is not None:
        return "value" if old_kind == "flag" and new_kind in ("one", "optional") else None
    if old_kind == new_kind and old_kind != "bool":
        return "rename"
    return None


def optional(tree: Tree, dotted: str, annotation: ast.AST) -> bool:
    """The field's type hint admits None: get_kwargs wraps its type in ``optional_type``."""
    return ("name", "None") in (_hints(tree, dotted, annotation) or ())


def none_choice(arg_utils: ast.Module) -> str | None:
    """What the word ``None`` does to an optional Literal option, from get_kwargs' choices.

    ``optional_type`` turns the word into Python's None before argparse checks the choices.
    Up to 0.30 get_kwargs appends the *string* "None" to them (``choices.append("None")``):
    None is not among them, so argparse stops ("invalid choice: None"): ``"string"``. From 0.31 it
    appends None itself (``"value"``): argparse accepts the word."""
    for node in ast.walk(arg_utils):
        if (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append"
            and isinstance(node.func.value, ast.Subscript) and isinstance(node.func.value.slice, ast.Constant)
            and node.func.value.slice.value == "choices" and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant) and node.args[0].value in ("None", None)
        ):
            return "string" if node.args[0].value == "None" else "value"
    return None


def release_schema(wheel: Path) -> dict:
    """One release: options (string -> dest), keywords per constructor, choices and bounds per dest."""
    with zipfile.ZipFile(wheel) as archive:
        tree = Tree(archive)
        readers: list[Reader] = []
        kinds: dict[str, str] = {}
        arg_utils = tree.module("vllm.engine.arg_utils")
        classes = {n.name: n for n in arg_utils.body if isinstance(n, ast.ClassDef)}
        for name in ("EngineArgs", "AsyncEngineArgs"):
            for func in classes[name].body if name in classes else ():
                if isinstance(func, ast.FunctionDef) and func.name == "add_cli_args":
                    reader = Reader(tree, "vllm.engine.arg_utils")
                    reader.function(func)
                    readers.append(reader)
        frontend: list[tuple[str, ast.ClassDef]] = []
        for dotted in (*ARG_MODULES, "vllm.entrypoints.cli.serve"):
            module = tree.module(dotted)
            if module is None:
                continue
            for node in module.body:
                if isinstance(node, ast.FunctionDef) and (node.name == "make_arg_parser" or dotted.endswith("cli.serve")):
                    reader = Reader(tree, dotted)
                    reader.function(node)
                    readers.append(reader)
                if isinstance(node, ast.ClassDef) and dotted.endswith("cli.serve"):
                    for method in node.body:
                        if isinstance(method, ast.FunctionDef) and method.name == "subparser_init":
                            reader = Reader(tree, dotted)
                            reader.function(method)
                            readers.append(reader)
                if isinstance(node, ast.ClassDef) and node.name == "FrontendArgs":
                    frontend.append((dotted, node))
        options: dict[str, str] = {"-h": "help", "--help": "help"}
        choices: dict[str, dict] = {}
        keys: dict[str, dict] = {}
        config_classes = ConfigClasses(tree)
        bounds: dict[str, dict] = {}
        none_word = none_choice(arg_utils)
        # get_kwargs gives a list of Literal values their choices (0.9+).
        list_choices = 'get_origin(kwargs[name].get("type")) is Literal' in archive.read("vllm/engine/arg_utils.py").decode("utf-8")
        engine_fields = dataclass_fields(tree, "vllm.engine.arg_utils", classes["EngineArgs"])
        for reader in readers:
            kinds.update(reader.options)
            options.update(reader.dests)
            for dest, source in reader.sources.items():
                module, cls, field = source
                annotation = field_annotation(tree, module, cls, field)
                validated = config_classes.of_field(module, cls, field)
                if annotation is not None and dest not in reader.doubtful:
                    # get_kwargs: a Literal member gives argparse choices unless the union has str
                    # (then a metavar); another member (torch.dtype) does not stop them.
                    values = literal_values(tree, *annotation, others=NOT_STRINGS)
                    elements = element_literals(tree, *annotation) if list_choices and not values else None
                    if elements:
                        # A list of Literal values (nargs="+"): each value is one of them, or one
                        # of the choices add_cli_args adds ("model,worker").
                        values = elements + reader.extra.get(dest, [])
                    if values and reader.fewer.get(dest):
                        values = [value for value in values if value not in reader.fewer[dest]]
                    if values:
                        choices.setdefault(dest, {})["cli"] = ordered(values)
                        if optional(tree, *annotation):
                            if none_word == "string":
                                choices[dest]["none"] = "cli"
                            elif none_word == "value" and elements and validated:
                                choices[dest]["none"] = "config"  # [None]: not a member at start-up
                if validated:
                    # At start-up the config field validates the value: a string outside the Literal
                    # fails every member (--lora-dtype half: str | torch.dtype on the command line,
                    # Literal | torch.dtype in LoRAConfig).
                    values = literal_values(tree, *annotation, others=VALIDATED)
                    message = None
                    if not values:
                        # A pydantic config validates each element of a list of Literal values.
                        values = element_literals(tree, *annotation)
                    if not values:
                        values, message = validated_choices(tree, module, cls, field) or (None, None)
                    if values:
                        choices.setdefault(dest, {})["config"] = ordered(values)
                    if message:
                        choices[dest]["message"] = message
                limits = field_bounds(cls, tree, module, field)
                if limits:
                    bounds[dest] = limits
            for dest, values in reader.choices.items():
                choices.setdefault(dest, {})["cli"] = ordered(values)
                choices[dest].pop("none", None)  # its own choices=: not get_kwargs' "None"
            for dest, (module, cls, field) in reader.targets.items():
                found = config_keys(tree, module, cls, field, config_classes)
                if found is not None:
                    keys[dest] = found
        for dotted, cls in frontend:
            retyped = frontend_retyped(tree, dotted, cls)
            for field, annotation in dataclass_fields(tree, dotted, cls).items():
                option = "--" + field.replace("_", "-")
                kinds.setdefault(option, kind_of_field(tree, *annotation))
                options.setdefault(option, field)
                if field not in retyped and kinds.get(option) != "bool":
                    # FrontendArgs.add_cli_args spreads get_kwargs(FrontendArgs): the same choices.
                    values = literal_values(tree, *annotation, others=NOT_STRINGS)
                    if values:
                        choices.setdefault(field, {})["cli"] = ordered(values)
                        if none_word == "string" and optional(tree, *annotation):
                            choices[field]["none"] = "cli"
        # Python: a keyword's own annotation, when it is only Literal values, is validated by the
        # config, unless the config field skips validation (block_size up to 0.17).
        unchecked = {
            dest for reader in readers for dest, (module, cls, field) in reader.sources.items()
            if (found := field_annotation(tree, module, cls, field)) is not None and skips_validation(found[1])
        }
        for dest in list(choices) + [name for name in engine_fields if name not in choices]:
            annotation = engine_fields.get(dest)
            if annotation is None or dest in unchecked:
                continue
            values = literal_values(tree, *annotation, others=VALIDATED)
            if values:
                choices.setdefault(dest, {})["python"] = ordered(values)
        enable_disable = "EnableDisableAction" in archive.read("vllm/utils/argparse_utils.py").decode("utf-8") if "vllm/utils/argparse_utils.py" in tree.names else False
        plain_actions = set().union(*(reader.plain_actions for reader in readers))
        for option, kind in list(kinds.items()):
            if not option.startswith("--"):
                continue
            dest = options.get(option)
            if kind == "bool":
                options.setdefault("--no-" + option[2:], dest)
                # EnableDisableAction pairs --enable-x and --disable-x both ways (--no-x stays).
                if enable_disable and option.startswith("--enable-"):
                    options.setdefault("--disable-" + option[len("--enable-") :], dest)
                elif enable_disable and option.startswith("--disable-"):
                    options.setdefault("--enable-" + option[len("--disable-") :], dest)
            elif kind == "unknown" and option not in plain_actions:
                options.setdefault("--no-" + option[2:], "?")  # a custom action may add it
        keywords = {
            "EngineArgs": sorted(engine_fields),
            "AsyncEngineArgs": sorted(dataclass_fields(tree, "vllm.engine.arg_utils", classes["AsyncEngineArgs"])) if "AsyncEngineArgs" in classes else sorted(engine_fields),
            "LLM": sorted(llm_keywords(tree, engine_fields)),
        }
        all_keywords = set().union(*keywords.values())
        for dest in dash_normalised(classes["EngineArgs"]):
            if dest in keys:
                keys[dest]["dashes"] = True
        items = {}
        for reader in readers:
            items.update(reader.items)
        for dotted, cls in frontend:
            items.update(frontend_item_forms(tree, dotted, cls))
        grammars = {name: parse_grammar(tree, name) for name in PARSE_FUNCTIONS}
        for name, parser in parse_functions(arg_utils).items():
            grammar = grammars.get(parser)
            if grammar is not None and (name in engine_fields or any(dest == name for dest in options.values())):
                items.setdefault(name, {"parse": parser, **grammar})
        return {
            "options": dict(sorted(options.items())),
            "keywords": keywords,
            "renames": release_renames(tree, options, kinds, all_keywords),
            "choices": dict(sorted(choices.items())),
            "bounds": dict(sorted(bounds.items())),
            "keys": dict(sorted(keys.items())),
            "items": dict(sorted(items.items())),
        }


def dash_normalised(engine: ast.ClassDef) -> set[str]:
    """Dict arguments whose keys ``EngineArgs`` rewrites with dashes as underscores before the
    config is built from them (``{k.replace("-", "_"): v for k, v in self.speculative_config.items()}``,
    0.34): ``num-speculative-tokens`` is ``num_speculative_tokens`` there."""
    found = set()
    for node in ast.walk(engine):
        if not (isinstance(node, ast.DictComp) and len(node.generators) == 1):
            continue
        key, source = node.key, node.generators[0].iter
        if (
            isinstance(key, ast.Call)
            and isinstance(key.func, ast.Attribute)
            and key.func.attr == "replace"
            and [a.value if isinstance(a, ast.Constant) else None for a in key.args] == ["-", "_"]
            and isinstance(source, ast.Call)
            and isinstance(source.func, ast.Attribute)
            and source.func.attr == "items"
            and isinstance(source.func.value, ast.Attribute)
            and isinstance(source.func.value.value, ast.Name)
            and source.func.value.value.id == "self"
        ):
            found.add(source.func.value.attr)
    return found


def llm_keywords(tree: Tree, engine_fields) -> set[str]:
    module = tree.module("vllm.entrypoints.llm")
    for node in module.body if module is not None else ():
        if isinstance(node, ast.ClassDef) and node.name == "LLM":
            for method in node.body:
                if isinstance(method, ast.FunctionDef) and method.name == "__init__":
                    args = method.args
                    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs} - {"self"}
                    if args.kwarg is not None:
                        names |= set(engine_fields)
                    return names
    return set(engine_fields)


def release_options(wheel: Path) -> dict[str, str]:
    with zipfile.ZipFile(wheel) as archive:
        tree = Tree(archive)
        options: dict[str, str] = {}
        arg_utils = tree.module("vllm.engine.arg_utils")
        for cls in (n for n in arg_utils.body if isinstance(n, ast.ClassDef) and n.name in ("EngineArgs", "AsyncEngineArgs")):
            for func in cls.body:
                if isinstance(func, ast.FunctionDef) and func.name == "add_cli_args":
                    reader = Reader(tree, "vllm.engine.arg_utils")
                    reader.function(func)
                    options.update(reader.options)
        for dotted in ARG_MODULES:
            module = tree.module(dotted)
            if module is None:
                continue
            for node in module.body:
                if isinstance(node, ast.FunctionDef) and node.name == "make_arg_parser":
                    reader = Reader(tree, dotted)
                    reader.function(node)
                    options.update(reader.options)
                if isinstance(node, ast.ClassDef) and node.name == "FrontendArgs":
                    options.update(frontend_options(tree, dotted, node))
        return dict(sorted(options.items()))


def build_options(versions) -> dict:
    releases = [".".join(v.split(".")[:2]) for v in versions]
    per_release = [release_options(find_wheel(v)) for v in versions]
    names = sorted(set().union(*per_release))
    table = {}
    for name in names:
        kinds = [options.get(name) for options in per_release]
        table[name] = kinds[0] if all(k == kinds[0] for k in kinds) else kinds
    return {
        "generated_by": "python tools/vllm_schema.py",
        "from": [f"vllm=={v}" for v in versions],
        "releases": releases,
        "options": table,
    }


def shared(values: list):
    """One value for every release, or ``{"@": [[first release index, value], ...]}`` where it changes."""
    if all(value == values[0] for value in values):
        return values[0]
    changes = []
    for index, value in enumerate(values):
        if not changes or changes[-1][1] != value:
            changes.append([index, value])
    return {"@": changes}


def build_schema(versions) -> dict:
    per_release = [release_schema(find_wheel(v)) for v in versions]
    schema: dict = {
        "generated_by": "python tools/vllm_schema.py " + " ".join(versions),
        "from": [f"vllm=={v} (wheel from PyPI, read with ast)" for v in versions],
        "releases": [".".join(v.split(".")[:2]) for v in versions],
        "options": {},
        "keywords": {},
        "choices": {},
        "bounds": {},
        "keys": {},
        "items": {},
        "renames": {},
    }
    for name in sorted(set().union(*(r["options"] for r in per_release))):
        schema["options"][name] = shared([r["options"].get(name) for r in per_release])
    for kind in ("LLM", "EngineArgs", "AsyncEngineArgs"):
        present = [set(r["keywords"][kind]) for r in per_release]
        schema["keywords"][kind] = {
            name: shared([1 if name in names else 0 for names in present]) for name in sorted(set().union(*present))
        }
    # A documented rename: the newest release whose text documents it has the last word.
    for index, release in enumerate(per_release):
        for old, record in release["renames"].items():
            first = schema["renames"].get(old, {}).get("documented", [schema["releases"][index]])[0]
            schema["renames"][old] = dict(record, documented=[first, schema["releases"][index]])
    schema["renames"] = dict(sorted(schema["renames"].items()))
    for part in ("choices", "bounds", "keys", "items"):
        for name in sorted(set().union(*(r[part] for r in per_release))):
            schema[part][name] = shared([r[part].get(name) for r in per_release])
    return schema


def find_wheel(version: str) -> Path:
    folders = [Path(p) for p in os.environ.get("VLLM_LINT_WHEELS", "").split(os.pathsep) if p]
    folders.append(Path(os.environ.get("VLLM_LINT_CACHE", Path.home() / ".cache" / "vllm-lint")) / "wheels")
    for folder in folders:
        found = sorted(folder.glob(f"vllm-{version}-*.whl")) if folder.is_dir() else []
        if found:
            return found[0]
    target = folders[-1]
    target.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", f"vllm=={version}", "-d", str(target)], check=True)
    return sorted(target.glob(f"vllm-{version}-*.whl"))[0]


def committed_versions() -> list[str]:
    if not SCHEMA.exists():
        return list(SUPPORTED)
    data = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return [entry.split("==", 1)[1].split(" ", 1)[0] for entry in data["from"]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("versions", nargs="*", help="releases to read (default: those the committed schema lists)")
    parser.add_argument("--add", metavar="VERSION", help="add one release (e.g. 0.35.0) to the committed ones")
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead of writing them")
    args = parser.parse_args(argv)
    versions = args.versions or committed_versions()
    if args.add:
        versions = sorted(set(versions) | {args.add}, key=lambda v: tuple(int(p) for p in v.split(".")[:2]))
    outputs = {
        OUTPUT: json.dumps(build_options(SUPPORTED), indent=0, sort_keys=False) + "\n",
        SCHEMA: json.dumps(build_schema(versions), separators=(",", ":"), sort_keys=False) + "\n",
    }
    status = 0
    for path, text in outputs.items():
        if args.check:
            same = path.read_text(encoding="utf-8") == text
            print(f"{path.name}: " + ("up to date" if same else "differs: regenerate with python tools/vllm_schema.py"))
            status |= 0 if same else 1
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
