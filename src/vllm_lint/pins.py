"""The vLLM release a project's requirements fix.

A requirement fixes a release when every version it admits is in one minor
release: ``vllm==0.31.2``, ``vllm~=0.31.2``, ``vllm==0.31.*``,
``vllm>=0.31,<0.32`` (rules are keyed by minor release).  ``vllm>=0.30`` does
not.  Requirements are read with ``packaging``, as pip reads them, from a
folder's ``pyproject.toml`` (``[project]`` dependencies and optional
dependencies, ``[dependency-groups]``, Poetry's dependencies) and its
``requirements*.txt`` / ``requirements*.in`` files.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from vllm_lint.versions import Version, VersionError


@dataclass(frozen=True)
class Pin:
    version: Version
    path: Path
    requirement: str  # as written, for messages

    @property
    def release(self) -> tuple[int, int]:
        return (self.version.major, self.version.minor)

    def __str__(self) -> str:
        return f"{self.requirement} in {self.path}"


def pins_in(directory: Path) -> list[Pin]:
    """Every requirement in ``directory`` that fixes a vLLM release, in file-name order."""
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    pins: list[Pin] = []
    for name in names:
        if name == "pyproject.toml":
            requirements = _pyproject_requirements(directory / name)
        elif name.startswith("requirements") and name.endswith((".txt", ".in")):
            requirements = _file_requirements(directory / name)
        else:
            continue
        for requirement in requirements:
            version = fixed_release(requirement)
            if version is not None:
                pins.append(Pin(version, directory / name, requirement.split(";", 1)[0].strip()))
    return pins


def _file_requirements(path: Path, needle: str = "vllm") -> list[str]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    if needle not in text.lower():
        return []
    lines = []
    for line in text.splitlines():
        line = re.split(r"(?:^|\s)#", line, maxsplit=1)[0].strip()
        if line and not line.startswith("-"):  # options: -r, -c, -e, --hash, ...
            lines.append(line)
    return lines


def requirements_of(path: Path, needle: str) -> list[str]:
    """The requirement strings of a pyproject.toml or requirements file that mention ``needle``."""
    if path.name == "pyproject.toml":
        return [r for r in _pyproject_requirements(path, needle) if needle in r.lower()]
    return [r for r in _file_requirements(path, needle) if needle in r.lower()]


def _pyproject_requirements(path: Path, needle: str = "vllm") -> list[str]:
    """Requirement strings of a pyproject.toml; a file that cannot be read, or whose
    tables have another shape, gives none (it is not the linter's to judge)."""
    from vllm_lint.config import load_toml

    try:
        if needle.encode() not in path.read_bytes().lower():
            return []
        data = load_toml(path)
    except (OSError, ValueError):
        return []
    found: list[object] = []
    project = data.get("project")
    if isinstance(project, dict):
        found.extend(_list(project.get("dependencies")))
        extras = project.get("optional-dependencies")
        if isinstance(extras, dict):
            for extra in extras.values():
                found.extend(_list(extra))
    groups = data.get("dependency-groups")
    if isinstance(groups, dict):
        for group in groups.values():
            found.extend(_list(group))
    tool = data.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    dependencies = poetry.get("dependencies") if isinstance(poetry, dict) else None
    if isinstance(dependencies, dict):
        for name, spec in dependencies.items():
            if isinstance(spec, dict):
                spec = spec.get("version")
            if isinstance(name, str) and isinstance(spec, str):
                found.append(name + _poetry_to_pep440(spec))
    return [item for item in found if isinstance(item, str)]


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _poetry_to_pep440(constraint: str) -> str:
    """Poetry's ``0.31.0``, ``^0.31``, ``~0.31.2`` as PEP 440 specifiers."""
    text = constraint.strip()
    match = re.fullmatch(r"([\^~])\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?", text)
    if match:
        kind, major, minor = match.group(1), int(match.group(2)), match.group(3)
        version = text[1:].strip()
        if minor is None:
            return f">={version},<{major + 1}"
        if kind == "~" or major == 0:  # ^0.31 stays below 0.32, as ~0.31 does
            return f">={version},<{major}.{int(minor) + 1}"
        return f">={version},<{major + 1}"
    if text[:1].isdigit():
        return "==" + text
    return text


def fixed_release(requirement: str) -> Version | None:
    """The release a ``vllm`` requirement fixes (see the module's docstring); None otherwise."""
    if "vllm" not in requirement.lower():
        return None
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    try:
        parsed = Requirement(requirement)
    except InvalidRequirement:
        return None
    if canonicalize_name(parsed.name) != "vllm" or parsed.url:
        return None
    release = _only_release(list(parsed.specifier))
    if release is None:
        return None
    major, minor, patch = release
    # The bounds may still exclude every version of that release (>0.31.9,<0.32; !=0.31.*).
    if not any(parsed.specifier.contains(f"{major}.{minor}.{p}", prereleases=True) for p in range(patch, patch + 100)):
        return None
    return Version(major, minor, patch)


def _only_release(specifiers) -> tuple[int, int, int] | None:
    """(major, minor, lowest patch) when the specifiers admit a single minor release."""
    from packaging.version import InvalidVersion
    from packaging.version import Version as Pep440

    lowest: tuple[int, int, int] | None = None
    highest: tuple[int, int] | None = None
    for spec in specifiers:
        operator, text = spec.operator, spec.version
        if operator == "==" and text.endswith(".*"):
            parts = text[:-2].split(".")
            if len(parts) >= 2 and all(part.isdigit() for part in parts):
                return _version_tuple(".".join(parts))
            continue
        try:
            version = Pep440(text)
        except InvalidVersion:
            return None
        major, minor = (list(version.release) + [0])[:2]
        if operator in ("==", "==="):
            return _version_tuple(text)
        if operator == "~=":
            if len(version.release) >= 3:
                return _version_tuple(text)
            operator = ">="  # ~=0.31 admits every 0.x from 0.31 on
        if operator in (">=", ">"):
            candidate = (major, minor, (list(version.release) + [0, 0])[2])
            lowest = candidate if lowest is None or candidate > lowest else lowest
        elif operator == "<=":
            highest = min(highest, (major, minor)) if highest else (major, minor)
        elif operator == "<":
            # <0.32 (or <0.32.0rc1) admits no 0.32 release; <0.32.1 admits 0.32.0.
            if version > Pep440(f"{major}.{minor}"):
                top = (major, minor)
            elif minor > 0:
                top = (major, minor - 1)
            else:
                return None
            highest = min(highest, top) if highest else top
    if lowest is None or highest is None or lowest[:2] != highest:
        return None
    return lowest


def _version_tuple(text: str) -> tuple[int, int, int] | None:
    try:
        version = Version.parse(text)
    except VersionError:
        return None
    return (version.major, version.minor, version.patch)
