"""The package's layers import downwards only: the front ends share ``launch``, ``frameworks`` and ``sources``."""

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
