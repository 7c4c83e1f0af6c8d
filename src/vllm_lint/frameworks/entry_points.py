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

A framework configured with Hydra also names its primary configs (``launchers.config_names``,
verl: ``ppo_trainer``): a module whose ``@hydra.main(config_path=..., config_name=...)``
names one is an entry point, and so is one whose own config (``config_name`` in its
``config_path``, relative to the module, or a package's folder, ``pkg://myproj.conf``, looked
up in the tree or the installed package) composes one in its ``defaults:`` list (verl's
``one_step_off_policy``: ``one_step_off_ppo_trainer.yaml`` over ``ppo_trainer``).  Such a
launch composes over the module's own config; ``--config-name`` without ``--config-path``
is looked up in the module's ``config_path``, and a relative ``--config-path`` is relative
to the module, as Hydra reads them.

Whether such an entry point sends the config's requests is known only when the pack names
what shows it (``launchers.sends``, verl: ``run_ppo(``, the PPO loop whose agent loop sends
the rollout's sampling settings, which the one-step-off-policy and transfer-queue trainers
call too): the module's own source holds every marker of one group.  Otherwise only the
engine is checked.

Modules are looked up, never imported, in the linted tree (the framework's repository,
a fork, or a project that adds its own entry point) and in the installed framework.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

from vllm_lint.frameworks.defaults import installed_file, tree_file
from vllm_lint.frameworks.pack import Pack

MAX_MODULE_BYTES = 1024 * 1024

_IMPORT = re.compile(rb"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)|import[ \t]+([\w.]+))", re.M)


def _derives(pack: Pack) -> bool:
    return bool(pack.launchers.get("composes") or pack.launchers.get("config_names"))


def composes_config(pack: Pack, module: str, linted_path: str | None) -> str | None:
    """The file of the module ``python -m module`` runs, when it is an entry point that
    composes the pack's config; else None."""
    if not _derives(pack) or not all(part.isidentifier() for part in module.split(".")):
        return None
    found = _module_file(pack, module, linted_path)
    return found if found is not None and _entry_point(pack, found, linted_path) else None


def script_composes(pack: Pack, script: str, linted_path: str | None) -> str | None:
    """The file ``python script.py`` (a path as the command writes it, relative to the project,
    or its literal tail after a variable) runs, when it is an entry point that composes the
    pack's config; else None."""
    if not _derives(pack) or not script.endswith(".py"):
        return None
    if os.path.isabs(script) and linted_path and _same_tree(script, linted_path):
        # A path the launch computed from its own location (``$(dirname "$0")/run.py``).
        found = os.path.normpath(script)
        return found if Path(found).is_file() and _entry_point(pack, found, linted_path) else None
    relative = script.lstrip("/")
    if relative.startswith("./"):
        relative = relative[2:]
    if not relative or ".." in relative.split("/"):
        return None
    found = tree_file(relative, linted_path)
    return found if found is not None and Path(found).is_file() and _entry_point(pack, found, linted_path) else None


def _same_tree(script: str, linted_path: str) -> bool:
    """``script`` is in the repository of the linted file (the folder above it holding ``.git``,
    else the linted file's own folder)."""
    folder = Path(linted_path).resolve().parent
    root = next((c for c in [folder, *folder.parents] if (c / ".git").exists()), folder)
    return Path(os.path.normpath(script)).is_relative_to(root)


_HYDRA_MAIN = re.compile(rb"@hydra\.main\(([^)]*)\)")
_HYDRA_KEYWORD = re.compile(rb"\b(config_path|config_name)\s*=\s*(?:r?(['\"])([^'\"\n]*)\2|None)")


def hydra_main(file: str) -> tuple[str | None, str | None] | None:
    """``(config_path, config_name)`` of a module's one ``@hydra.main(...)``, literal strings
    (None where not given or None); None when the module has none, or more than one."""
    text = _read(file)
    if text is None:
        return None
    decorators = _HYDRA_MAIN.findall(text)
    if len(decorators) != 1:
        return None
    found: dict = {"config_path": None, "config_name": None}
    for match in _HYDRA_KEYWORD.finditer(decorators[0]):
        found[match.group(1).decode()] = match.group(3).decode("utf-8", "replace") if match.group(2) else None
    return found["config_path"], found["config_name"]


def hydra_config_file(module_file: str, config_path: str | None, config_name: str | None) -> str | None:
    """The config file a Hydra entry point reads: ``config_name`` in ``config_path``, which is
    relative to the module, or a package's folder (``pkg://myproj.config``, ``pkg://verl/trainer/config``)."""
    if not config_path or not config_name or "${" in config_path + config_name:
        return None
    if config_path.startswith("pkg://"):
        folder = package_folder(module_file, config_path[len("pkg://") :])
        if folder is None:
            return None
    elif "://" in config_path:
        return None  # another config source (``file://`` is rare; a plugin's scheme is not readable)
    else:
        folder = Path(config_path) if os.path.isabs(config_path) else Path(module_file).parent / config_path
    for name in (config_name, config_name + ".yaml", config_name + ".yml"):
        candidate = folder / name
        if candidate.suffix in (".yaml", ".yml") and candidate.is_file():
            return str(candidate)
    return None


def package_folder(module_file: str, package: str) -> Path | None:
    """The folder of a package named as Hydra's ``pkg://`` names it (dots or slashes): in the
    module's own tree (a folder above it, or its ``src``, up to the repository's root), else in
    the installed package (found, never imported)."""
    parts = [part for part in package.replace("/", ".").split(".") if part]
    if not parts or not all(part.isidentifier() for part in parts):
        return None
    relative = Path(*parts)
    directory = Path(module_file).resolve().parent
    for candidate in [directory, *directory.parents]:
        for base in (candidate, candidate / "src"):
            if (base / relative).is_dir() and (base / parts[0] / "__init__.py").is_file():
                return base / relative
        if (candidate / ".git").exists():
            break
    installed = installed_file(None, relative.as_posix())
    return Path(installed) if installed is not None and Path(installed).is_dir() else None


def own_config(pack: Pack, module_file: str) -> str | None:
    """The module's own primary config when it is not the framework's, but composes it."""
    main = hydra_main(module_file)
    if main is None or main[1] in pack.launchers.get("config_names", []):
        return None
    file = hydra_config_file(module_file, *main)
    return file if file is not None and _composes_framework_config(pack, file) else None


def _hydra_entry_point(pack: Pack, file: str) -> bool:
    names = pack.launchers.get("config_names", [])
    if not names:
        return False
    main = hydra_main(file)
    if main is None or main[1] is None:
        return False
    return main[1] in names or own_config(pack, file) is not None


def _composes_framework_config(pack: Pack, config_file: str) -> bool:
    """A config whose ``defaults:`` list names one of the framework's primary configs
    (``- ppo_trainer``, ``- /ppo_trainer``, ``- ppo_trainer@_here_``)."""
    import yaml

    text = _read(config_file)
    if text is None:
        return False
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, UnicodeDecodeError, ValueError):
        return False
    defaults = data.get("defaults") if isinstance(data, dict) else None
    if not isinstance(defaults, list):
        return False
    names = set(pack.launchers.get("config_names", []))
    for item in defaults:
        if isinstance(item, str) and Path(item.strip().lstrip("/").split("@", 1)[0]).stem in names:
            return True
    return False


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
    if _hydra_entry_point(pack, file):
        return True
    if not any(all(marker.encode() in text for marker in group) for group in pack.launchers.get("composes", [])):
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


def sends_requests(pack: Pack, file: str) -> bool:
    """Whether an entry point found in source runs the loop that sends the config's requests."""
    groups = [[marker.encode() for marker in group] for group in pack.launchers.get("sends", [])]
    text = _read(file) if groups else None
    return text is not None and _holds(text, groups)


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
