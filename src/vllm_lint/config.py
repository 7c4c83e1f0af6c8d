"""Settings: ``[tool.vllm-lint]`` in pyproject.toml, and the target vLLM version.

The target version of a file is, in order: ``--target-version``; the
``target-version`` setting; the project's pinned requirement (``vllm==X`` or
``vllm~=X`` in a pyproject.toml or requirements*.txt in the file's folder or
above it); the installed vLLM's version; else the newest release the rules know.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from vllm_lint.versions import NEWEST_VERSION, Version, VersionError

CONFIG_SECTION = "vllm-lint"
DEFAULT_EXCLUDES = (
    ".git",
    ".hg",
    ".svn",
    ".tox",
    ".nox",
    ".venv",
    "venv",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    "__pycache__",
    "node_modules",
    "site-packages",
    "build",
    "dist",
    "*.egg-info",
)
_PIN_RE = re.compile(r"^\s*vllm\s*(?:\[[^\]]*\])?\s*(==|~=|===)\s*v?([0-9][0-9A-Za-z.+!-]*)", re.I)


class ConfigError(ValueError):
    """A setting that cannot be used (exit code 2)."""


def _load_toml(path: Path) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10
        import tomli as tomllib
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def _as_list(value: object, key: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise ConfigError(f"[tool.vllm-lint] {key} must be a list of strings")


@dataclass
class Settings:
    target_version: Version | None = None
    target_version_source: str = ""
    select: list[str] = field(default_factory=lambda: ["VLM"])
    ignore: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    config_path: Path | None = None

    def enabled(self, code: str) -> bool:
        from vllm_lint.rules import OPT_IN_CODES  # here: settings load before any rule is needed

        selectors = self.select
        if code in OPT_IN_CODES:  # only a selector that names it: its code, or a prefix longer than "VLM"
            selectors = [prefix for prefix in selectors if prefix not in ("VLM", "ALL")]
        return _matches(code, selectors) and not _matches(code, self.ignore)

    def ignored_for(self, path: str) -> list[str]:
        import fnmatch

        codes: list[str] = []
        normalized = path.replace(os.sep, "/")
        name = normalized.rsplit("/", 1)[-1]
        for pattern, ignored in self.per_file_ignores.items():
            if fnmatch.fnmatch(normalized, pattern) or fnmatch.fnmatch(name, pattern) or fnmatch.fnmatch(
                normalized, "*/" + pattern
            ):
                codes.extend(ignored)
        return codes


def _matches(code: str, prefixes: list[str]) -> bool:
    return any(prefix == "ALL" or code.startswith(prefix) for prefix in prefixes)


def find_config(start: Path) -> Path | None:
    """The nearest pyproject.toml with a [tool.vllm-lint] table, from ``start`` upwards."""
    directory = start.resolve()
    if directory.is_file():
        directory = directory.parent
    for candidate in [directory, *directory.parents]:
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file():
            try:
                data = _load_toml(pyproject)
            except (OSError, ValueError):
                continue
            if CONFIG_SECTION in data.get("tool", {}):
                return pyproject
    return None


def load_settings(start: Path, config_path: Path | None = None) -> Settings:
    settings = Settings()
    path = config_path or find_config(start)
    if path is None:
        return settings
    try:
        data = _load_toml(path)
    except (OSError, ValueError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from error
    table = data.get("tool", {}).get(CONFIG_SECTION, {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.vllm-lint] must be a table")
    settings.config_path = path
    known = {"target-version", "select", "ignore", "exclude", "extend-exclude", "per-file-ignores", "frameworks"}
    unknown = set(table) - known
    if unknown:
        raise ConfigError(f"{path}: unknown [tool.vllm-lint] setting(s): {', '.join(sorted(unknown))}")
    if "target-version" in table:
        try:
            settings.target_version = Version.parse(str(table["target-version"]))
        except VersionError as error:
            raise ConfigError(f"{path}: target-version: {error}") from error
        settings.target_version_source = f"target-version in {path}"
    if "select" in table:
        settings.select = [c.upper() for c in _as_list(table["select"], "select")]
    settings.ignore = [c.upper() for c in _as_list(table.get("ignore"), "ignore")]
    settings.exclude = _as_list(table.get("exclude"), "exclude") + _as_list(table.get("extend-exclude"), "extend-exclude")
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise ConfigError(f"{path}: per-file-ignores must be a table of glob = [codes]")
    settings.per_file_ignores = {
        pattern: [c.upper() for c in _as_list(codes, "per-file-ignores")] for pattern, codes in per_file.items()
    }
    return settings


class VersionResolver:
    """Finds each file's target version; caches per folder."""

    def __init__(self, explicit: Version | None = None, explicit_source: str = "") -> None:
        self.explicit = explicit
        self.explicit_source = explicit_source
        self._by_dir: dict[Path, tuple[Version, str] | None] = {}
        self._installed: tuple[Version, str] | None | bool = False

    def for_path(self, path: str | None) -> tuple[Version, str]:
        if self.explicit is not None:
            return self.explicit, self.explicit_source
        if path and path not in ("-", "stdin"):
            pinned = self._pinned(Path(path).resolve().parent)
            if pinned is not None:
                return pinned
        installed = self._installed_version()
        if installed is not None:
            return installed
        return NEWEST_VERSION, "the newest vLLM release the rules know"

    def _pinned(self, directory: Path) -> tuple[Version, str] | None:
        if directory in self._by_dir:
            return self._by_dir[directory]
        found = _pin_in(directory)
        if found is None and directory.parent != directory and not (directory / ".git").exists():
            found = self._pinned(directory.parent)
        self._by_dir[directory] = found
        return found

    def _installed_version(self) -> tuple[Version, str] | None:
        if self._installed is False:
            self._installed = None
            try:
                from importlib import metadata

                installed = metadata.version("vllm")
                self._installed = (Version.parse(installed), f"the installed vllm {installed}")
            except Exception:  # not installed, or an unparseable local build
                self._installed = None
        return self._installed  # type: ignore[return-value]


def _pin_in(directory: Path) -> tuple[Version, str] | None:
    try:
        entries = sorted(os.listdir(directory))
    except OSError:
        return None
    for name in entries:
        if name == "pyproject.toml":
            found = _pin_in_pyproject(directory / name)
        elif name.startswith("requirements") and name.endswith((".txt", ".in")):
            found = _pin_in_lines(directory / name)
        else:
            continue
        if found is not None:
            return found
    return None


def _pin_in_lines(path: Path) -> tuple[Version, str] | None:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        version = _pin_of(line.split("#", 1)[0])
        if version is not None:
            return version, f"the pinned requirement in {path}"
    return None


def _pin_in_pyproject(path: Path) -> tuple[Version, str] | None:
    try:
        data = _load_toml(path)
    except (OSError, ValueError):
        return None
    project = data.get("project", {})
    requirements = list(project.get("dependencies", []) or [])
    for extra in (project.get("optional-dependencies", {}) or {}).values():
        requirements.extend(extra or [])
    for requirement in requirements:
        if isinstance(requirement, str):
            version = _pin_of(requirement)
            if version is not None:
                return version, f"the pinned requirement in {path}"
    poetry = data.get("tool", {}).get("poetry", {}).get("dependencies", {})
    spec = poetry.get("vllm") if isinstance(poetry, dict) else None
    if isinstance(spec, dict):
        spec = spec.get("version")
    if isinstance(spec, str):
        text = spec.strip()
        if text[:1].isdigit():
            text = "==" + text
        version = _pin_of("vllm" + text)
        if version is not None:
            return version, f"the pinned requirement in {path}"
    return None


def _pin_of(requirement: str) -> Version | None:
    match = _PIN_RE.match(requirement)
    if not match:
        return None
    try:
        return Version.parse(match.group(2))
    except VersionError:
        return None
