"""Exclude patterns, matched as ruff matches them.

A pattern without ``/`` (``build``, ``*.egg-info``) is matched against each
component of a path.  A pattern with ``/`` (``notebooks/*.py``) belongs to a
folder: the one holding the ``pyproject.toml`` that sets it, or the working
directory for ``--exclude``.  ``anchor`` turns it into an absolute pattern
for that folder, matched against a path made absolute, so the command's
working directory and the folder named on the command line do not matter.
The pattern as written is also matched against the end of the path below
the folder being linted (``third_party/vendor`` anywhere in the tree).
"""

from __future__ import annotations

import fnmatch
import functools
import os
import posixpath
import re


def anchor(patterns: list[str], folder: str) -> list[str]:
    """``patterns`` with each path pattern followed by its absolute form below ``folder``."""
    result: list[str] = []
    base = os.path.realpath(folder).replace(os.sep, "/")
    for pattern in patterns:
        result.append(pattern)
        if "/" in pattern.strip("/") and not _is_absolute(pattern):
            result.append(posixpath.normpath(f"{base}/{pattern}"))
    return result


def _is_absolute(pattern: str) -> bool:
    return pattern.startswith("/") or os.path.isabs(pattern)


@functools.lru_cache(maxsize=32)
def matchers(patterns: tuple[str, ...]):
    """Compiled excludes: regexes for name patterns (each path component), path
    patterns (the path below the folder linted) and absolute patterns (the absolute path)."""
    names, paths, absolute = [], [], []
    for pattern in patterns:
        pattern = os.path.normcase(pattern.rstrip("/"))
        if _is_absolute(pattern):
            for variant in (pattern, f"{pattern}/*"):
                absolute.append(fnmatch.translate(variant.replace(os.sep, "/")))
        elif "/" in pattern:
            for variant in (pattern, f"*/{pattern}", f"{pattern}/*", f"*/{pattern}/*"):
                paths.append(fnmatch.translate(variant))
        elif pattern:
            names.append(fnmatch.translate(pattern))

    def compiled(regexes: list[str]):
        return re.compile("|".join(f"(?:{r})" for r in regexes)).match if regexes else None

    return compiled(names), compiled(paths), compiled(absolute)


def absolute_path(path: str) -> str:
    """``path`` made absolute through its folder's real path (a symlinked working directory
    or project folder still matches), keeping its own name (a symlinked file is its link)."""
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.normcase(os.path.join(os.path.realpath(folder), name)).replace(os.sep, "/")


def is_excluded(path: str, patterns: list[str], real: str | None = None) -> bool:
    """``real``: the file's own path when ``path`` is relative to another folder than the
    working directory (for absolute patterns)."""
    names, paths, absolute = matchers(tuple(patterns))
    normalized = os.path.normcase(path).replace(os.sep, "/")
    if paths is not None and paths(normalized):
        return True
    if absolute is not None and absolute(absolute_path(real or path)):
        return True
    if names is not None:
        return any(names(part) for part in normalized.split("/") if part not in ("", ".", ".."))
    return False
