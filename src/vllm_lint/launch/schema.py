"""vLLM's argument schema: every engine argument of every release.

``vllm_schema.json`` is generated from each release's wheel by
``tools/vllm_schema.py`` (read with ``ast``; nothing is imported from vLLM)
and loaded on first use.  Per release it knows

* every ``vllm serve`` option string (long, short, ``--no-``/``--disable-``
  forms) and the ``dest`` argparse stores it under (``"?"``: an option a custom
  action may add, treated as existing);
* the keywords ``LLM(...)``, ``EngineArgs(...)`` and ``AsyncEngineArgs(...)`` accept;
* per ``dest``, the values argparse (``cli``) and the config's validation
  (``python``) accept, when they are a closed ``Literal`` set;
* per ``dest``, the ``Field(ge/gt/le/lt)`` bounds of the config field it maps to.

Values shared by several releases are stored once: a value, or
``{"@": [[first release index, value], ...]}`` where it changes.
"""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import dataclass
from functools import lru_cache

from vllm_lint.versions import Version

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vllm_schema.json")
CONSTRUCTORS = ("LLM", "EngineArgs", "AsyncEngineArgs")


@lru_cache(maxsize=1)
def _data() -> dict:
    with open(_DATA, encoding="utf-8") as handle:
        return json.load(handle)


@lru_cache(maxsize=1)
def releases() -> tuple[tuple[int, int], ...]:
    return tuple(tuple(int(part) for part in text.split(".")) for text in _data()["releases"])  # type: ignore[misc]


def _at(value: object, index: int) -> object:
    if isinstance(value, dict) and "@" in value:
        current = None
        for first, changed in value["@"]:
            if first > index:
                break
            current = changed
        return current
    return value


@dataclass(frozen=True)
class ReleaseSchema:
    release: tuple[int, int]
    exact: bool  # False: a release the schema does not have (its newest release stands in)
    options: dict  # option string -> dest
    keywords: dict  # constructor -> frozenset of keyword names
    choices: dict  # dest -> {"cli": [...], "python": [...]}
    bounds: dict  # dest -> {"ge": ..., "gt": ..., "le": ..., "lt": ...}

    def has_option(self, option: str) -> bool:
        """argparse accepts the option string: defined, or an abbreviation of exactly one long
        option (an ambiguous one is an error).  A short option's prefix may match a longer
        short option (``-t`` for ``-tp``): accepted, to stay on the safe side."""
        if option in self.options:
            return True
        if option.startswith("--") and len(option) > 2:
            return sum(1 for name in self.options if name.startswith(option)) == 1
        return option.startswith("-") and any(name.startswith(option) for name in self.options)

    def dest(self, option: str) -> str | None:
        dest = self.options.get(option)
        return None if dest == "?" else dest


@lru_cache(maxsize=None)
def _release(index: int) -> ReleaseSchema:
    data = _data()
    options = {name: dest for name, value in data["options"].items() if (dest := _at(value, index)) is not None}
    keywords = {
        kind: frozenset(name for name, value in names.items() if _at(value, index))
        for kind, names in data["keywords"].items()
    }
    choices = {dest: value for dest, raw in data["choices"].items() if (value := _at(raw, index))}
    bounds = {dest: value for dest, raw in data["bounds"].items() if (value := _at(raw, index))}
    return ReleaseSchema(releases()[index], True, options, keywords, choices, bounds)


def schema_for(version: Version) -> ReleaseSchema:
    """The release's schema; for a release the schema lacks, the newest one marked not exact."""
    key = (version.major, version.minor)
    known = releases()
    if key in known:
        return _release(known.index(key))
    newest = _release(len(known) - 1)
    return ReleaseSchema(key, False, newest.options, newest.keywords, newest.choices, newest.bounds)


def option_releases(option: str) -> list[tuple[int, int]]:
    """The known releases that define an option string."""
    raw = _data()["options"].get(option)
    return [release for index, release in enumerate(releases()) if _at(raw, index) is not None] if raw is not None else []


def keyword_releases(kind: str, name: str) -> list[tuple[int, int]]:
    raw = _data()["keywords"].get(kind, {}).get(name)
    return [release for index, release in enumerate(releases()) if _at(raw, index)] if raw is not None else []


def history(present_in: list[tuple[int, int]], release: tuple[int, int]) -> str:
    """" (removed in 0.X)" / " (added in 0.Y)" for a name the release lacks; "" when no release has it."""
    later = [r for r in present_in if r > release]
    earlier = [r for r in present_in if r < release]
    if later:
        return " (added in %d.%d)" % later[0]
    if earlier:
        known = releases()
        following = [r for r in known if r > earlier[-1]]
        return " (removed in %d.%d)" % following[0] if following else ""
    return ""


def near_miss(name: str, candidates) -> str | None:
    """The closest existing name, when one is close enough to be a typo."""
    found = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.85)
    return found[0] if found else None


def release_text(release: tuple[int, int]) -> str:
    return "%d.%d" % release
