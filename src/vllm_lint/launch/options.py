"""Every option ``vllm serve`` accepts, per release, and how many values it takes.

``flags.py`` knows the few options the rules read; this table knows all of
them, for two questions that need the rest: is the word after an option its
value (``--port "$PORT"``), and is a YAML key an option at all (a ``--config``
file read on its own).  The data is generated from each release's wheel by
``tools/vllm_schema.py`` into ``serve_options.json`` and loaded on
first use.  Kinds: ``bool`` (``--x``/``--no-x``), ``flag`` (no value), ``one``
(exactly one value), ``optional``, ``many``, ``unknown``; an option a release
does not have is ``None``.
"""

from __future__ import annotations

import json
import os

from vllm_lint.versions import Version

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "serve_options.json")
ENABLE_DISABLE = (0, 33)  # --disable-x pairs with a boolean --enable-x from this release on
_tables: dict[tuple[int, int], dict[str, str] | None] = {}


def _load() -> dict:
    with open(_DATA, encoding="utf-8") as handle:
        return json.load(handle)


def serve_options(version: Version) -> dict[str, str] | None:
    """Option string -> kind for the release, or None when the table has no such release."""
    release = version.release
    if release in _tables:
        return _tables[release]
    data = _load()
    releases = [tuple(int(part) for part in text.split(".")) for text in data["releases"]]
    table: dict[str, str] | None = None
    if release in releases:
        index = releases.index(release)
        table = {}
        for name, kinds in data["options"].items():
            kind = kinds[index] if isinstance(kinds, list) else kinds
            if kind is not None:
                table[name] = kind
    _tables[release] = table
    return table


def takes_one_value(option: str, version: Version) -> bool:
    """argparse takes exactly the next word as this option's value (or fails); an abbreviation
    of exactly one long option (``--tensor-parallel``) is that option."""
    table = serve_options(version)
    return table is not None and table.get(_spelled_out(option, table)) == "one"


def _spelled_out(option: str, table: dict[str, str]) -> str:
    """The long option a unique prefix stands for, as argparse reads it; else the option itself."""
    if option in table or not option.startswith("--") or len(option) < 3:
        return option
    matches = [name for name in table if name.startswith(option)]
    return matches[0] if len(matches) == 1 else option


def is_serve_option(key: str, version: Version) -> bool | None:
    """A ``--config`` file key names a ``vllm serve`` option (either spelling); None when unknowable."""
    table = serve_options(version)
    if table is None:
        return None
    name = "--" + key.split(".", 1)[0].replace("_", "-")  # dotted keys set one field of a JSON option
    if name in table:
        return True
    if version.release >= ENABLE_DISABLE and name.startswith("--disable-"):
        return table.get("--enable-" + name[len("--disable-") :]) == "bool"
    return False


def option_kind(option: str, version: Version) -> str | None:
    """The option's kind in the release; for a release the table lacks (before 0.28), its kind in
    the oldest release the table has it in (whether an option takes a value rarely changes)."""
    table = serve_options(version)
    if table is not None:
        option = _spelled_out(option, table)
    if table is not None and option in table:
        return table[option]
    data = _load()
    kinds = data["options"].get(option)
    if isinstance(kinds, list):
        return next((kind for kind in kinds if kind is not None), None)
    return kinds
