"""Entry points a framework has beyond the ones its pack records, found in its own source.

A command ``python -m pkg.mod ...`` runs one of a framework's entry points when the
module composes the configuration the pack models: its source holds every marker
of one of the pack's ``launchers.composes`` groups (SkyRL: ``SkyRLTrainConfig``
and ``.from_cli_overrides(``; verl: ``@hydra.main(`` with ``config_name="ppo_trainer"``).
The module is looked up, never imported, in the linted tree (the framework's
repository, a fork, or a project that adds its own entry point to the framework's
package layout) and in the installed framework.  Such an entry point builds the
engines from the config; whether it sends the config's requests is not known
from its source, so only the engine is checked.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from vllm_lint.frameworks.defaults import installed_file, tree_file
from vllm_lint.frameworks.pack import Pack

MAX_MODULE_BYTES = 1024 * 1024


def composes_config(pack: Pack, module: str, linted_path: str | None) -> bool:
    """Whether ``python -m module`` runs an entry point that composes the pack's config."""
    groups = pack.launchers.get("composes", [])
    if not groups or not all(part.isidentifier() for part in module.split(".")):
        return False
    relative = module.replace(".", "/")
    for candidate in (relative + ".py", relative + "/__main__.py"):
        found = tree_file(candidate, linted_path) or installed_file(pack, candidate)
        if found is not None:
            try:
                stat = Path(found).stat()
            except OSError:
                return False
            return _matches(found, stat.st_mtime_ns, stat.st_size, tuple(tuple(group) for group in groups))
    return False


@lru_cache(maxsize=256)
def _matches(file: str, mtime_ns: int, size: int, groups: tuple[tuple[str, ...], ...]) -> bool:
    """Keyed by the file's modification time and size: an edited module is read again."""
    if size > MAX_MODULE_BYTES:
        return False
    try:
        text = Path(file).read_bytes()
    except OSError:
        return False
    return any(all(marker.encode() in text for marker in group) for group in groups)
