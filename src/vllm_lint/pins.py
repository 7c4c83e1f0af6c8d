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
  ``vllm`` requirement), and Rye's ``requirements*.lock`` in the same format;
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


# Folders beside a project's code that hold its requirements files (``requirements/gpu.txt``,
# the layout vLLM's own documentation uses): read as the folder's own.
REQUIREMENTS_FOLDERS = ("requirements",)


def pins_in(directory: Path) -> list[Pin]:
    """Every pin of vLLM written in ``directory``'s files (and its ``requirements/`` folder's),
    in file-name order; one pin once, however many files include it."""
    pins: list[Pin] = []
    seen: set[tuple] = set()
    for path in _candidate_files(directory):
        reader = _reader(path.name)
        if reader is None:
            continue
        for requirement, line, locked, where, shown in _read(reader, path):
            pin = pin_of(requirement, where or path, line, locked, shown)
            # setup.py's string literals include the extras' names ({"vllm": [...]}): not requirements.
            if pin is not None and not (pin.bare and reader is _setup_py_pins):
                key = (pin.requirement, pin.path, pin.line)
                if key not in seen:
                    seen.add(key)
                    pins.append(pin)
    return pins


def _candidate_files(directory: Path) -> list[Path]:
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    files = [directory / name for name in names]
    for folder in REQUIREMENTS_FOLDERS:
        if folder in names and (directory / folder).is_dir():
            try:
                inner = sorted(os.listdir(directory / folder))
            except OSError:
                continue
            files += [directory / folder / name for name in inner if name.lower().endswith((".txt", ".in"))]
    return [path for path in files if not path.name.startswith(".")]


def _read(reader, path: Path):
    """A reader's items as ``(requirement, line, locked, path, shown)``: the path where a
    requirement is written (an included file) and how it is shown (a combination of several)."""
    for item in reader(path):
        yield (*item, None, None)[:5]


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
        return _requirements_file_pins
    if lower.startswith("requirements") and lower.endswith(".lock"):
        return _rye_lock_pins
    if lower == "pylock.toml" or (lower.startswith("pylock.") and lower.endswith(".toml")):
        return _lock_pins  # PEP 751
    return None


def _text(path: Path) -> str | None:
    """The file's text when it may mention vLLM; None otherwise (unreadable, too large, no "vllm")."""
    try:
        if path.stat().st_size > MAX_REQUIREMENTS_SIZE and not _is_lock_file(path.name):
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"vllm" not in data.lower():
        return None
    return data.decode("utf-8", errors="replace")


def _line_pins(path: Path):
    """setup.cfg: every line that is a vLLM requirement, comments stripped."""
    text = _text(path)
    if text is None:
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if "vllm" not in line.lower():
            continue
        line = re.split(r"(?:^|\s)#", line, maxsplit=1)[0].strip()
        if line:
            yield line, number, False


# pip's requirement-file options that name another file: requirements to install with these
# (``-r``) and constraints on what is installed (``-c``).
_INCLUDE_OPTIONS = {"-r": "requirement", "--requirement": "requirement", "-c": "constraint", "--constraint": "constraint"}
_EDITABLE_OPTIONS = ("-e", "--editable")
MAX_INCLUDE_DEPTH = 8


@dataclass(frozen=True)
class RequirementLine:
    text: str  # the requirement, as a PEP 508 string
    path: Path
    line: int
    constraint: bool = False


def requirement_file_lines(path: Path, constraint: bool = False, depth: int = 0, seen: frozenset = frozenset()):
    """The vLLM requirements a pip requirements file installs, as pip reads it: its own lines
    (a PEP 508 requirement, ``-e URL#egg=vllm``, a bare wheel or VCS URL), those of the files it
    includes with ``-r``, and the constraints of those it names with ``-c`` (relative to the
    including file); line continuations joined, comments and per-line options removed."""
    resolved = path.resolve()
    if resolved in seen or depth > MAX_INCLUDE_DEPTH:
        return
    seen = seen | {resolved}
    text = _requirements_text(path)
    if text is None:
        return
    for number, line in _logical_lines(text):
        line = re.split(r"(?:^|\s)#", line, maxsplit=1)[0].strip()
        if not line:
            continue
        option = re.match(r"(-[rc]|--requirement|--constraint)(?:\s*=\s*|\s+|(?<=^-[rc]))(\S+)", line)
        if option:
            kind = _INCLUDE_OPTIONS[option.group(1)]
            try:
                included = Path(os.path.normpath(path.parent / option.group(2).strip("\"'")))
                readable = included.is_file()
            except (OSError, ValueError):  # a name no file system has (a NUL byte)
                readable = False
            if readable:
                yield from requirement_file_lines(included, constraint or kind == "constraint", depth + 1, seen)
            continue
        if "vllm" not in line.lower():
            continue
        editable = re.match(r"(?:-e|--editable)(?:\s*=\s*|\s+)(\S+)", line)
        if editable:
            line = editable.group(1)
        elif line.startswith("-"):
            continue  # a global option (--index-url, --find-links, ...)
        line = re.sub(r"\s--?[a-z][\w-]*(?:[= ]\S+)?", "", " " + line).strip()  # --hash=..., per-line options
        requirement = url_requirement(line) or line
        yield RequirementLine(requirement, path, number, constraint)


def _requirements_text(path: Path) -> str | None:
    """A requirements file's text when it may name vLLM or another file (``-r``, ``-c``)."""
    try:
        if path.stat().st_size > MAX_REQUIREMENTS_SIZE:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"vllm" not in data.lower() and re.search(rb"(?m)^\s*(?:-[rc]|--requirement|--constraint)\b", data) is None:
        return None
    return data.decode("utf-8", errors="replace")


def _logical_lines(text: str):
    """pip's lines: a line ending in a backslash continues on the next (numbered at its first)."""
    pending, start = "", 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        yield start, pending + line
        pending = ""
    if pending:
        yield start, pending


def url_requirement(word: str) -> str | None:
    """A URL or wheel path standing for a requirement (pip accepts them bare, and ``-e URL``):
    ``vllm @ URL`` when it is vLLM's (a ``#egg=vllm`` fragment, a ``vllm-*.whl`` file, a
    repository named ``vllm``); None otherwise."""
    from urllib.parse import unquote, urlsplit

    if re.match(r"(?i)^(?:[a-z][a-z0-9+.-]*://|[./~]|[\w.-]+\.(?:whl|tar\.gz|zip)$)", word) is None or " " in word:
        return None  # a requirement with a name (``vllm @ URL``), or not a URL
    egg = re.search(r"[#&]egg=([\w.-]+)", word)
    if egg:
        name = egg.group(1)
    else:
        try:
            path = unquote(urlsplit(re.sub(r"(?i)^(?:git|hg|svn|bzr)\+", "", word)).path)
        except ValueError:
            return None
        last = path.rstrip("/").rsplit("/", 1)[-1]
        if last.endswith((".whl", ".tar.gz", ".zip")):
            name = re.split(r"-\d", last, maxsplit=1)[0]
        else:
            name = last.split("@", 1)[0].removesuffix(".git")
    if name.lower().replace("_", "-") != "vllm":
        return None
    return f"vllm @ {word}"


def _requirements_file_pins(path: Path):
    """A pip requirements file: the vLLM it installs, with the files it includes and the
    constraints it names; several requirements of vLLM in one install are all applied (pip
    intersects them), a constraint narrowing a bare ``vllm``."""
    lines = list(requirement_file_lines(path))
    if not lines:
        return
    specified = [line for line in lines if not _bare_vllm(line.text)]
    if len({_marker(line.text) for line in specified} - {""}) > 1:
        # Environment markers choose one line per platform (an x86_64 and an aarch64 wheel):
        # each is one way to install, not a requirement the others add to.
        for line in specified:
            yield line.text, line.line, False, line.path
        return
    if len(lines) == 1 or not specified:
        first = lines[0]
        if not first.constraint or specified:
            yield first.text, first.line, False, first.path
        return
    combined = _intersection([line.text for line in specified])
    if combined is None:
        for line in specified:  # no version satisfies all: each as written
            yield line.text, line.line, False, line.path
        return
    first = specified[0]
    if len(specified) == 1:
        yield first.text, first.line, False, first.path
        return
    shown = " with ".join(f"{' '.join(line.text.split(';', 1)[0].split())} ({line.path.name}:{line.line})" for line in specified)
    yield f"vllm{combined}", first.line, False, first.path, shown


def _marker(requirement: str) -> str:
    return " ".join(requirement.partition(";")[2].split())


def _intersection(requirements: list[str]):
    """The specifier every requirement allows together (as pip resolves them), None if empty."""
    from packaging.specifiers import SpecifierSet

    combined = SpecifierSet()
    for requirement in requirements:
        specifier = vllm_specifier(requirement)
        if specifier is not None:
            combined &= specifier
    if releases_of(combined) is None:
        return None
    return combined


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
            named = [_uv_source(name, source) for name, source in sources.items()]
            named = [item for item in named if isinstance(item, str)]
            # uv installs a dependency from its source: a bare ``vllm`` there is the source's release.
            sourced = {_requirement_name(item) for item in named}
            found = [item for item in found if not (isinstance(item, str) and _requirement_name(item) in sourced and _bare_vllm(item))]
            found.extend(named)
    return [item for item in found if isinstance(item, str)]


def _requirement_name(requirement: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return match.group(1).lower().replace("_", "-").replace(".", "-") if match else ""


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


def _is_lock_file(name: str) -> bool:
    lower = name.lower()
    return name in LOCK_FILES or lower == "pylock.toml" or (lower.startswith("pylock.") and lower.endswith(".toml")) or (
        lower.startswith("requirements") and lower.endswith(".lock")
    )


def _rye_lock_pins(path: Path):
    """Rye's ``requirements.lock``/``requirements-dev.lock``: pip's format, its pins locked."""
    for requirement, line, _locked, *rest in _requirements_file_pins(path):
        yield (requirement, line, True, *rest)


def _lock_pins(path: Path):
    """The locked vLLM of uv.lock, poetry.lock, pdm.lock, pylock.toml (``[[package]]`` and
    ``[[packages]]`` tables) or Pipfile.lock."""
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
    # Read without a TOML parse: lock files are large, and only one table matters (``[[package]]``;
    # PEP 751's pylock.toml calls it ``[[packages]]``).
    for match in re.finditer(r'(?m)^\[\[packages?\]\]\s*\nname\s*=\s*"vllm"\s*\nversion\s*=\s*"([^"]+)"', text):
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


# pip, pip3, pip3.12, uv pip, python3.12 -m pip, python -m uv pip; the words up to the command's end.
PIP_INSTALL = re.compile(
    r"(?<![\w.-])(?:pip(?:\d+(?:\.\d+)?)?|uv\s+pip|python(?:\d+(?:\.\d+)?)?\s+-m\s+(?:uv\s+)?pip)\s+install\s+([^;&|\n]*)"
)
_QUOTED_WORD = re.compile(r"\"[^\"]*\"|'[^']*'|\S+")
# Options of pip and uv pip whose value names packages (uv's ``--reinstall-package``,
# ``--upgrade-package``/``-P``, ``--no-build-isolation-package``, ``--no-binary-package``,
# ``--only-binary-package``; pip's ``--no-binary``/``--only-binary`` format control).
_PACKAGE_NAME_OPTIONS = frozenset({
    "--reinstall-package", "--upgrade-package", "-P", "--no-build-isolation-package",
    "--no-binary-package", "--only-binary-package", "--no-binary", "--only-binary",
})


def pip_install_requirements(text: str):
    """The vLLM requirements ``pip install`` commands in ``text`` name, with their offsets:
    a quoted word is one requirement (``"vllm>=0.10,<0.11"``, ``"vllm >= 0.10"``), a URL of
    vLLM's (``git+https://github.com/vllm-project/vllm@v0.10.2``) stands for ``vllm @ URL``."""
    for match in PIP_INSTALL.finditer(text):
        if re.search(r"\|\|\s*$", text[max(0, match.start() - 200) : match.start()]):
            continue  # ``pip show vllm || pip install vllm==X``: installs only when vLLM is missing
        previous = ""
        for word in _QUOTED_WORD.finditer(match.group(1)):
            requirement = word.group(0).strip("\"'")
            # ``--reinstall-package vllm`` (uv), ``--no-binary vllm`` (pip): a package's name as an
            # option's value, not a requirement.
            named = previous in _PACKAGE_NAME_OPTIONS
            previous = requirement
            if named or "=" in requirement and requirement.split("=", 1)[0] in _PACKAGE_NAME_OPTIONS:
                continue
            if "vllm" in requirement.lower() and not requirement.startswith("-"):
                yield url_requirement(requirement) or requirement, match.start(1) + word.start()


def _dockerfile_pins(path: Path):
    """A Dockerfile beside the code it builds into an image: its ``RUN pip install vllm==X``
    (build arguments substituted), or the tagged vLLM image it runs the code in."""
    text = _text(path)
    if text is None:
        return
    for requirement, line, shown in dockerfile_releases(text):
        yield requirement, line, False, None, shown or None


_SERVER_COMMAND = re.compile(r"(?:^|[\s;&|/])vllm\s+serve\b|vllm\.entrypoints\.|^\S*vllm(?:\s|$)")


def dockerfile_releases(text: str):
    """Where a Dockerfile says which vLLM the code it builds runs on, for the folder's pins:
    each stage's ``RUN pip install vllm==X`` (build arguments and ``ENV`` substituted), and a
    stage on a tagged vLLM image (``FROM vllm/vllm-openai:v0.10.2``) that copies code in and
    runs it (its ``ENTRYPOINT``, or its ``CMD`` under an emptied one, is not vLLM's server).
    Yields ``(requirement, line, shown)``."""
    from vllm_lint.dockerfiles import argument_defaults, declared_arguments, exec_form, instructions, substituted
    from vllm_lint.images import image_release

    lines = [0]
    for match in re.finditer("\n", text):
        lines.append(match.end())

    def line_of(offset: int) -> int:
        import bisect

        return bisect.bisect_right(lines, offset)

    global_args: dict[str, str] = {}
    stage_values: dict[str, str] | None = None
    found: list[tuple[str, int, str]] = []
    image, image_line, copies, installed = None, 0, False, False
    entrypoint: list | None = None  # the stage's ENTRYPOINT words ([] when emptied), None: the image's
    cmd: list = []

    def finish() -> None:
        release = image_release(image) if image is not None else None
        command = entrypoint if entrypoint else (cmd if entrypoint == [] else [])
        # The project's code, not vLLM's own server (``vllm serve``, ``-m vllm.entrypoints...``).
        runs_code = bool(command) and _SERVER_COMMAND.search(" ".join(command)) is None
        if release is not None and not installed and copies and runs_code:
            found.append((f"vllm=={release}", image_line, f"the image {image} the code runs in"))

    for instruction in instructions(text):
        keyword, body = instruction.keyword, instruction.text
        if keyword == "FROM":
            finish()
            parts = [part for part in body.split() if not part.startswith("--")]
            image = substituted(parts[0], global_args) if parts else None
            image_line, copies, installed, entrypoint, cmd = line_of(instruction.start), False, False, None, []
            stage_values = {}
        elif stage_values is None:
            if keyword == "ARG":
                global_args.update(argument_defaults(body))
        elif keyword == "ARG":
            declared_arguments(body, stage_values, global_args)
        elif keyword == "ENV":
            stage_values.update(argument_defaults(body))
        elif keyword in ("COPY", "ADD") and not re.search(r"--from[= ]", body):
            copies = True
        elif keyword == "RUN" and "vllm" in body.lower():
            command = substituted(body, stage_values)
            for requirement, offset in pip_install_requirements(command):
                if vllm_specifier(requirement) is not None:
                    found.append((requirement, line_of(instruction.start), ""))
                    installed = True
            source_build = vllm_source_build(command)
            if source_build is not None:
                found.append((*source_build[:1], line_of(instruction.start), source_build[1]))
                installed = True
        elif keyword in ("ENTRYPOINT", "CMD"):
            program = exec_form(body)
            program = program if program is not None else body.split()
            if keyword == "ENTRYPOINT":
                entrypoint = program
            else:
                cmd = program
    finish()
    return found


# ``git clone https://github.com/<owner>/vllm[.git] [dir]``, then ``pip install .`` (or ``-e .``,
# ``setup.py install``/``develop``) in the same command: vLLM built from its source.
_CLONE_VLLM = re.compile(r"\bgit\s+clone\b[^;&|\n]*?\s(?:https?://|git@)[^\s]*[/:][\w.-]+/vllm(?:\.git)?(?=[\s;&|]|$)")
_CHECKOUT = re.compile(r"\bgit\s+(?:checkout|switch)\s+(?:--detach\s+|-q\s+)*([\w./+-]+)|\s(?:--branch|-b)[= ]([\w./+-]+)")
_INSTALL_HERE = re.compile(r"\b(?:pip3?(?:\.\d+)?|uv\s+pip|python3?\s+-m\s+pip)\s+install\b[^;&|\n]*?\s(?:-e\s+)?\.(?:/)?(?=[\s;&|]|$)|\bsetup\.py\s+(?:install|develop)\b")
_RELEASE_TAG = re.compile(r"^v?(\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)$")


def vllm_source_build(command: str) -> tuple[str, str] | None:
    """``(requirement, shown)`` for a command that builds vLLM from a clone of its repository: the
    release a checked-out tag names (``git checkout v0.9.1``), else any release (a commit or a
    branch names none, older ones than the rules know included)."""
    clone = _CLONE_VLLM.search(command)
    if clone is None or _INSTALL_HERE.search(command, clone.end()) is None:
        return None
    refs = [m.group(1) or m.group(2) for m in _CHECKOUT.finditer(command)]
    tag = next((_RELEASE_TAG.match(ref) for ref in refs if _RELEASE_TAG.match(ref)), None)
    if tag is not None:
        return f"vllm=={tag.group(1)}", f"vLLM built from source at {refs[0]}"
    where = f"at {refs[0]}" if refs else "of its default branch"
    from vllm_lint.launch.schemadata import before_known

    major, minor = before_known()
    return f"vllm>={major}.{minor}", f"vLLM built from source {where} (no release named)"


def _yaml(path: Path) -> tuple[object, str]:
    text = _text(path)
    if text is None:
        return None, ""
    import yaml

    try:
        return yaml.safe_load(text), text
    except (yaml.YAMLError, RecursionError, ValueError):
        return None, text


def pin_of(requirement: str, path: Path, line: int, locked: bool = False, shown: str | None = None) -> Pin | None:
    admitted = admitted_releases(requirement)
    written = shown or requirement.split(";", 1)[0].strip()
    if admitted is None:
        if not locked and _bare_vllm(requirement):
            from vllm_lint.versions import NEWEST_VERSION

            return Pin((NEWEST_VERSION.release,), NEWEST_VERSION, path, line, f"{written} (no version: the newest release)", bare=True)
        return None
    releases, version = admitted
    return Pin(releases, version, path, line, written, locked)


def _bare_vllm(requirement: str) -> bool:
    """``vllm``, ``vllm[audio]`` or a direct reference that names no version: whatever is newest."""
    specifier = vllm_specifier(requirement)
    return specifier is not None and not len(specifier)


def direct_reference_version(url: str, name: str = "vllm") -> str | None:
    """The version a direct reference to ``name`` names (PEP 508 ``name @ URL``, pip's
    requirement-file URLs): a wheel's or source archive's file name (percent-decoded, as
    ``0.10.1.1%2Bcu126`` is ``0.10.1.1+cu126``), a VCS URL's ref when it is a release tag
    (``git+https://github.com/vllm-project/vllm@v0.10.2``), or a GitHub tag archive
    (``.../archive/refs/tags/v0.10.2.tar.gz``).  None for a branch, a commit or another name."""
    from urllib.parse import unquote, urlsplit

    from packaging.utils import InvalidSdistFilename, InvalidWheelFilename, canonicalize_name, parse_sdist_filename, parse_wheel_filename

    url = url.strip()
    vcs = re.match(r"(?i)^(?:git|hg|svn|bzr)\+", url)
    try:
        path = unquote(urlsplit(url[vcs.end():] if vcs else url).path)
    except ValueError:
        return None
    if vcs:
        _repository, at, ref = path.rpartition("@")
        if not at:
            return None
        tag = _VERSION_TAG.fullmatch(ref.rsplit("/", 1)[-1])
        return tag.group(1) if tag else None
    file_name = path.rstrip("/").rsplit("/", 1)[-1]
    try:
        if file_name.endswith(".whl"):
            wheel_name, version, _build, _tags = parse_wheel_filename(file_name)
            return str(version) if wheel_name == canonicalize_name(name) else None
        if file_name.endswith((".tar.gz", ".zip")):
            archive = re.search(r"/archive/(?:refs/tags/)?([^/]+)\.(?:tar\.gz|zip)$", path)
            if archive:  # a repository's tag archive: the repository must be vLLM's
                tag = _VERSION_TAG.fullmatch(archive.group(1))
                repository = path[: archive.start()].rstrip("/").rsplit("/", 1)[-1]
                return tag.group(1) if tag and canonicalize_name(repository) == canonicalize_name(name) else None
            sdist_name, version = parse_sdist_filename(file_name)
            return str(version) if sdist_name == canonicalize_name(name) else None
    except (InvalidWheelFilename, InvalidSdistFilename, ValueError):
        return None
    return None


_VERSION_TAG = re.compile(r"v?(\d+\.\d+(?:\.\d+)*(?:(?:rc|a|b)\d+|\.post\d+|\.dev\d+)?)")


def vllm_specifier(requirement: str):
    """A ``vllm`` requirement's version specifier (``packaging``'s SpecifierSet), from any PEP 508
    form: a version specifier, or a direct reference whose URL names a version; an empty one for
    a bare ``vllm`` (or a URL that names none); None for another package or a line that is not a
    requirement."""
    if "vllm" not in requirement.lower():
        return None
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.utils import canonicalize_name

    try:
        parsed = Requirement(requirement)
    except (InvalidRequirement, InvalidSpecifier):
        return None
    if canonicalize_name(parsed.name) != "vllm":
        return None
    if parsed.url:
        version = direct_reference_version(parsed.url)
        if version is None:
            return SpecifierSet()
        try:
            return SpecifierSet("==" + version)
        except InvalidSpecifier:
            return SpecifierSet()
    return parsed.specifier


@lru_cache(maxsize=1024)
def admitted_releases(requirement: str) -> tuple[tuple[tuple[int, int], ...], Version] | None:
    """The minor releases a ``vllm`` requirement admits, and the version it names (the exact
    one of ``==``, else the newest admitted); None for another package or no version bound."""
    specifier = vllm_specifier(requirement)
    if specifier is None:
        return None
    return releases_of(specifier)


def releases_of(specifier) -> tuple[tuple[tuple[int, int], ...], Version] | None:
    """The minor releases a version specifier admits, and the version it names; None for none."""
    from packaging.version import InvalidVersion
    from packaging.version import Version as Pep440

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
