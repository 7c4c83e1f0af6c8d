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
* per ``dest``, the ``Field(ge/gt/le/lt)`` bounds of the config field it maps to;
* per ``dest`` whose value is one ``@config`` dataclass (``--compilation-config``,
  ``--speculative-config``), the fields its JSON value may name and the closed
  choices of those fields (``SpeculativeConfig.method`` in 0.33);

and, for all releases, the renames vLLM's deprecation messages document
(``documented_rename``).

Values shared by several releases are stored once: a value, or
``{"@": [[first release index, value], ...]}`` where it changes.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from functools import lru_cache

from vllm_lint.launch.schemadata import _data, before_known, releases
from vllm_lint.versions import Version

CONSTRUCTORS = ("LLM", "EngineArgs", "AsyncEngineArgs")


def _at(value: object, index: int) -> object:
    if isinstance(value, dict) and "@" in value:
        current = None
        for first, changed in value["@"]:
            if first > index:
                break
            current = changed
        return current
    return value



def any_release() -> Version:
    """Every release, the ones older than the rules know too: code whose vLLM no pin names (a
    Triton server image, a third party's vLLM build)."""
    return Version.admitting([before_known(), *releases()])

@dataclass(frozen=True)
class ReleaseSchema:
    release: tuple[int, int]
    exact: bool  # False: a release the schema does not have (its newest release stands in)
    options: dict  # option string -> dest
    keywords: dict  # constructor -> frozenset of keyword names
    choices: dict  # dest -> {"cli": [...], "python": [...]}
    bounds: dict  # dest -> {"ge": ..., "gt": ..., "le": ..., "lt": ...}
    keys: dict = None  # type: ignore[assignment]  # dest -> {"class": config class, "fields": [...], "choices": {field: [...]}}: its JSON value's keys
    items: dict = None  # type: ignore[assignment]  # dest -> how its action parses each value: {"class", "fields", "required", "pair"}

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
    keys = {dest: value for dest, raw in data.get("keys", {}).items() if (value := _at(raw, index))}
    items = {dest: value for dest, raw in data.get("items", {}).items() if (value := _at(raw, index))}
    return ReleaseSchema(releases()[index], True, options, keywords, choices, bounds, keys, items)


def schema_for(version: Version) -> ReleaseSchema:
    """The release's schema; for a release the schema lacks, the newest one marked not exact."""
    key = (version.major, version.minor)
    known = releases()
    if key in known:
        return _release(known.index(key))
    newest = _release(len(known) - 1)
    return ReleaseSchema(key, False, newest.options, newest.keywords, newest.choices, newest.bounds, {})


def release_for(facts, version: Version) -> ReleaseSchema:
    """The schema an engine's arguments are checked against: its release's, or, when the file
    does not say which release runs it (``facts.release_unknown``), the newest marked not
    exact, so only what no known release accepts is reported."""
    release = schema_for(version)
    if getattr(facts, "release_unknown", False) and release.exact:
        return ReleaseSchema(release.release, False, release.options, release.keywords, release.choices, release.bounds)
    return release


def option_releases(option: str) -> list[tuple[int, int]]:
    """The known releases that define an option string."""
    raw = _data()["options"].get(option)
    return [release for index, release in enumerate(releases()) if _at(raw, index) is not None] if raw is not None else []


def keyword_releases(kind: str, name: str) -> list[tuple[int, int]]:
    raw = _data()["keywords"].get(kind, {}).get(name)
    return [release for index, release in enumerate(releases()) if _at(raw, index)] if raw is not None else []


def history(present_in: list[tuple[int, int]], release: tuple[int, int]) -> str:
    """" (removed in 0.X)" / " (added in 0.Y)" for a name the release lacks, " (removed in 0.X,
    back in 0.Y)" for one that returned; "" when no release has it."""
    later = [r for r in present_in if r > release]
    earlier = [r for r in present_in if r < release]
    removed = ""
    if earlier:
        following = [r for r in releases() if r > earlier[-1]]
        removed = "removed in %d.%d" % following[0] if following else ""
    if later and removed:
        return " (%s, back in %d.%d)" % ((removed,) + later[0])
    if later:
        return " (added in %d.%d)" % later[0]
    return f" ({removed})" if removed else ""


def near_miss(name: str, candidates) -> str | None:
    """The closest existing name, when one is close enough to be a typo."""
    found = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.85)
    return found[0] if found else None


def release_text(release: tuple[int, int]) -> str:
    return "%d.%d" % release


@dataclass(frozen=True)
class Rename:
    """A replacement vLLM's own text documents for an argument (``--old`` is deprecated,
    use ``--new value`` instead), from the newest release whose source says so."""

    old: str  # the old argument's name (``disable_mm_preprocessor_cache``)
    new: str  # its successor (``mm_processor_cache_gb``)
    new_flag: str  # the successor's flag (``--mm-processor-cache-gb``)
    value: str | None  # the value vLLM's text writes with the successor (``0``)
    fix: str | None  # "rename" (same kind of value), "value" (an on/off flag -> the value), None
    release: tuple[int, int]  # the newest release whose source documents it
    message: str  # vLLM's deprecation text, verbatim

    def spelled(self, command_line: bool) -> str:
        """The successor as a command line (``--mm-processor-cache-gb 0``) or Python (``mm_processor_cache_gb=0``) writes it."""
        if command_line:
            return self.new_flag + (f" {self.value}" if self.value is not None else "")
        return self.new + (f"={python_literal(self.value)}" if self.value is not None else "")


def python_literal(text: str) -> str:
    """A value vLLM's text writes on the command line, as a Python literal (a number or a string)."""
    for convert in (int, float):
        try:
            return repr(convert(text))
        except ValueError:
            continue
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def documented_rename(name: str, release: ReleaseSchema, kind: str | None = None) -> Rename | None:
    """The documented successor of an argument the release lacks, when the release has it.

    ``kind``: the constructor a Python keyword is given to (None: a ``vllm serve`` flag).
    A replacement by several arguments (``--task``: ``--runner`` or ``--convert``) is named and
    never fixed; so is a field of another argument's JSON value (``--eplb-config
    '{"num_redundant_experts": ...}'``).
    """
    record = _data().get("renames", {}).get(name)
    if record is None:
        return None
    documented = tuple(int(part) for part in record["documented"][-1].split("."))
    targets = record["to"] if isinstance(record["to"], list) else [record["to"]]
    available = []
    for new in targets:
        if "." in new:
            # A field of another argument's JSON value (``eplb_config.num_redundant_experts``): named
            # when the release has that argument, never fixed (the value moves into a JSON object).
            parent = new.split(".", 1)[0]
            flag = "--" + parent.replace("_", "-")
            if len(targets) != 1 or not (parent in release.keywords.get(kind, ()) if kind else flag in release.options):
                return None
            spelled = f"{parent}={{\"{new.split('.', 1)[1]}\": ...}}" if kind else f"{flag} '{{\"{new.split('.', 1)[1]}\": ...}}'"
            return Rename(name, spelled, spelled, None, None, documented, record["message"])
        flag = "--" + new.replace("_", "-")
        if not (new in release.keywords.get(kind, ()) if kind else flag in release.options):
            return None  # a successor the release lacks: the rename does not help here
        available.append(new)
    if len(available) != 1:
        # Several successors (--task: --runner or --convert, depending on the model): named, never fixed.
        joined = " or ".join(("--" + n.replace("_", "-")) if kind is None else n for n in available)
        return Rename(name, joined, joined, None, None, documented, record["message"])  # type: ignore[arg-type]
    return Rename(name, available[0], record["to_flag"], record.get("value"), record.get("fix"), documented, record["message"])  # type: ignore[arg-type]


def outside_choices(value, accepted) -> bool:
    """A value of the choices' own type that is not one of them (another type: not judged)."""
    if value is None or isinstance(value, bool) or isinstance(accepted[0], bool):
        return False
    if not isinstance(value, type(accepted[0])) or (isinstance(value, int) and isinstance(accepted[0], float)):
        return False
    return value not in accepted



def bound_broken(value, bounds) -> str | None:
    """The first ``Field`` bound a number breaks, as pydantic words it; None when it keeps them
    (or is no number: another type is not judged)."""
    if not bounds or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    holds = {"ge": lambda b: value >= b, "gt": lambda b: value > b, "le": lambda b: value <= b, "lt": lambda b: value < b}
    for key in ("ge", "gt", "le", "lt"):
        if key in bounds and not holds[key](bounds[key]):
            return f"Input should be {BOUND_WORDS[key]} {bounds[key]}"
    return None


def breaks_bounds(value, bounds) -> bool:
    return bound_broken(value, bounds) is not None


BOUND_WORDS = {"ge": "greater than or equal to", "gt": "greater than", "le": "less than or equal to", "lt": "less than"}


def json_object(text: str) -> dict | None:
    """A command-line value that is a JSON object (a config-valued option's keys); else None."""
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return parsed if isinstance(parsed, dict) else None


def config_keys(entry: dict, pairs, inner):
    """Each key of a config-valued argument's dict and of the config dicts inside it
    (``compilation_config["pass_config"]``): ``(path, key, name, item, entry)``, where ``path``
    holds the keys above it, ``name`` is the field the key names (dashes read as underscores
    where vLLM rewrites the keys: ``--speculative-config`` in 0.34), ``item`` its value as
    given and ``entry`` the schema of its config.  ``pairs`` are the dict's (key, value)
    pairs; ``inner(value)`` gives those of a value that is a dict itself, else None."""
    stack = [((), entry, pairs, bool(entry.get("dashes")))]
    while stack:
        path, entry, pairs, dashes = stack.pop()
        for key, item in pairs:
            if not isinstance(key, str):
                continue
            name = key.replace("-", "_") if dashes else key
            yield path, key, name, item, entry
            sub = entry.get("nested", {}).get(name)
            inner_pairs = inner(item) if sub is not None else None
            if inner_pairs is not None:
                stack.append(((*path, key), sub, inner_pairs, False))


def json_pairs(value):
    """A JSON object's (key, value) pairs, for ``config_keys``; None for anything else."""
    return list(value.items()) if isinstance(value, dict) else None
