"""Where a framework's defaults come from, in order:

1. the framework's own config files, when they are in the linted tree (the
   framework's repository or a fork) or installed in the active environment
   (their data files are read; the framework is never imported);
2. the pack's recorded defaults, for the framework release the project pins;
3. when no release is pinned, a recorded default that differs across releases
   is unknown (so nothing is reported on it).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from vllm_lint.facts import UNKNOWN
from vllm_lint.frameworks.pack import Pack
from vllm_lint.frameworks.tree import ConfigTree, Entry, yaml_file_tree


def default_tree(pack: Pack, linted_path: str | None, recorded_only: bool = False) -> tuple[ConfigTree, str]:
    """The framework's defaults as a tree, and where they came from (``recorded_only``: the pack's record).

    Built once per framework and source (every config of a repository has the same
    defaults); each call gets its own copy, which the caller may change."""
    own = [] if recorded_only else _own_config_files(pack, linted_path)
    if own:
        try:
            texts = tuple(Path(file).read_text(encoding="utf-8") for file, _ in own)
        except Exception:  # noqa: BLE001 - an unreadable framework file: fall back to the pack
            texts = None
        if texts is not None:
            built = _built_once(pack, ("own", tuple(own), texts), lambda: _own_defaults(own, texts))
            if built is not None:
                return built
    release, why = pinned_release(pack, linted_path)
    return _built_once(pack, ("recorded", release, why), lambda: _recorded_defaults(pack, release, why))


# (id of the pack, what the defaults are built from) -> (the pack, the tree or None, its label)
_DEFAULT_TREES: dict[tuple, tuple] = {}


def _built_once(pack: Pack, source: tuple, build) -> tuple[ConfigTree, str] | None:
    key = (id(pack), *source)
    cached = _DEFAULT_TREES.get(key)
    if cached is None or cached[0] is not pack:
        if len(_DEFAULT_TREES) >= 64:
            _DEFAULT_TREES.clear()
        cached = _DEFAULT_TREES[key] = (pack, *(build() or (None, "")))
    _, tree, label = cached
    return None if tree is None else (tree.copy(), label)


def _own_defaults(own: list[tuple[str, str]], texts: tuple[str, ...]) -> tuple[ConfigTree, str] | None:
    """The framework's own config files merged; None when one of them cannot be read."""
    tree = ConfigTree()
    for (file, mount), text in zip(own, texts):
        try:
            tree.merge(yaml_file_tree(file, text, file, mount, positions=False))
        except Exception:  # noqa: BLE001 - an unreadable framework file: fall back to the pack
            return None
    for entry in tree.entries.values():
        entry.provenance = "default"
        entry.key_span = entry.value_span = None
    return tree, "the framework's config files (" + ", ".join(f for f, _ in own) + ")"


def _recorded_defaults(pack: Pack, release: tuple[int, ...] | None, why: str) -> tuple[ConfigTree, str]:
    tree = ConfigTree()
    for key, value in pack.defaults.items():
        why_unknown = ""
        if isinstance(value, dict) and value and all(_is_release(k) for k in value):
            value = _for_release(value, release)
            if value is UNKNOWN:
                why_unknown = f"{pack.name}'s default for {key} changed across releases, and the project pins none of them"
        tree.entries[key] = Entry(value, provenance="default", why=why_unknown)
    label = f"the {pack.name} pack's recorded defaults ({pack.read_from})"
    if release is not None:
        label += f" for {pack.name} {'.'.join(map(str, release))} ({why})"
    return tree, label


def _is_release(text) -> bool:
    return isinstance(text, str) and re.fullmatch(r"\d+(\.\d+)*", text) is not None


def _release(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def _for_release(table: dict, release: tuple[int, ...] | None):
    """The value of a default that changed across releases: unknown when the release is."""
    ordered = sorted(table.items(), key=lambda item: _release(item[0]))
    if release is None:
        values = {repr(value) for _, value in ordered}
        return ordered[-1][1] if len(values) == 1 else UNKNOWN
    chosen = UNKNOWN  # older than every recorded release
    for first, value in ordered:
        if release >= _release(first):
            chosen = value
    return chosen


def _own_config_files(pack: Pack, linted_path: str | None) -> list[tuple[str, str]]:
    found = []
    for relative, mount in pack.own_configs.items():
        file = _in_tree(relative, linted_path) or _installed(pack, relative)
        if file is None:
            return []
        found.append((file, mount))
    return found


def tree_file(relative: str, linted_path: str | None) -> str | None:
    """A file or folder of the framework's repository, when the linted tree is it (or a fork)."""
    if not linted_path:
        return None
    return _tree_file_above(relative, str(Path(linted_path).resolve().parent))


def forget_tree_files() -> None:
    """Drop what was found on disk: a long-running host (the language server) looks again."""
    _tree_file_above.cache_clear()


@lru_cache(maxsize=4096)
def _tree_file_above(relative: str, folder: str) -> str | None:
    # Every config and launch of a repository asks for the same few files from the same folders.
    directory = Path(folder)
    for candidate in [directory, *directory.parents]:
        if (candidate / relative).exists():
            return str(candidate / relative)
        if (candidate / ".git").exists():
            break
    return None


def installed_file(pack: Pack, relative: str) -> str | None:
    """A file or folder of the installed framework's package (read, never imported)."""
    package = relative.split("/", 1)[0]
    if not package.isidentifier():
        return None
    root = _installed_root(package)
    if root is None:
        return None
    where = Path(root) / relative
    return str(where) if where.exists() else None


def _in_tree(relative: str, linted_path: str | None) -> str | None:
    if not linted_path:
        return None
    directory = Path(linted_path).resolve().parent
    for candidate in [directory, *directory.parents]:
        file = candidate / relative
        if file.is_file():
            return str(file)
        if (candidate / ".git").exists():
            break
    return None


@lru_cache(maxsize=None)
def _installed_root(package: str) -> str | None:
    """The folder an installed package lives in, found without importing it."""
    from importlib.util import find_spec

    try:
        spec = find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return str(Path(list(spec.submodule_search_locations)[0]).parent)


def _installed(pack: Pack, relative: str) -> str | None:
    """A file (not a folder) of the installed framework's package."""
    found = installed_file(pack, relative)
    return found if found is not None and Path(found).is_file() else None


def pinned_release(pack: Pack, linted_path: str | None) -> tuple[tuple[int, ...] | None, str]:
    """The framework release the project pins (``verl==0.5.0`` in pyproject or requirements)."""
    release, _extras, why = _pinned(pack, linted_path)
    return release, why


def _pinned(pack: Pack, linted_path: str | None) -> tuple[tuple[int, ...] | None, frozenset, str]:
    """The framework release a pin fixes, or else the one a fork of the framework is
    (``version_file`` in the project's tree)."""
    if not pack.distribution or not linted_path:
        return None, frozenset(), ""
    directory = Path(linted_path).resolve().parent
    for candidate in [directory, *directory.parents]:
        for name in ("pyproject.toml", "requirements.txt"):
            file = candidate / name
            if file.is_file():
                found = _pin_in(file, pack.distribution)
                if found is not None:
                    return found[0], found[1], f"pinned in {file}"
        if (candidate / ".git").exists():
            break
    version_file = _in_tree(pack.version_file, linted_path) if pack.version_file else None
    own = _own_release(Path(version_file)) if version_file else None
    if own is not None:
        return own[0], frozenset(), own[1]
    return None, frozenset(), ""


def _own_release(file: Path) -> tuple[tuple[int, ...], str] | None:
    """The release a framework's version file records (``0.2.0.dev``: 0.2.0)."""
    try:
        text = file.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    match = re.match(r"v?(\d+(?:\.\d+)*)", text)
    if match is None:
        return None
    return _release(match.group(1)), f"the framework's own source in the project ({file}: {text[:40]})"


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pin_in(file: Path, distribution: str) -> tuple[tuple[int, ...], frozenset] | None:
    """The release of ``distribution`` a requirements file or pyproject.toml fixes, and the extras it names."""
    from packaging.requirements import InvalidRequirement, Requirement

    from vllm_lint.pins import requirements_of

    wanted = _normal(distribution)
    for text in requirements_of(file, wanted.split("-")[0]):
        try:
            requirement = Requirement(text)
        except InvalidRequirement:
            continue
        if _normal(requirement.name) != wanted:
            continue
        for spec in requirement.specifier:
            if spec.operator in ("==", "===", "~=") and re.fullmatch(r"v?\d+(\.\d+)*(\.\*)?", spec.version):
                return _release(spec.version.lstrip("v").removesuffix(".*")), frozenset(_normal(e) for e in requirement.extras)
    return None


def framework_vllm(pack: Pack, linted_path: str | None) -> tuple[str | None, str]:
    """The vLLM the framework requires, for the framework release (and extras) the project pins.

    A pin is recorded per framework release line (``"0.6"`` covers 0.6.x); it is a
    version, a specifier, or ``{extra: either}``.  A specifier gives a target only
    when every vLLM it admits shares one rule profile (``>=0.8.5,<=0.12`` admits
    only releases older than the first the rules know, all without replay).
    """
    if not pack.vllm_pins:
        return None, ""
    release, extras, why = _pinned(pack, linted_path)
    if release is None:
        return None, ""
    requirement = None
    for line, pin in pack.vllm_pins.items():
        if release[: len(_release(line))] == _release(line):
            requirement = pin
    if isinstance(requirement, dict):
        chosen = [spec for extra, spec in requirement.items() if _normal(extra) in extras]
        requirement = chosen[0] if len(chosen) == 1 else None
    if requirement is None:
        return None, ""
    target = single_profile(requirement)
    if target is None:
        return None, ""
    shown = ".".join(str(part) for part in release)
    return target, f"{pack.name} {shown} ({why}) requires vLLM {requirement}"


def single_profile(requirement: str) -> str | None:
    """The vLLM version to check against when every release a requirement admits has the same rule profile."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    from vllm_lint.versions import Version

    text = requirement.strip()
    if text[:1].isdigit():
        text = "==" + text + ("" if text.count(".") >= 2 else ".*")
    try:
        specifier = SpecifierSet(text)
    except InvalidSpecifier:
        return None
    admitted: list[tuple[int, int, int]] = []
    for major in (0, 1):
        for minor in range(0, 60):
            patch = next((p for p in range(0, 30) if specifier.contains(f"{major}.{minor}.{p}", prereleases=True)), None)
            if patch is not None:
                admitted.append((major, minor, patch))
    if not admitted or admitted[-1][:2] >= (0, 59):
        return None  # nothing admitted, or no upper bound
    profiles = {Version(*version).release for version in admitted}
    if len(profiles) != 1:
        return None
    return "%d.%d.%d" % admitted[-1]
