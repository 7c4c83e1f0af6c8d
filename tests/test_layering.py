"""The package's layers import downwards only, and no module imports itself back through others.

Every import counts, at module level or inside a function: a lazy import still
ties the two modules together.  The front ends share ``launch``, ``frameworks``
and ``sources``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "vllm_lint"

# A layer and the packages it must never import (at module level or inside functions).
FORBIDDEN = {
    "launch": ("vllm_lint.commandline", "vllm_lint.python", "vllm_lint.lint", "vllm_lint.cli", "vllm_lint.explain"),
    "python": ("vllm_lint.commandline", "vllm_lint.lint", "vllm_lint.cli", "vllm_lint.explain"),
    "commandline": ("vllm_lint.python", "vllm_lint.lint", "vllm_lint.cli", "vllm_lint.explain"),
    "frameworks": ("vllm_lint.commandline", "vllm_lint.python", "vllm_lint.lint", "vllm_lint.cli", "vllm_lint.explain"),
    "sources.py": ("vllm_lint.commandline", "vllm_lint.python", "vllm_lint.lint", "vllm_lint.launch"),
    # What the language server knows of documents is plain data; only its protocol layer speaks LSP.
    "server/documents.py": ("pygls", "lsprotocol"),
}


# The layers, top down.  A module may import its own layer and the ones below it (a module of a
# lower layer imports a package's submodule by its full name: ``import vllm_lint.launch.schema as
# schema``, not ``from vllm_lint.launch import schema``, which imports the package too); a name covers
# a module and, when it is a package, its submodules (the longest name that covers a module wins).
LAYERS: tuple[tuple[str, ...], ...] = (
    # entry points
    ("__main__", "cli", "explain", "server", "integrations", "pylint"),
    # fixing and reporting
    ("fix", "output", "add_noqa", "upgrade", "bump"),
    # a file's settings: configuration, rule selection, target release, what is reported
    ("settings",),
    # linting a file, in this process or in workers
    ("lint", "parallel"),
    # front ends
    ("python", "commandline", "frameworks"),
    # what the front ends share: launch commands, edits of text, YAML structure and argv lists, sources
    ("launch", "commandline.fixes", "commandline.kinds", "fix.argv", "fix.encoding", "fix.structure", "fix.text",
     "sources", "noqa", "notebook"),
    # facts to findings
    ("checker", "config"),
    ("rules",),
    # data every layer reads
    ("__init__", "facts", "model_facts", "quantization_overrides", "plugins", "findings", "versions", "runner", "pins", "dockerfiles", "images", "tomlfiles", "excludes", "columns", "style",
     "launch.schema", "launch.schemadata", "gitignore"),
)


def module_name(path: Path) -> str:
    """``python.analyzer`` for python/analyzer.py, ``python`` for python/__init__.py, ``__init__`` for the package's own."""
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int:
    best, layer = -1, None
    for index, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best:
                best, layer = len(name), index
    assert layer is not None, f"{module} is in no layer of LAYERS"
    return layer


def package_imports(module: str) -> set[str]:
    """The vllm_lint modules ``module`` imports (``__init__`` for the package itself), anywhere in its code.

    ``from vllm_lint.pkg import name`` imports ``pkg`` and, when it is a module, ``pkg.name``."""
    path = MODULES[module]
    package = module.split(".") if path.name == "__init__.py" and module != "__init__" else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                full = ".".join(["vllm_lint", *base, *([node.module] if node.module else [])])
            else:
                full = node.module or ""
            targets = [full] + [f"{full}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            if target == "vllm_lint":
                name = "__init__"
            elif target.startswith("vllm_lint."):
                name = target.removeprefix("vllm_lint.")
            else:
                continue
            if name in MODULES and name != module:
                found.add(name)
    return found


IMPORTS = {module: package_imports(module) for module in MODULES}


def upward_imports(imports: dict[str, set[str]]) -> list[str]:
    return [
        f"{module} (layer {layer_of(module)}) imports {name} (layer {layer_of(name)})"
        for module, names in sorted(imports.items())
        for name in sorted(names)
        if layer_of(name) < layer_of(module)
    ]


def test_every_module_is_in_a_layer():
    assert all(layer_of(module) >= 0 for module in MODULES)
    assert {"cli", "settings", "lint", "python.analyzer", "rules.unused_noqa", "findings"} <= set(MODULES)


def test_every_module_imports_its_own_layer_or_lower():
    assert upward_imports(IMPORTS) == []


def test_the_layer_test_finds_an_upward_import():
    """The settings layer asking the command line for something would be an upward import."""
    imports = {module: set(names) for module, names in IMPORTS.items()}
    assert "settings" in imports["explain"] and "lint" in imports["settings"]
    imports["settings"].add("cli")
    assert set(upward_imports(imports)) - set(upward_imports(IMPORTS)) == {"settings (layer 2) imports cli (layer 0)"}


def import_cycles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for name in sorted(imports[module]):
            if name not in index:
                visit(name)
                low[module] = min(low[module], low[name])
            elif name in on_stack:
                low[module] = min(low[module], index[name])
        if low[module] == index[module]:
            component = []
            while True:
                name = stack.pop()
                on_stack.discard(name)
                component.append(name)
                if name == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(imports):
        if module not in index:
            visit(module)
    return cycles


def test_no_module_imports_itself_back():
    assert import_cycles(IMPORTS) == []


def test_the_cycle_test_finds_a_cycle():
    """A lazy import from a rule back into the rules' registry is a cycle."""
    imports = {module: set(names) for module, names in IMPORTS.items()}
    imports["rules.unused_noqa"].add("rules")
    assert ["rules", "rules.unused_noqa"] in import_cycles(imports)


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_downwards(layer):
    target = PACKAGE / layer
    files = [target] if target.is_file() else sorted(target.rglob("*.py"))
    assert files
    wrong = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in files
        for name in sorted(imported_modules(path))
        if any(name == banned or name.startswith(banned + ".") for banned in FORBIDDEN[layer])
    ]
    assert wrong == []


def test_only_the_command_line_starts_the_language_server():
    """``vllm_lint.server`` (and pygls) load only for ``vllm-lint server``: no other module imports them."""
    wrong = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).parts[0] not in ("server", "cli.py")
        for name in sorted(imported_modules(path))
        if name.split(".")[0] in ("pygls", "lsprotocol") or name == "vllm_lint.server" or name.startswith("vllm_lint.server.")
    ]
    assert wrong == []
