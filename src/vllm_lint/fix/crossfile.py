"""Fixes of values written in another project file.

``from .settings import ENGINE_KWARGS`` then ``LLM(**ENGINE_KWARGS)``: the finding is
reported at the engine in this file, but the value is written in ``settings.py``,
and that is where the fix goes, when

* it is written in a dict in the module-level code of that file (run once, on import;
  a function's code may run for other callers too);
* every dict that holds it has one reader in all the analysed code: this engine;
* no other file of the project names the module-level names that hold it, or
  star-imports that module (a reader this run did not analyse);
* the run may edit that file (it is not excluded).

``OtherFiles`` keeps the other files' text as the fixes leave it: the project-module
cache is told, so that the next pass of the analysis reads the new text, and the
command line gets what to show and write (atomically, like any fixed file).

Nothing here imports libcst.
"""

from __future__ import annotations

import ast
import functools
import os
import re
from dataclasses import dataclass
from typing import Callable

# Folders that hold no project code (other files' readers are searched for in the rest).
_NOT_PROJECT = frozenset({"__pycache__", "node_modules", "site-packages", "dist-packages", "build", "dist"})
MAX_PROJECT_FILES = 20_000
MAX_PROJECT_FILE_BYTES = 2 * 1024 * 1024


def _project():
    from vllm_lint.python import project_modules

    return project_modules()


def display_path(path: str) -> str:
    """A path as the user would write it: relative to the working folder when under it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


# ------------------------------------------------------------------ may it be edited there


@functools.lru_cache(maxsize=16)
def _bodies(data: bytes, path: str) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...] | None:
    """Where the functions, lambdas and classes of a module are written; None if it does not parse."""
    from vllm_lint.sources import decode_python

    try:
        tree = ast.parse(decode_python(data), filename=path)
    except (SyntaxError, ValueError, UnicodeDecodeError, LookupError, RecursionError, MemoryError):
        return None
    runs_later = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
    return tuple(
        ((node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset))
        for node in ast.walk(tree)
        if isinstance(node, runs_later)
    )


def _module_level(data: bytes, path: str, line: int, col: int) -> bool:
    """The position is in code that runs once, on import (not in a function, lambda or class)."""
    bodies = _bodies(data, path)
    return bodies is not None and not any(start <= (line, col) < end for start, end in bodies)


def _holds(value: object, allocs: set[int], seen: set[int]) -> bool:
    from vllm_lint.python.values import DictObj, ListObj

    if id(value) in seen:
        return False
    seen.add(id(value))
    if isinstance(value, DictObj):
        return value.alloc in allocs or any(_holds(slot.value, allocs, seen) for slot in value.items.values())
    if isinstance(value, ListObj):
        return any(_holds(elem, allocs, seen) for elem in value.elems)
    return False


def _names_holding(path: str, allocs: set[int]) -> set[str] | None:
    scope = _project().module_scope(path)
    final = getattr(scope, "final", None)
    if final is None:
        return None
    return {name for name, value in final.names.items() if _holds(value, allocs, set())}


def _star_import(stem: str) -> re.Pattern:
    return re.compile(rb"^[ \t]*from[ \t]+[\w.]*\b" + re.escape(stem.encode()) + rb"[ \t]+import[ \t]+\*", re.M)


def _read_elsewhere(root: str, names: frozenset[str], module_path: str, skip: frozenset[str]) -> bool:
    """Some other file of the project may read ``names`` of ``module_path`` (or we cannot tell)."""
    if not names:
        return False
    pattern = re.compile(rb"\b(?:" + b"|".join(re.escape(name.encode()) for name in sorted(names)) + rb")\b")
    stem = os.path.splitext(os.path.basename(module_path))[0]
    star = _star_import(os.path.basename(os.path.dirname(module_path)) if stem == "__init__" else stem)
    count = 0
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [
            name
            for name in subfolders
            if not name.startswith(".")
            and name not in _NOT_PROJECT
            and not os.path.exists(os.path.join(folder, name, "pyvenv.cfg"))
        ]
        for name in files:
            if not name.endswith((".py", ".pyi")):
                continue
            path = os.path.abspath(os.path.join(folder, name))
            if path in skip:
                continue
            count += 1
            if count > MAX_PROJECT_FILES:
                return True
            try:
                if os.path.getsize(path) > MAX_PROJECT_FILE_BYTES:
                    return True
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError:
                continue  # gone, or unreadable: Python cannot import it either
            if pattern.search(data) or star.search(data):
                return True
    return False


def editable_elsewhere(origin, containers: list[int], this_path: str, this_feeds: dict[int, int], scans: dict) -> bool:
    """A fix may edit ``origin`` (written in another project file) in that file.

    ``containers``: the dicts that hold the value, innermost first; ``this_feeds``: their
    readers in this file's analysis; ``scans``: the searches of the project made so far
    (the fixes change values, never the names a file mentions).
    """
    project = _project()
    path = os.path.abspath(origin.path)
    if not containers or path == os.path.abspath(this_path):
        return False
    if any(this_feeds.get(alloc, 0) + project.feeds(alloc, besides=this_path) != 1 for alloc in containers):
        return False
    data = project.source_bytes(path)
    if data is None or not _module_level(data, path, origin.span.line, origin.span.col):
        return False
    names = _names_holding(path, set(containers))
    if names is None:
        return False
    key = (project.root_for(this_path), frozenset(names), path, frozenset({path, os.path.abspath(this_path)}))
    if key not in scans:
        scans[key] = _read_elsewhere(*key)
    return not scans[key]


# ------------------------------------------------------------------ their text


@dataclass
class OtherFix:
    """Another file a fix edits: its bytes and text as read, and its text as the fixes leave it."""

    path: str
    data: bytes
    old_text: str
    new_text: str
    encoding: str

    @property
    def new_data(self) -> bytes:
        return self.new_text.encode(self.encoding)


class OtherFiles:
    """The files other than the linted one that fixes may edit, and their text so far."""

    def __init__(self, may_edit: Callable[[str], bool] = lambda path: True) -> None:
        self.may_edit = may_edit
        self._files: dict[str, OtherFix] = {}
        self.scans: dict[tuple, bool] = {}  # searches of the project for other readers

    def allowed(self, path: str) -> bool:
        return self.may_edit(path)

    def text(self, path: str) -> str | None:
        """The file's text as the analysis reads it (None: it cannot be read)."""
        path = os.path.abspath(path)
        if path not in self._files:
            from vllm_lint.fix.encoding import decode_python

            data = _project().source_bytes(path)
            if data is None:
                return None
            try:
                text, encoded = decode_python(data)
            except (UnicodeDecodeError, SyntaxError, LookupError):
                return None
            self._files[path] = OtherFix(path, data, text, text, encoded.encoding)
        return self._files[path].new_text

    def update(self, path: str, new_text: str) -> None:
        """The fixes changed the file: the next analysis reads the new text."""
        other = self._files[os.path.abspath(path)]
        other.new_text = new_text
        _project().replace_text(other.path, other.new_data)

    def changed(self) -> list[OtherFix]:
        return [other for other in self._files.values() if other.new_text != other.old_text]

    def forget(self) -> None:
        """Nothing was written: the analysis reads the files from disk again."""
        for other in self._files.values():
            if other.new_text != other.old_text:
                _project().replace_text(other.path, None)
        self._files.clear()


def other_files(excludes=()) -> OtherFiles:
    """The other project files a run's fixes may edit: any the run does not exclude."""

    def may_edit(path: str) -> bool:
        from vllm_lint.excludes import is_excluded

        # Matched as discovery matches a file found under the project's root.
        relative = os.path.relpath(path, _project().root_for(path))
        return not is_excluded(relative, list(excludes), real=path)

    return OtherFiles(may_edit)
