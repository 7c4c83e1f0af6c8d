"""Framework packs: replay settings written in RL frameworks' own configs and launch commands.

Most users who turn replay on set a key in their RL framework's YAML or TOML
(or a Hydra override on its launch command), and the framework forwards it to
vLLM with its own defaults.  A pack (``packs/<framework>.py``, or a table in
``[tool.vllm-lint.frameworks.NAME]``) is data saying how a framework maps its
config to vLLM; one engine reads every pack:

    config file / overrides + the framework's defaults  -> ConfigTree  (tree.py, overrides.py, defaults.py)
    ConfigTree + pack                                   -> EngineFacts, RequestFacts  (build.py)
    facts                                               -> the same rules (checker.check_facts)
    findings                                            -> told at the framework key  (report.py)

Nothing here is loaded unless a file's bytes hold a pack's markers.
"""

from __future__ import annotations

import os

from vllm_lint.facts import Span
from vllm_lint.findings import Finding
from vllm_lint.frameworks.pack import Applied


def config_packs(data: bytes, path: str):
    """The packs (built-in and declared) a config file's bytes may belong to: cheap, no parsing."""
    from vllm_lint.frameworks import packs
    from vllm_lint.frameworks.user import declared_packs

    names = packs.config_candidates(data, os.path.abspath(path))
    found = [packs.load_pack(name) for name in names]
    for pack in declared_packs(path):
        if pack.matches_glob(_relative(path, pack)) or any(m.encode() in data for m in pack.markers):
            found.append(pack)
    return found


def may_be_config(data: bytes, path: str) -> bool:
    from vllm_lint.frameworks import packs
    from vllm_lint.frameworks.user import declared_packs

    if packs.config_candidates(data, os.path.abspath(path)):
        return True
    declared = declared_packs(path)
    return bool(declared) and any(pack.matches_glob(_relative(path, pack)) or any(m.encode() in data for m in pack.markers) for pack in declared)


def may_be_launch(data: bytes, path: str | None = None) -> bool:
    """The bytes may run an entry point of a built-in pack, or of one the project declares."""
    from vllm_lint.frameworks import packs
    from vllm_lint.frameworks.user import declared_packs

    if packs.launch_candidates(data):
        return True
    return any(marker in data for pack in declared_packs(path) for marker in pack.launch_markers())


def _relative(path: str, pack) -> str:
    base = os.path.dirname(pack.declared_in) if pack.declared_in else ""
    try:
        return os.path.relpath(os.path.abspath(path), base).replace(os.sep, "/") if base else path
    except ValueError:
        return path


def lint_config(source, path: str, kind: str, version, data: bytes, version_source: str = "") -> tuple[list[Finding], list[Applied]]:
    """Findings of a framework config file linted on its own; raises ConfigSyntaxError.

    ``version_source`` says where the target version came from: when the project names
    none, the vLLM release the framework pins (for the framework release the project pins) is used.
    """
    from vllm_lint.frameworks.engine import config_findings

    return config_findings(source, path, kind, version, config_packs(data, path), version_source)


def lint_launch(words, source, path: str, version, span_of=None, fallback=None, version_source: str = "") -> tuple[list[Finding], list[Applied]]:
    """Findings of a framework launch command (Hydra overrides) in a shell script, job spec or argv list."""
    from vllm_lint.frameworks.engine import launch_findings

    return launch_findings(words, source, path, version, span_of, fallback, version_source)


__all__ = ["Applied", "Span", "lint_config", "lint_launch", "may_be_config", "may_be_launch"]
