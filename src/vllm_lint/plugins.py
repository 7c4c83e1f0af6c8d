"""Engine arguments a project's own vLLM plugin adds.

vLLM loads every installed general plugin (the entry point group ``vllm.general_plugins``)
before it builds its argument parser and its ``EngineArgs``.  A plugin may patch both: a
project that registers one, as Snowflake's ArcticInference does, runs its code, scripts and
launches with its own arguments::

    [project.entry-points."vllm.general_plugins"]
    arctic_inference = "arctic_inference.vllm.plugin:arctic_inference_plugin"

    @dataclass
    class ArcticArgs:
        ulysses_sequence_parallel_size: int = 1

    class ArcticEngineArgs(EngineArgs, ArcticArgs): ...

The arguments it adds are read from the plugin's package: the annotated fields of its
subclasses of ``EngineArgs``/``AsyncEngineArgs`` and of their bases defined there.  Those
names (``ulysses_sequence_parallel_size``, ``--ulysses-sequence-parallel-size``) are not
reported as unknown in the project's files; any other name still is.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

GROUP = "vllm.general_plugins"
_ENGINE_ARGS = frozenset({"EngineArgs", "AsyncEngineArgs"})
_MAX_FILES = 3000  # a package larger than this is not scanned: its plugin adds nothing known


class PluginArguments:
    """The arguments the project's plugin adds, set while its files are linted (``facts.reading``)."""

    names: frozenset = frozenset()


def declared_plugins(root: Path) -> list[str]:
    """The modules a project's metadata registers as vLLM general plugins (``pkg.mod:func`` values)."""
    values: list[str] = []
    pyproject = root / "pyproject.toml"
    if _mentions(pyproject):
        from vllm_lint.tomlfiles import load_toml

        try:
            data = load_toml(pyproject)
        except Exception:  # a broken pyproject.toml is reported where it is read as settings
            data = {}
        project = data.get("project") if isinstance(data, dict) else None
        points = project.get("entry-points") if isinstance(project, dict) else None
        group = points.get(GROUP) if isinstance(points, dict) else None
        if isinstance(group, dict):
            values += [v for v in group.values() if isinstance(v, str)]
        poetry = data.get("tool", {}).get("poetry", {}).get("plugins", {}).get(GROUP) if isinstance(data, dict) else None
        if isinstance(poetry, dict):
            values += [v for v in poetry.values() if isinstance(v, str)]
    for name in ("setup.py", "setup.cfg"):
        path = root / name
        if _mentions(path):
            text = path.read_text(encoding="utf-8", errors="replace")
            # ``"vllm.general_plugins": ["name = pkg.mod:func"]`` or setup.cfg's indented lines.
            block = re.search(re.escape(GROUP) + r"""["']?\s*[:=]\s*\[?([^\]\[]*)""", text)
            if block:
                values += re.findall(r"=\s*([\w.]+(?::[\w.]+)?)", block.group(1))
    return values


def _mentions(path: Path) -> bool:
    try:
        return path.is_file() and GROUP.encode() in path.read_bytes()
    except OSError:
        return False


def plugin_arguments(root: Path) -> frozenset:
    """The argument names the vLLM plugins ``root``'s project registers add."""
    names: set[str] = set()
    for value in declared_plugins(root):
        package = value.split(":", 1)[0].split(".", 1)[0].strip()
        for base in (root / package, root / "src" / package):
            if base.is_dir():
                names |= _package_arguments(base)
                break
    return frozenset(names)


def _package_arguments(package: Path) -> set[str]:
    classes: dict[str, tuple[list[str], list[str]]] = {}  # name -> (base names, field names)
    seen = 0
    for folder, subfolders, files in os.walk(package):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith((".", "__pycache__")))
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            seen += 1
            if seen > _MAX_FILES:
                return set()
            path = Path(folder) / name
            try:
                data = path.read_bytes()
                if b"class " not in data:
                    continue
                tree = ast.parse(data)
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            for node in tree.body:
                if isinstance(node, ast.ClassDef):
                    bases = [b.attr if isinstance(b, ast.Attribute) else b.id for b in node.bases if isinstance(b, (ast.Name, ast.Attribute))]
                    fields = [s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
                    classes.setdefault(node.name, (bases, fields))
    found: set[str] = set()
    for bases, fields in classes.values():
        if _ENGINE_ARGS & set(bases):
            found |= _fields(bases, fields, classes, set())
    return found


def _fields(bases, fields, classes, visiting: set) -> set[str]:
    names = set(fields)
    for base in bases:
        if base in classes and base not in _ENGINE_ARGS and base not in visiting:
            visiting.add(base)
            names |= _fields(*classes[base], classes, visiting)
    return names
