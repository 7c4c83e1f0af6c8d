"""Where a linted file's project is, and which of its files a command line names.

The project root is the nearest folder above the file with ``.git``,
``pyproject.toml``, ``setup.py`` or ``setup.cfg`` (the Python front end's
import resolution uses the same rule).  Modules are looked up under the root
and under ``root/src``, never in installed packages and never in vLLM itself.
Whether any file of the project names a given YAML file (``named_elsewhere``)
is read once per root, only when a ``--config`` file linted on its own would
report something.
"""

from __future__ import annotations

import os
import re

ROOT_MARKERS = (".git", "pyproject.toml", "setup.py", "setup.cfg")
_roots: dict[str, str | None] = {}


def project_root(path: str) -> str | None:
    """The project root above ``path``; None when no folder above it has a marker."""
    directory = os.path.dirname(os.path.abspath(path))
    if directory in _roots:
        return _roots[directory]
    current = directory
    root = None
    while True:
        if any(os.path.exists(os.path.join(current, marker)) for marker in ROOT_MARKERS):
            root = current
            break
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    _roots[directory] = root
    return root


def outside_project(path: str) -> bool:
    """Installed packages and vLLM's own package are never read as project code (vLLM's tree
    linted as a project too).

    vLLM's package is a top-level ``vllm`` package; a project's own subpackage named ``vllm``
    (``roll/third_party/vllm``, ``nemo_rl/models/generation/vllm``) is project code."""
    directory = os.path.dirname(os.path.abspath(path))
    outside = _outside.get(directory)
    if outside is None:
        outside = _outside[directory] = _outside_directory(directory)
    return outside


# Per folder, as ``_roots``: the prefilter asks for every file of a tree.
_outside: dict[str, bool] = {}


def _outside_directory(directory: str) -> bool:
    parts = directory.split(os.sep)
    if "site-packages" in parts or "dist-packages" in parts:
        return True
    for index, part in enumerate(parts):
        if part != "vllm" or not os.path.isfile(os.sep.join(parts[: index + 1] + ["__init__.py"])):
            continue
        if not os.path.isfile(os.sep.join(parts[:index] + ["__init__.py"])):
            return True
    return False


def module_file(root: str, dotted: str) -> str | None:
    """The file ``python -m dotted`` runs, if it is the project's."""
    parts = dotted.split(".")
    if not all(part.isidentifier() for part in parts) or parts[0] == "vllm":
        return None
    for base in (root, os.path.join(root, "src")):
        target = os.path.join(base, *parts)
        for candidate in (target + ".py", os.path.join(target, "__main__.py")):
            if os.path.isfile(candidate) and not outside_project(candidate):
                return os.path.normpath(candidate)
    return None


def script_file(root: str | None, linted_path: str, text: str) -> str | None:
    """The file ``python path/to/x.py`` runs: relative to the project root or to the linted file.

    The command's working folder is not written anywhere, so both are tried;
    when they name different files, which one runs is unknown.
    """
    if not text.endswith(".py"):
        return None
    bases = [root] if root else []
    bases.append(os.path.dirname(os.path.abspath(linted_path)))
    found = set()
    for base in bases:
        candidate = os.path.normpath(os.path.join(base, text))
        if os.path.isfile(candidate):
            found.add(candidate)
    if len(found) != 1:
        return None
    (path,) = found
    if outside_project(path) or (root is not None and not path.startswith(root + os.sep)):
        return None
    return path


# ------------------------------------------------------------ config file names

# Files where command lines are written (scripts, manifests, code, docs with
# examples); a YAML file named in any of them may be passed with --config there.
_TEXT_SUFFIXES = (
    ".sh", ".bash", ".zsh", ".py", ".ipynb", ".yaml", ".yml", ".json", ".toml", ".cfg", ".ini",
    ".md", ".rst", ".txt", ".mk", ".env", ".j2", ".jinja", ".tpl", ".slurm", ".sbatch",
)
_SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "site-packages", "dist-packages", "venv", "env"})
_REFERENCE = re.compile(rb"[\w.-]+\.ya?ml\b")
MAX_SCANNED_FILES = 20000
MAX_SCANNED_BYTES = 1024 * 1024
_references: dict[str, dict[bytes, set[str]] | None] = {}


def _scanned(name: str) -> bool:
    if name.endswith(_TEXT_SUFFIXES):
        return True
    return "." not in name or name.startswith(("Dockerfile", "Containerfile", "Makefile", "Justfile"))


def config_references(root: str) -> dict[bytes, set[str]] | None:
    """File name of every YAML file a project's text files mention -> the files that mention it.

    Read once per root and run; None when the project is too large to read
    (then any file may be named).
    """
    if root in _references:
        return _references[root]
    found: dict[bytes, set[str]] = {}
    count = 0
    result: dict[bytes, set[str]] | None = found
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS]
        for name in files:
            if not _scanned(name):
                continue
            count += 1
            if count > MAX_SCANNED_FILES:
                result = None
                break
            path = os.path.join(folder, name)
            try:
                with open(path, "rb") as handle:
                    data = handle.read(MAX_SCANNED_BYTES)
            except OSError:
                continue
            if b"\0" in data[:1024]:
                continue
            for match in set(_REFERENCE.findall(data)):
                found.setdefault(match, set()).add(os.path.normpath(path))
        if result is None:
            break
    _references[root] = result
    return result


def named_elsewhere(path: str) -> bool:
    """Another file of the project names this file (its file name), or we cannot tell."""
    full = os.path.normpath(os.path.abspath(path))
    root = project_root(full)
    if root is None:
        return True  # no project to search: a command line anywhere may name it
    references = config_references(root)
    if references is None:
        return True
    return any(other != full for other in references.get(os.path.basename(full).encode(), ()))


# Programs of a project: code that may open a YAML file it names.
_PROGRAM_SUFFIXES = (".py", ".ipynb")


def read_by_program(path: str) -> list[str]:
    """The project's programs (Python code) that name this file: they may read it as their own
    settings (a worker that turns ``model.yaml`` into environment variables).  A vLLM launch
    that names it is found first (``config_launches``)."""
    full = os.path.normpath(os.path.abspath(path))
    root = project_root(full)
    if root is None:
        return []
    references = config_references(root)
    if not references:
        return []
    name = os.path.basename(full).encode()
    return sorted(other for other in references.get(name, ()) if other != full and other.endswith(_PROGRAM_SUFFIXES))


# `--config PATH`, `--config=PATH`, `"--config", "PATH"`, a YAML list's `- --config` / `- PATH`.
_CONFIG_OPTION = rb"--config(?:=|(?:[\"',\s\\]|-[ \t])+)[\"']?([^\s\"',\]\\]*%s)(?=[\s\"',\]\\]|$)"
# A vLLM server launch: `vllm serve`, `"vllm", "serve"` (comments between argv items too), the API server module, the vLLM image, Dynamo's worker.
_VLLM_LAUNCH = re.compile(rb"\bvllm[\"',\s]+(?:#[^\n]*\n[\"',\s]*)*serve\b|vllm\.entrypoints\.openai\.api_server|vllm/vllm-openai|dynamo\.vllm")
_DOCKER_VLLM_BASE = re.compile(rb"^\s*FROM\s+(?:--\S+\s+)*\S*vllm/vllm-openai\S*", re.M | re.I)
_DOCKER_RUN = re.compile(rb"^\s*(?:CMD|ENTRYPOINT)\b", re.I)
_IMAGE_TAG = re.compile(rb"vllm/vllm-openai:v?(\d+\.\d+)(?:\.\d+)?\b")


def config_launches(path: str) -> tuple[list[str], str | None]:
    """The project's files that launch vLLM with ``--config`` naming this file, and the vLLM
    release their image tags agree on (``vllm/vllm-openai:v0.31.0``), if any.

    A file counts when it mentions vLLM and passes ``--config`` a path that ends in this
    file's name (``--config configs/serve.yaml``, ``"--config", "serve.yaml"``, ``--config=...``).
    """
    full = os.path.normpath(os.path.abspath(path))
    root = project_root(full)
    if root is None:
        return [], None
    references = config_references(root)
    if not references:
        return [], None
    name = os.path.basename(full).encode()
    pattern = re.compile(_CONFIG_OPTION % re.escape(name))
    launches: list[str] = []
    tags: set[bytes] = set()
    for other in sorted(references.get(name, ())):
        if other == full:
            continue
        try:
            with open(other, "rb") as handle:
                data = handle.read(MAX_SCANNED_BYTES)
        except OSError:
            continue
        matches = [
            m for m in pattern.finditer(data) if _same_file(other, m.group(1), full) and _vllm_command(data, m.start())
        ]
        if not matches:
            continue
        launches.append(other)
        tags.update(_IMAGE_TAG.findall(data))
    release = tags.pop().decode() if len(tags) == 1 else None
    return launches, release


def _same_file(launching: str, written: bytes, full: str) -> bool:
    """The path written after --config may be this file: relative to the launching file, or a
    path we cannot resolve (absolute in a container, relative to an unknown working folder)."""
    text = written.decode("utf-8", "replace")
    if "$" in text or "{" in text or os.path.isabs(text) or "/" not in text:
        return True
    candidate = os.path.normpath(os.path.join(os.path.dirname(launching), text))
    return candidate == full or not os.path.exists(candidate)


def _lines_around(data: bytes, offset: int) -> tuple[list[bytes], int]:
    lines = data.split(b"\n")
    position = 0
    for index, line in enumerate(lines):
        if position + len(line) >= offset:
            return lines, index
        position += len(line) + 1
    return lines, len(lines) - 1


def _indent(line: bytes) -> int:
    """Where a line's content starts; a YAML list item's content is after its ``- ``."""
    match = re.match(rb"[ \t]*(?:-[ \t]+)*", line)
    return match.end() if match else 0


def _vllm_command(data: bytes, offset: int) -> bool:
    """The ``--config`` at ``offset`` is an argument of a vLLM server launch: the launcher is in
    the same command (a shell line with its continuations, a bracketed argv list, the YAML
    mapping whose ``args``/``command`` list holds it), or the Dockerfile that runs it is built
    on the vLLM image."""
    lines, index = _lines_around(data, offset)
    first = last = index
    while first > 0 and lines[first - 1].rstrip().endswith(b"\\"):
        first -= 1
    while last + 1 < len(lines) and lines[last].rstrip().endswith(b"\\"):
        last += 1
    command = b"\n".join(lines[first : last + 1])
    if _VLLM_LAUNCH.search(command):
        return True
    if _DOCKER_VLLM_BASE.search(data) and _DOCKER_RUN.match(lines[first]):
        return True
    # An argv list written over lines: from the nearest unclosed "[" before it to its "]".
    start = data.rfind(b"[", max(0, offset - 4000), offset)
    end = data.find(b"]", offset)
    if start >= 0 and end >= 0 and data.count(b"]", start, offset) == 0 and _VLLM_LAUNCH.search(data[start:end]):
        return True
    # A YAML list item (`- --config`): the mapping that holds the list (one item of a list of
    # containers: from its `- name: ...` line to the next item).
    item = re.compile(rb"[ \t]*-[ \t]")
    if item.match(lines[index]):
        top = index
        while top > 0 and (item.match(lines[top - 1]) or not lines[top - 1].strip()):
            top -= 1
        if top == 0:
            return False
        key_indent = _indent(lines[top - 1])
        low = top - 1
        while low > 0 and not item.match(lines[low]) and (not lines[low - 1].strip() or _indent(lines[low - 1]) >= key_indent):
            low -= 1
        high = index
        while high + 1 < len(lines) and (not lines[high + 1].strip() or _indent(lines[high + 1]) >= key_indent):
            if item.match(lines[high + 1]) and _indent(lines[high + 1]) == key_indent:
                break  # the next container
            high += 1
        return _VLLM_LAUNCH.search(b"\n".join(lines[low : high + 1])) is not None
    return False
