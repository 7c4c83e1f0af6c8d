"""Entry points a framework has beyond the ones its pack records, found in its own source.

A command ``python -m pkg.mod ...`` (or ``python path/to/script.py ...``) runs one of a
framework's entry points when the module composes the configuration the pack models:
its source holds every marker of one of the pack's ``launchers.composes`` groups
(SkyRL: ``SkyRLTrainConfig`` and ``.from_cli_overrides(``; verl: ``@hydra.main(`` with
``config_name="ppo_trainer"``; NeMo-RL: ``load_config(`` and ``MasterConfig``).  A
framework whose entry scripts compose one config for every algorithm also names, in
``launchers.reaches``, what shows the engine is built from the part the pack models:
the script, or a module it imports (``from pkg.mod import name`` tries ``pkg.mod`` and
``pkg.mod.name``), holds every marker of one group (NeMo-RL: ``VllmGeneration(`` and
``"generation"]``, the policy's generation settings; ROLL: ``actor_infer``), so a
supervised fine-tuning or evaluation script over the same loader is not taken for one.

Modules are looked up, never imported, in the linted tree (the framework's repository,
a fork, or a project that adds its own entry point) and in the installed framework.
Such an entry point builds the engines from the config; whether it sends the config's
requests is not known from its source, so only the engine is checked.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from vllm_lint.frameworks.defaults import installed_file, tree_file
from vllm_lint.frameworks.pack import Pack

MAX_MODULE_BYTES = 1024 * 1024

_IMPORT = re.compile(rb"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)|import[ \t]+([\w.]+))", re.M)


def composes_config(pack: Pack, module: str, linted_path: str | None) -> bool:
    """Whether ``python -m module`` runs an entry point that composes the pack's config."""
    if not pack.launchers.get("composes") or not all(part.isidentifier() for part in module.split(".")):
        return False
    found = _module_file(pack, module, linted_path)
    return found is not None and _entry_point(pack, found, linted_path)


def script_composes(pack: Pack, script: str, linted_path: str | None) -> bool:
    """Whether ``python script.py`` (a path as the command writes it, relative to the project,
    or its literal tail after a variable) runs an entry point that composes the pack's config."""
    if not pack.launchers.get("composes") or not script.endswith(".py"):
        return False
    relative = script.lstrip("/")
    if relative.startswith("./"):
        relative = relative[2:]
    if not relative or ".." in relative.split("/"):
        return False
    found = tree_file(relative, linted_path)
    return found is not None and Path(found).is_file() and _entry_point(pack, found, linted_path)


def _module_file(pack: Pack, module: str, linted_path: str | None) -> str | None:
    relative = module.replace(".", "/")
    for candidate in (relative + ".py", relative + "/__main__.py", relative + "/__init__.py"):
        found = tree_file(candidate, linted_path) or installed_file(pack, candidate)
        if found is not None and Path(found).is_file():
            return found
    return None


def _entry_point(pack: Pack, file: str, linted_path: str | None) -> bool:
    text = _read(file)
    if text is None:
        return False
    if not any(all(marker.encode() in text for marker in group) for group in pack.launchers["composes"]):
        return False
    reaches = [[marker.encode() for marker in group] for group in pack.launchers.get("reaches", [])]
    if not reaches or _holds(text, reaches):
        return True
    for module in _imported(text):
        found = _module_file(pack, module, linted_path)
        imported = _read(found) if found is not None else None
        if imported is None:
            continue
        if _holds(imported, reaches):
            return True
        if found.endswith("__init__.py"):
            # A package that re-exports its submodules' names (``from .setup import setup``).
            for relative in _imported(imported, package=module):
                inner = _module_file(pack, relative, linted_path)
                inner_text = _read(inner) if inner is not None else None
                if inner_text is not None and _holds(inner_text, reaches):
                    return True
    return False


def _holds(text: bytes, groups: list[list[bytes]]) -> bool:
    return any(all(marker in text for marker in group) for group in groups)


def _imported(text: bytes, package: str = "") -> list[str]:
    """The modules a source imports, and for ``from pkg import a, b`` also ``pkg.a`` and ``pkg.b``
    (a name imported from a package may be its submodule).  With ``package`` (the source is that
    package's ``__init__.py``), only its own submodules (relative imports made absolute)."""
    modules = []
    for match in _IMPORT.finditer(text):
        if match.group(3):
            if not package:
                modules.append(match.group(3).decode())
            continue
        base = match.group(1).decode()
        if package:
            if base.startswith(".") and not base.startswith(".."):
                base = package + base if base != "." else package
            elif not base.startswith(package + "."):
                continue
        elif base.startswith("."):
            continue
        modules.append(base)
        names = " ".join(line.split("#", 1)[0] for line in match.group(2).decode().splitlines())
        for name in names.strip().strip("()").split(","):
            words = name.split()
            name = words[0] if words else ""
            if name.isidentifier():
                modules.append(f"{base}.{name}")
    return modules


def _read(file: str) -> bytes | None:
    try:
        stat = Path(file).stat()
    except OSError:
        return None
    return _cached_read(file, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=512)
def _cached_read(file: str, mtime_ns: int, size: int) -> bytes | None:
    """Keyed by the file's modification time and size: an edited module is read again."""
    if size > MAX_MODULE_BYTES:
        return None
    try:
        return Path(file).read_bytes()
    except OSError:
        return None
