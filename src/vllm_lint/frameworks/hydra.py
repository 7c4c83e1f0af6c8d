"""Hydra ``defaults:`` lists, resolved as far as they are literal.

A config's defaults list names other configs to compose with it, in order:

* ``- base`` / ``- base@pkg``: a config next to this one, merged at this
  config's package (or ``pkg`` below it);
* ``- group: option`` / ``- /group@pkg: option`` / ``- ../group@pkg: option``:
  the file ``group/option.yaml`` (relative to this config's folder, or to the
  config root with a leading ``/``), merged at ``pkg`` below this config's
  package, or at the group's own path when no ``@pkg`` is given; ``@_here_``
  is this config's own package and ``@_global_`` the root;
* ``- override group: option`` replaces an earlier choice of that group;
* ``- _self_``: where this config's own keys are merged (last when absent).

A launch's ``group=option`` / ``group@pkg=option`` overrides change the
choice in the primary config before it is read.  A chosen file is looked for
in the linted tree (beside the config, then in the framework's config folder
when the framework's repository or a fork is linted), in the installed
framework's data files, and last in the pack's record of the framework's own
group options (``groups``: the option whose keys are the recorded defaults).
A choice found nowhere, a ``# @package`` header, a multi-select or an
interpolated option leaves the composed config open: its keys are unknown.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from vllm_lint.facts import UNKNOWN
from vllm_lint.frameworks.pack import Pack
from vllm_lint.frameworks.tree import ConfigTree, yaml_file_tree

MAX_DEPTH = 8
_PACKAGE_HEADER = re.compile(r"^\s*#\s*@package\b", re.M)


@dataclass
class Composed:
    # Trees in merge order; the config's own tree is among them, at its ``_self_`` place.
    layers: list[ConfigTree] = field(default_factory=list)
    open: bool = False  # a named config could not be read: any key may be set
    named_framework: bool = False  # the framework's own config (or a recorded group option) is composed in
    used_choices: set = field(default_factory=set)  # the launch's group overrides that chose a group
    # Each file read -> the index of the primary config's defaults item that composed it,
    # and -> the launch override that chose it.
    via_item: dict = field(default_factory=dict)
    via_choice: dict = field(default_factory=dict)
    framework_item: int = -1  # the defaults item that names the framework's own config


@dataclass
class Choice:
    group: str  # as written: "rollout", "/rollout", "../optim"
    package: str | None  # the ``@pkg`` part, or None
    option: object
    index: int = -1  # the defaults item it was written as
    chosen_by: str | None = None  # the launch override that chose the option


def compose(pack: Pack, own: ConfigTree, path: str, package: str = "", choices: dict | None = None, depth: int = 0) -> Composed:
    """The layers of ``own`` (a config read at ``package``) and of every config its defaults list names.

    ``choices``: group overrides of a launch command (``"group"`` or ``"group@pkg"`` -> option).
    """
    result = Composed()
    entries = own.defaults_list
    if isinstance(entries, str):
        entries = [entries]
    if entries is None or entries == []:
        result.layers.append(own)
        return result
    if not isinstance(entries, list):
        result.open = True
        result.layers.append(own)
        return result
    plan = _plan(entries, choices or {}, result.used_choices)
    if plan is None:
        result.open = True
        result.layers.append(own)
        return result
    directory = os.path.dirname(os.path.abspath(path))
    if not any(isinstance(item, tuple) and item[1] == "_self_" for item in plan):
        plan.append((-1, "_self_"))
    for item in plan:
        if isinstance(item, tuple) and item[1] == "_self_":
            result.layers.append(own)
            continue
        first = len(result.layers)
        named_before = result.named_framework
        if isinstance(item, tuple):
            _plain(pack, item[1], directory, package, depth, result)
            index, chosen_by = item[0], None
        else:
            _group(pack, item, directory, package, path, depth, result)
            index, chosen_by = item.index, item.chosen_by
        if result.named_framework and not named_before and depth == 0:
            result.framework_item = index
        for layer in result.layers[first:]:
            for entry in layer.entries.values():
                if entry.path is not None:
                    result.via_item.setdefault(entry.path, index)
                    if chosen_by is not None:
                        result.via_choice.setdefault(entry.path, chosen_by)
    return result


def _plan(entries: list, choices: dict, used: set) -> list | None:
    """The defaults list as ``_self_``, plain names and group choices, overrides applied; None if unreadable."""
    plan: list = []
    for index, item in enumerate(entries):
        if isinstance(item, str):
            plan.append((index, item.strip()))
            continue
        if not isinstance(item, dict) or len(item) != 1:
            return None
        ((key, option),) = item.items()
        if not isinstance(key, str):
            return None
        key = key.strip()
        override = key.startswith("override ")
        if override:
            key = key[len("override "):].strip()
        if key.startswith("optional "):
            key = key[len("optional "):].strip()
        group, _, package = key.partition("@")
        choice = Choice(group, package or None, option, index)
        if override:
            earlier = next((c for c in plan if isinstance(c, Choice) and _same_group(c, choice)), None)
            if earlier is None:
                return None  # overrides a choice made in a config this list names: not followed
            earlier.option, earlier.index = option, index  # the override decides: point at it
            continue
        plan.append(choice)
    for written, option in choices.items():
        group, _, package = written.partition("@")
        matches = [c for c in plan if isinstance(c, Choice) and _bare(c.group) == _bare(group) and (not package or c.package == package)]
        if not matches and not package and "/" not in group:
            continue  # ``key=value`` on a key that is no group: a value override
        if len(matches) != 1:
            return None
        matches[0].option = option
        matches[0].chosen_by = written
        used.add(written)
    return plan


def _bare(group: str) -> str:
    return group.lstrip("/").replace("../", "")


def _same_group(a: Choice, b: Choice) -> bool:
    return _bare(a.group) == _bare(b.group) and (b.package is None or a.package == b.package)


def _join(package: str, relative: str) -> str | None:
    if relative == "_here_":
        return package  # the package of the config that lists it
    if relative == "_global_" or relative.startswith("_global_."):
        return relative[len("_global_.") :]  # from the root
    if relative.startswith("_"):
        return None  # _group_, _name_ (Hydra 1.0): not followed
    return ".".join(part for part in (package, relative) if part)


def _plain(pack: Pack, item: str, directory: str, package: str, depth: int, result: Composed) -> None:
    name, _, pkg = item.partition("@")
    mount = _join(package, pkg) if pkg else package
    config_names = pack.launchers.get("config_names", [])
    own_names = {Path(relative).stem for relative in pack.own_configs}
    file = _find(os.path.join(directory, name)) if mount is not None else None
    if file is not None:
        _read(pack, file, mount, depth, result)
        return
    if not pkg and Path(name).stem in set(config_names) | own_names and not package:
        result.named_framework = True  # the framework's own primary config: its recorded defaults
        return
    result.open = True


def _group(pack: Pack, choice: Choice, directory: str, package: str, path: str, depth: int, result: Composed) -> None:
    option = choice.option
    if option is None:
        return  # the group is left out
    if not isinstance(option, str) or "${" in option:
        result.open = True  # a multi-select list, or a choice known at run time
        return
    group = choice.group
    if choice.package is not None:
        mount = _join(package, choice.package)
    else:
        mount = _join(package, _bare(group).replace("/", ".")) if not package else None  # nested _group_: not followed
    if mount is None:
        result.open = True
        return
    candidates = []
    if group.startswith("/"):
        candidates += [os.path.join(root, group.lstrip("/"), option) for root in _config_roots(pack, directory, path)]
    else:
        candidates.append(os.path.join(directory, group, option))
        candidates += [os.path.join(root, _bare(group), option) for root in _config_roots(pack, directory, path)]
    for candidate in candidates:
        file = _find(candidate)
        if file is not None:
            _read(pack, file, mount, depth, result)
            return
    recorded = pack.groups.get(f"{_bare(group)}/{option}")
    if recorded is not None and recorded == mount:
        result.named_framework = True  # the framework's own option: the pack's recorded defaults
        return
    result.open = True


def _find(stem: str) -> str | None:
    for candidate in (stem, stem + ".yaml", stem + ".yml"):
        if os.path.isfile(candidate) and candidate.endswith((".yaml", ".yml")):
            return candidate
    return None


def _config_roots(pack: Pack, directory: str, path: str) -> list[str]:
    """The framework's config folder in the linted tree (its repository or a fork), or installed."""
    from vllm_lint.frameworks.defaults import installed_file, tree_file

    root = pack.config_root
    if not root:
        return [directory]
    found = [directory]
    for where in (tree_file(root, path), installed_file(pack, root)):
        if where is not None and where not in found:
            found.append(where)
    return found


def _read(pack: Pack, file: str, mount: str, depth: int, result: Composed) -> None:
    if depth >= MAX_DEPTH:
        result.open = True
        return
    try:
        text = Path(file).read_text(encoding="utf-8")
        if _PACKAGE_HEADER.search(text):
            result.open = True  # the file chooses its own package
            return
        tree = yaml_file_tree(file, text, os.path.relpath(file), mount)
    except Exception:  # noqa: BLE001 - an unreadable config: its keys are unknown
        result.open = True
        return
    inner = compose(pack, tree, file, mount, None, depth + 1)
    result.layers.extend(inner.layers)
    result.open = result.open or inner.open
    result.named_framework = result.named_framework or inner.named_framework or _is_framework_config(file, pack)


def _is_framework_config(file: str, pack: Pack) -> bool:
    normalized = os.path.abspath(file).replace(os.sep, "/")
    root = pack.config_root
    return any(normalized.endswith("/" + relative) for relative in pack.own_configs) or bool(root and f"/{root}/" in normalized)


def choose_over_recorded(pack: Pack, tree: ConfigTree, choices: dict, path: str) -> set:
    """Group overrides of a launch over the framework's recorded defaults (its primary config unread).

    A choice of the option the defaults stand for changes nothing; another option found
    in the framework's config folder replaces the group's keys; anything else leaves the
    config open.  Returns the choices taken as group overrides.
    """
    used = set()
    directory = os.path.dirname(os.path.abspath(path))
    for written, option in choices.items():
        group, _, package = written.partition("@")
        recorded = {key: mount for key, mount in pack.groups.items() if key.rsplit("/", 1)[0] == _bare(group)}
        if not recorded:
            if package or "/" in group:
                tree.open = True
                used.add(written)
            continue
        used.add(written)
        mounts = set(recorded.values())
        if len(mounts) != 1 or (package and package not in mounts) or not isinstance(option, str):
            tree.open = True
            continue
        mount = mounts.pop()
        if f"{_bare(group)}/{option}" in recorded:
            continue
        result = Composed()
        file = next((f for f in (_find(os.path.join(root, _bare(group), option)) for root in _config_roots(pack, directory, path)) if f), None)
        if file is not None:
            _read(pack, file, mount, 0, result)
        if file is None or result.open:
            tree.open = True
            for entry in tree.entries.values():
                entry.value = UNKNOWN
            continue
        tree.remove(mount)
        for layer in result.layers:
            tree.merge(layer)
    return used
