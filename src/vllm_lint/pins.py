"""The vLLM releases a project's pins admit.

A requirement admits a set of minor releases (rules are keyed by minor
release): ``vllm==0.31.2`` and ``vllm==0.31.1rc1`` admit 0.31, ``~=0.10.1``
admits 0.10, ``vllm>=0.10,<0.12`` admits 0.10 and 0.11.  A range open above
admits the known releases from its lower bound (the newest known one stands for
later ones); releases older than the schema's oldest that a range admits are
kept, as releases the rules do not know.  A bare ``vllm`` pins nothing on its
own; beside other pins of the same folder (``requirements_torch260.txt`` with
``vllm==0.8.4``, ``requirements_torch2100.txt`` with a bare ``vllm``) it is one
more way to install, which takes the newest release.

Requirements are read with ``packaging``, as pip reads them, from the files
projects write them in, one folder at a time:

* requirements files of any name (``*.txt``, ``*.in``: a line that is a
  ``vllm`` requirement);
* ``pyproject.toml``: ``[project]`` dependencies and optional dependencies,
  ``[dependency-groups]``, Poetry's dependencies and groups, PDM's and uv's
  dev dependencies, uv's constraints, overrides and ``[tool.uv.sources]`` (a
  tag ``v0.10.1`` or a wheel's file name);
* ``setup.py`` (every string literal that is a ``vllm`` requirement:
  ``install_requires`` and ``extras_require``, however built) and ``setup.cfg``;
* ``environment.yml`` (conda's ``vllm=0.10.1`` and the ``pip:`` section);
* ``Pipfile``;
* a Truss-style ``config.yaml`` whose ``requirements:`` list names vLLM;
* lock files (``uv.lock``, ``poetry.lock``, ``pdm.lock``, ``Pipfile.lock``):
  the exact locked vLLM, which wins over the folder's other pins.
"""

from __future__ import annotations

import ast
import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from vllm_lint.versions import Version

# Requirement files larger than this are data, not requirements.
MAX_REQUIREMENTS_SIZE = 512 * 1024
LOCK_FILES = ("uv.lock", "poetry.lock", "pdm.lock", "Pipfile.lock")
_ENVIRONMENT_FILES = ("environment.yml", "environment.yaml", "conda.yml", "conda.yaml")
_NOT_REQUIREMENTS = re.compile(r"(?i)^(license|licence|readme|changelog|notice|authors|copying|cmakelists|robots)")


@dataclass(frozen=True)
class Pin:
    releases: tuple[tuple[int, int], ...]  # the minor releases admitted, oldest first
    version: Version  # the exact version when one is named (==0.31.2), else the newest admitted
    path: Path
    line: int
    requirement: str  # as written, for messages
    locked: bool = False  # from a lock file: what is installed, not what is allowed
    bare: bool = False  # ``vllm`` with no version: whatever is newest when it is installed

    @property
    def release(self) -> tuple[int, int]:
        return (self.version.major, self.version.minor)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    def __str__(self) -> str:
        return f"{self.requirement} at {self.where}"


def pins_in(directory: Path) -> list[Pin]:
    """Every pin of vLLM written in ``directory``'s files, in file-name order."""
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    pins: list[Pin] = []
    for name in names:
        reader = _reader(name)
        if reader is None:
            continue
        path = directory / name
        for requirement, line, locked in reader(path):
            pin = pin_of(requirement, path, line, locked)
            # setup.py's string literals include the extras' names ({"vllm": [...]}): not requirements.
            if pin is not None and not (pin.bare and reader is _setup_py_pins):
                pins.append(pin)
    return pins


def _reader(name: str):
    lower = name.lower()
    if name == "pyproject.toml":
        return _pyproject_pins
    if name == "setup.py":
        return _setup_py_pins
    if name == "setup.cfg":
        return _line_pins
    if name == "Pipfile":
        return _pipfile_pins
    if name in LOCK_FILES:
        return _lock_pins
    if lower in _ENVIRONMENT_FILES:
        return _environment_pins
    if name == "config.yaml":
        return _truss_pins
    if lower in ("dockerfile", "containerfile") or lower.startswith(("dockerfile.", "containerfile.")) or lower.endswith(".dockerfile"):
        return _dockerfile_pins
    if lower.endswith((".txt", ".in")) and not _NOT_REQUIREMENTS.match(name):
        return _line_pins
    return None


def _text(path: Path) -> str | None:
    """The file's text when it may mention vLLM; None otherwise (unreadable, too large, no "vllm")."""
    try:
        if path.stat().st_size > MAX_REQUIREMENTS_SIZE and path.name not in LOCK_FILES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"vllm" not in data.lower():
        return None
    return data.decode("utf-8", errors="replace")


def _line_pins(path: Path):
    """Requirements files (and setup.cfg): every line that is a vLLM requirement, comments and options stripped."""
    text = _text(path)
    if text is None:
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if "vllm" not in line.lower():
            continue
        line = re.split(r"(?:^|\s)#", line, maxsplit=1)[0].strip()
        line = re.sub(r"\s--?[a-z][\w-]*(?:[= ]\S+)?", "", " " + line).strip()  # --hash=..., per-line options
        if line:
            yield line, number, False


def _line_of(text: str, needle: str, start: int = 0) -> int:
    position = text.find(needle, start)
    return text.count("\n", 0, position) + 1 if position >= 0 else 1


def requirements_of(path: Path, needle: str) -> list[str]:
    """The requirement strings of a pyproject.toml or requirements file that mention ``needle``."""
    if path.name == "pyproject.toml":
        return [r for r in _pyproject_requirements(path, needle) if needle in r.lower()]
    text = _text(path) if needle == "vllm" else _plain_text(path)
    if text is None or needle not in text.lower():
        return []
    lines = []
    for line in text.splitlines():
        line = re.split(r"(?:^|\s)#", line, maxsplit=1)[0].strip()
        if line and not line.startswith("-") and needle in line.lower():  # options: -r, -c, -e, --hash, ...
            lines.append(line)
    return lines


def _plain_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _pyproject_pins(path: Path):
    text = _text(path)
    if text is None:
        return
    for requirement in _pyproject_requirements(path, "vllm", text):
        if "vllm" in requirement.lower():
            yield requirement, _requirement_line(text, requirement), False


def _requirement_line(text: str, requirement: str) -> int:
    """Where a requirement read from a structured file is written: the first line naming vLLM
    and the requirement's version, else the first naming vLLM as a package."""
    version = re.search(r"\d+(?:\.\d+)+", requirement)
    lines = text.lower().splitlines()
    naming = [n for n, line in enumerate(lines, start=1) if re.search(r"(?<![\w-])vllm(?![\w-])", line)]
    if version:
        for number in naming:
            if version.group(0) in lines[number - 1]:
                return number
    return naming[0] if naming else 1


def _pyproject_requirements(path: Path, needle: str = "vllm", text: str | None = None) -> list[str]:
    """Requirement strings of a pyproject.toml; a file that cannot be read, or whose
    tables have another shape, gives none (it is not the linter's to judge)."""
    from vllm_lint.tomlfiles import load_toml

    try:
        if text is None and needle.encode() not in path.read_bytes().lower():
            return []
        data = load_toml(path)
    except (OSError, ValueError):
        return []
    found: list[object] = []
    project = data.get("project")
    if isinstance(project, dict):
        found.extend(_list(project.get("dependencies")))
        found.extend(_grouped(project.get("optional-dependencies")))
    found.extend(_grouped(data.get("dependency-groups")))
    tool = data.get("tool")
    tool = tool if isinstance(tool, dict) else {}
    poetry = tool.get("poetry")
    if isinstance(poetry, dict):
        tables = [poetry.get("dependencies"), poetry.get("dev-dependencies")]
        groups = poetry.get("group")
        if isinstance(groups, dict):
            tables += [group.get("dependencies") for group in groups.values() if isinstance(group, dict)]
        for dependencies in tables:
            found.extend(_poetry_table(dependencies))
    pdm = tool.get("pdm")
    if isinstance(pdm, dict):
        found.extend(_grouped(pdm.get("dev-dependencies")))
    uv = tool.get("uv")
    if isinstance(uv, dict):
        for key in ("dev-dependencies", "constraint-dependencies", "override-dependencies"):
            found.extend(_list(uv.get(key)))
        sources = uv.get("sources")
        if isinstance(sources, dict):
            found.extend(_uv_source(name, source) for name, source in sources.items())
    return [item for item in found if isinstance(item, str)]


def _grouped(value: object) -> list[object]:
    """The requirements of a table of lists (extras, dependency groups)."""
    if not isinstance(value, dict):
        return []
    return [item for group in value.values() for item in _list(group)]


def _poetry_table(dependencies: object) -> list[str]:
    found = []
    if isinstance(dependencies, dict):
        for name, spec in dependencies.items():
            if isinstance(spec, dict):
                spec = spec.get("version")
            if isinstance(name, str) and isinstance(spec, str):
                found.append(name + _poetry_to_pep440(spec))
    return found


def _uv_source(name: object, source: object) -> object:
    """A ``[tool.uv.sources]`` entry as a requirement: a git tag ``v0.10.1`` or a wheel URL names the version."""
    if not isinstance(name, str) or not isinstance(source, dict):
        return None
    tag = source.get("tag") or source.get("rev")
    if isinstance(tag, str) and re.fullmatch(r"v?\d+\.\d+(\.\d+)?\S*", tag):
        return f"{name}=={tag.lstrip('v')}"
    url = source.get("url") or source.get("path")
    if isinstance(url, str):
        wheel = re.search(r"(?:^|/)" + re.escape(name) + r"-(\d+\.\d+(?:\.\d+)?[^-/]*)-[^/]*\.whl$", url)
        if wheel:
            return f"{name}=={wheel.group(1)}"
    return None


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


def _setup_py_pins(path: Path):
    """Every string literal of a setup.py that is a vLLM requirement (install_requires, extras, however built)."""
    text = _text(path)
    if text is None:
        return
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "vllm" in node.value.lower():
            for part in node.value.splitlines():  # install_requires may be a block of lines
                yield part.strip(), node.lineno, False


def _pipfile_pins(path: Path):
    from vllm_lint.tomlfiles import load_toml

    text = _text(path)
    if text is None:
        return
    try:
        data = load_toml(path)
    except (OSError, ValueError):
        return
    for section in ("packages", "dev-packages"):
        table = data.get(section)
        if not isinstance(table, dict):
            continue
        for name, spec in table.items():
            if isinstance(spec, dict):
                spec = spec.get("version")
            if isinstance(name, str) and isinstance(spec, str) and spec.strip() != "*":
                yield name + spec.strip(), _line_of(text.lower(), name.lower()), False


def _lock_pins(path: Path):
    """The locked vLLM of uv.lock, poetry.lock, pdm.lock (``[[package]]`` tables) or Pipfile.lock."""
    text = _text(path)
    if text is None:
        return
    if path.name == "Pipfile.lock":
        try:
            data = json.loads(text)
        except ValueError:
            return
        for section in ("default", "develop"):
            entry = data.get(section, {}).get("vllm") if isinstance(data.get(section), dict) else None
            version = entry.get("version") if isinstance(entry, dict) else None
            if isinstance(version, str):
                yield "vllm" + version, _line_of(text, '"vllm"'), True
        return
    # Read without a TOML parse: lock files are large, and only one table matters.
    for match in re.finditer(r'(?m)^\[\[package\]\]\s*\nname\s*=\s*"vllm"\s*\nversion\s*=\s*"([^"]+)"', text):
        yield f"vllm=={match.group(1)}", text.count("\n", 0, match.start()) + 3, True


def _environment_pins(path: Path):
    """A conda environment file: ``vllm=0.10.1`` (conda's match spec) and its ``pip:`` list."""
    data, text = _yaml(path)
    if not isinstance(data, dict):
        return
    for item in _list(data.get("dependencies")):
        if isinstance(item, dict):
            for pip_item in _list(item.get("pip")):
                if isinstance(pip_item, str):
                    yield pip_item, _line_of(text, pip_item), False
        elif isinstance(item, str):
            conda = re.fullmatch(r"\s*(?:[\w-]+::)?(vllm)\s*=\s*([\d.]+\*?)\s*(?:=\S+)?\s*", item)
            # conda's single "=" matches a version prefix: vllm=0.10 is any 0.10.x
            requirement = f"vllm=={conda.group(2).rstrip('.*')}.*" if conda else item
            yield requirement, _line_of(text, item), False


def _truss_pins(path: Path):
    """A model-serving template's ``config.yaml`` (Truss) with a ``requirements:`` list."""
    data, text = _yaml(path)
    if not isinstance(data, dict):
        return
    for item in _list(data.get("requirements")):
        if isinstance(item, str):
            yield item, _line_of(text, item), False


PIP_INSTALL = re.compile(r"\b(?:pip3?|uv\s+pip|python3?(?:\.\d+)?\s+-m\s+pip)\s+install\s+([^;&|\n]*)")


def pip_install_requirements(text: str):
    """The vLLM requirements ``pip install`` commands in ``text`` name, with their offsets."""
    for match in PIP_INSTALL.finditer(text):
        for word in re.finditer(r"\S+", match.group(1)):
            requirement = word.group(0).strip("\"'")
            if "vllm" in requirement.lower():
                yield requirement, match.start(1) + word.start()


def _dockerfile_pins(path: Path):
    """A Dockerfile beside the code it builds into an image: its ``RUN pip install vllm==X``."""
    text = _text(path)
    if text is None:
        return
    for requirement, offset in pip_install_requirements(text.replace("\\\n", "  ")):
        yield requirement, text.count("\n", 0, offset) + 1, False


def _yaml(path: Path) -> tuple[object, str]:
    text = _text(path)
    if text is None:
        return None, ""
    import yaml

    try:
        return yaml.safe_load(text), text
    except (yaml.YAMLError, RecursionError, ValueError):
        return None, text


def pin_of(requirement: str, path: Path, line: int, locked: bool = False) -> Pin | None:
    admitted = admitted_releases(requirement)
    written = requirement.split(";", 1)[0].strip()
    if admitted is None:
        if not locked and _bare_vllm(requirement):
            from vllm_lint.versions import NEWEST_VERSION

            return Pin((NEWEST_VERSION.release,), NEWEST_VERSION, path, line, f"{written} (no version: the newest release)", bare=True)
        return None
    releases, version = admitted
    return Pin(releases, version, path, line, written, locked)


def _bare_vllm(requirement: str) -> bool:
    """``vllm`` or ``vllm[audio]``: no version and no source that names one."""
    if "vllm" not in requirement.lower():
        return False
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    try:
        parsed = Requirement(requirement)
    except InvalidRequirement:
        return False
    return canonicalize_name(parsed.name) == "vllm" and not parsed.url and not len(parsed.specifier)


@lru_cache(maxsize=1024)
def admitted_releases(requirement: str) -> tuple[tuple[tuple[int, int], ...], Version] | None:
    """The minor releases a ``vllm`` requirement admits, and the version it names (the exact
    one of ``==``, else the newest admitted); None for another package or no version bound."""
    if "vllm" not in requirement.lower():
        return None
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name
    from packaging.version import InvalidVersion
    from packaging.version import Version as Pep440

    try:
        parsed = Requirement(requirement)
    except InvalidRequirement:
        return None
    if canonicalize_name(parsed.name) != "vllm":
        return None
    specifier = parsed.specifier
    if parsed.url:
        wheel = re.search(r"/vllm-(\d+\.\d+(?:\.\d+)?[^-/]*)-[^/]*\.whl$", parsed.url)
        if wheel is None:
            return None
        from packaging.specifiers import SpecifierSet

        specifier = SpecifierSet("==" + wheel.group(1))
    if not len(specifier):
        return None
    written: list[Pep440] = []
    for spec in specifier:
        try:
            written.append(Pep440(spec.version.removesuffix(".*")))
        except InvalidVersion:
            continue
    from vllm_lint.launch.schema import releases as known_releases

    known = known_releases()
    minors = set(known) | {(0, minor) for minor in range(known[0][1])} | {tuple((list(v.release) + [0])[:2]) for v in written}
    releases = []
    for major, minor in sorted(minors):
        candidates = [f"{major}.{minor}.{patch}" for patch in range(0, 12)] + [
            str(v) for v in written if tuple((list(v.release) + [0])[:2]) == (major, minor)
        ]
        if any(specifier.contains(candidate, prereleases=True) for candidate in candidates):
            releases.append((major, minor))
    if not releases:
        return None
    # Releases newer than the newest known stand in for it; with known ones admitted, they add nothing.
    newer = [release for release in releases if release > known[-1]]
    releases = [release for release in releases if release <= known[-1]] or newer[:1]
    exact = None
    for spec in specifier:
        if spec.operator in ("==", "===") and not spec.version.endswith(".*"):
            try:
                exact = Pep440(spec.version)
            except InvalidVersion:
                continue
    if exact is not None and len(releases) == 1:
        version = Version(*(list(exact.release) + [0, 0])[:3])
    else:
        version = Version(*releases[-1])
    return tuple(releases), version
