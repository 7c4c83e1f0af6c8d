"""Generate ``src/vllm_lint/launch/serve_options.json``: every ``vllm serve`` option per release.

    python tests/oracle/serve_options.py                 # every supported release
    python tests/oracle/serve_options.py --check         # exit 1 when the committed file differs

The wheels are found as the oracle finds them (``vllm_oracle.find_wheel``).
Nothing is imported from vLLM: its parser is read with ``ast``.  Options come
from ``EngineArgs.add_cli_args``, ``AsyncEngineArgs.add_cli_args`` and
``make_arg_parser`` (with the ``FrontendArgs`` dataclass fields it registers).
Each option gets the kind argparse gives it, derived as vLLM's ``get_kwargs``
derives it from a config field's type:

* ``bool``: ``BooleanOptionalAction`` (``--x`` / ``--no-x``), no value;
* ``flag``: ``store_true`` and the like, no value;
* ``one``: exactly one value;
* ``optional``: ``nargs="?"``; ``many``: a list of values;
* ``unknown``: anything this reader cannot decide (a custom action, an
  ``nargs``/``action`` changed after ``get_kwargs``, a type it cannot resolve).

The linter relies on ``one`` only where a wrong answer could report a false
finding, so a doubt is always ``unknown``.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vllm_oracle import SUPPORTED, find_wheel  # noqa: E402

OUTPUT = Path(__file__).resolve().parents[2] / "src" / "vllm_lint" / "launch" / "serve_options.json"
BUILTIN_ONE = {"int", "float", "str", "dict", "Any", "bytes", "Path"}
COLLECTIONS = {"list", "tuple", "set", "List", "Tuple", "Set", "Sequence", "frozenset"}
NO_VALUE_ACTIONS = {"store_true", "store_false", "store_const", "count", "help", "version"}


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
        return None

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


def _hints(tree: Tree, dotted: str, node: ast.AST, depth: int = 0) -> list[tuple[str, object]] | None:
    """The members of a type hint's union, each ("name", text) or ("generic", origin); None when unresolved."""
    if depth > 10:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
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
        if origin == "Annotated":
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
        for node in ast.walk(func):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
                self.add_argument(node, kwargs_of, changed, aliases)

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
        for dotted in ("vllm.entrypoints.openai.cli_args", "vllm.entrypoints.launchers.cli_args", "vllm.entrypoints.common.cli_args"):
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


def build(versions) -> dict:
    releases = [".".join(v.split(".")[:2]) for v in versions]
    per_release = [release_options(find_wheel(v)) for v in versions]
    names = sorted(set().union(*per_release))
    table = {}
    for name in names:
        kinds = [options.get(name) for options in per_release]
        table[name] = kinds[0] if all(k == kinds[0] for k in kinds) else kinds
    return {
        "generated_by": "python tests/oracle/serve_options.py",
        "from": [f"vllm=={v}" for v in versions],
        "releases": releases,
        "options": table,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing it")
    args = parser.parse_args(argv)
    text = json.dumps(build(SUPPORTED), indent=0, sort_keys=False) + "\n"
    if args.check:
        same = OUTPUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUTPUT} differs: regenerate with python tests/oracle/serve_options.py")
        return 0 if same else 1
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
