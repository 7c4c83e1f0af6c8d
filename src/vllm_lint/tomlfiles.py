"""Reading a TOML file (pyproject.toml, Pipfile, uv.lock): ``tomllib``, or ``tomli`` before Python 3.11."""

from __future__ import annotations

import sys
from pathlib import Path


def load_toml(path: Path) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10
        import tomli as tomllib
    with open(path, "rb") as handle:
        return tomllib.load(handle)
