"""User-declared packs: ``[tool.vllm-lint.frameworks.NAME]`` in the project's pyproject.toml.

An in-house framework is described with the same fields as a built-in pack
(``docs/frameworks/README.md``); kebab-case names are accepted.  ``globs`` (relative
to the pyproject.toml) and ``markers`` say which files are its configs.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

from vllm_lint.frameworks.pack import Pack, PackError, pack_from_data


def declared_packs(path: str | None) -> list[Pack]:
    if not path or path in ("-", "stdin", "<stdin>"):
        return []
    return list(_packs_for_dir(os.path.dirname(os.path.abspath(path))))


@lru_cache(maxsize=4096)
def _packs_for_dir(directory: str) -> tuple:
    return _packs_from(Path(directory).resolve())


@lru_cache(maxsize=4096)
def _packs_from(candidate: Path) -> tuple:
    """The packs of the nearest pyproject.toml that declares some, up to the repository's root;
    each folder is looked at once however many folders below it are linted."""
    pyproject = candidate / "pyproject.toml"
    if pyproject.is_file():
        packs = _packs_in(str(pyproject))
        if packs is not None:
            return packs
    if (candidate / ".git").exists() or candidate.parent == candidate:
        return ()
    return _packs_from(candidate.parent)


@lru_cache(maxsize=64)
def _packs_in(pyproject: str) -> tuple | None:
    """The packs a pyproject.toml declares; None when it declares none (the search goes on)."""
    table = _frameworks_table(Path(pyproject))
    return None if table is None else tuple(_packs(table, Path(pyproject)))


def _frameworks_table(pyproject: Path):
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        raw = pyproject.read_bytes()
        if b"frameworks" not in raw:
            return None  # no pack declared: not worth parsing
        data = tomllib.loads(raw.decode("utf-8"))
    except (OSError, ValueError):
        return None
    table = data.get("tool", {}).get("vllm-lint", {})
    if not isinstance(table, dict) or "frameworks" not in table:
        return None
    return table["frameworks"]


# Fields whose value is a list of entry tables: their (and their nested tables') setting
# names are spelled in kebab-case too.  Key paths and option names (``defaults``, ``groups``) are kept.
_ENTRY_LISTS = ("engine", "request", "sets", "switches", "passes")


def _entries(field: str, value):
    if field == "launchers" and isinstance(value, dict):
        return {key.replace("-", "_"): item for key, item in value.items()}
    if field not in _ENTRY_LISTS or not isinstance(value, list):
        return value
    return [_snake(item) for item in value]


def _snake(item):
    if isinstance(item, dict):
        return {
            key.replace("-", "_"): ([_snake(v) for v in value] if isinstance(value, list) and key in ("when-any", "when_any", "null-when", "null_when") else _snake(value) if key == "items" else value)
            for key, value in item.items()
        }
    return item


def _packs(table, pyproject: Path) -> list[Pack]:
    if not isinstance(table, dict):
        raise PackError(f"{pyproject}: [tool.vllm-lint.frameworks] must be a table of NAME = {{...}}")
    packs = []
    for name, spec in table.items():
        if not isinstance(spec, dict):
            raise PackError(f"{pyproject}: [tool.vllm-lint.frameworks.{name}] must be a table")
        data = {key.replace("-", "_"): _entries(key.replace("-", "_"), value) for key, value in spec.items()}
        data.setdefault("name", name)
        data.setdefault("implicit_base", True)
        data.setdefault("formats", ["yaml", "toml"])
        try:
            packs.append(pack_from_data(data, declared_in=str(pyproject)))
        except (PackError, TypeError) as error:
            raise PackError(f"{pyproject}: [tool.vllm-lint.frameworks.{name}]: {error}") from None
    return packs
