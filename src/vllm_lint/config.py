"""Settings: ``[tool.vllm-lint]`` in pyproject.toml, and the target vLLM version.

The target version of a file is, in order: ``--target-version``; the
``target-version`` setting; for a command in a Dockerfile or a Kubernetes or
compose manifest, the tag of the vLLM image it runs in; the releases
the nearest folder's pins admit (``pins.py``: requirements files, pyproject.toml,
setup.py, environment.yml, lock files..., in the file's folder or above it, up
to the repository's root; several pins there admit every release any of them
admits); the installed vLLM's version; else the newest release the rules know,
marked as assumed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from vllm_lint.tomlfiles import load_toml
from vllm_lint.versions import NEWEST_VERSION, Version, VersionError
from vllm_lint.versions import target_version as parse_target_version

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


PASS_THROUGH_READINGS = ("nothing", "anything")


class ConfigError(ValueError):
    """A setting that cannot be used (exit code 2)."""


def read_pyproject(path: Path) -> dict:
    """A pyproject.toml's tables; ``ConfigError`` (naming the file) when it is not valid TOML."""
    try:
        return load_toml(path)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from error
    except ValueError as error:  # TOMLDecodeError, or bytes that are not UTF-8
        raise ConfigError(f"{path}: not valid TOML: {error}") from error


def table(data: dict, key: str, path: Path, where: str = "") -> dict:
    """``data[key]`` as a table ({} when absent); ``ConfigError`` when it is something else."""
    value = data.get(key, {})
    if not isinstance(value, dict):
        name = f"{where}.{key}" if where else key
        raise ConfigError(f"{path}: `{name}` must be a table, not {_toml_type(value)}")
    return value


def _toml_type(value: object) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array"}
    return next((name for kind, name in names.items() if type(value) is kind), "a value")


def _as_list(value: object, where: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise ConfigError(f"{where} must be a list of strings")


def selectors(values: list[str], where: str) -> list[str]:
    """Rule selectors as given (codes, prefixes, ``ALL``), upper-cased; ``ConfigError`` for one
    that selects no rule, so that a typo cannot silently select or ignore nothing (or everything)."""
    codes = []
    for value in values:
        code = value.strip().upper()
        if not _is_selector(code):
            raise ConfigError(
                f"{where}: unknown rule selector {value!r} (expected a rule code or prefix such as VLM105, VLM1 or VLM, or ALL)"
            )
        codes.append(code)
    return codes


def _is_selector(code: str) -> bool:
    if code == "ALL":
        return True
    if not code.isalnum():
        return False
    from vllm_lint.rules import ALL_RULES  # only when selectors are given

    return any(rule.code.startswith(code) for rule in ALL_RULES)


@dataclass
class Settings:
    target_version: Version | None = None
    target_version_source: str = ""
    select: list[str] = field(default_factory=lambda: ["VLM"])
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    extend_exclude: list[str] = field(default_factory=list)  # kept when --exclude replaces exclude
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    config_path: Path | None = None
    # Arguments a vLLM fork or plugin adds (``my_arg`` or ``--my-arg``): never reported as unknown.
    extra_arguments: frozenset[str] = frozenset()
    # How a command line's pass-through channels are read (``facts.Reading``): "nothing" (a script's
    # own "$@", the command line that reads a standalone --config file add nothing, findings say so)
    # or "anything" (the strict reading: they may set any setting, so rules stay silent).
    assume_pass_through: str = "nothing"
    # Skip what git ignores when walking folders (``vllm_lint.gitignore``).
    respect_gitignore: bool = True
    # Images whose entrypoint is vLLM's server, besides vLLM's own (``images.declared_server_image``).
    server_images: tuple[str, ...] = ()
    # The project's own models (``[tool.vllm-lint.models]``, ``model_facts.declared_models``).
    models: tuple = ()

    def is_extra_argument(self, name: str | None) -> bool:
        return name is not None and argument_key(name) in self.extra_arguments

    def declares(self, finding) -> bool:
        """The finding is about an argument the project declares (a vLLM fork's or plugin's): not reported."""
        return finding.code == "VLM301" and self.is_extra_argument(finding.argument)

    @property
    def root(self) -> Path:
        """The folder the settings' globs are relative to: the project's, where its pyproject.toml is."""
        return self.config_path.resolve().parent if self.config_path is not None else Path.cwd()

    @property
    def selected(self) -> list[str]:
        return self.select + [code for code in self.extend_select if code not in self.select]

    def enabled(self, code: str) -> bool:
        from vllm_lint.rules import OPT_IN_CODES  # here: settings load before any rule is needed

        selectors = self.selected
        if code in OPT_IN_CODES:  # only a selector that names it: its code, or a prefix longer than "VLM"
            selectors = [prefix for prefix in selectors if prefix not in ("VLM", "ALL")]
        return _matches(code, selectors) and not _matches(code, self.ignore)

    def excludes(self) -> list[str]:
        """The configured exclude patterns, path patterns anchored at the project's folder."""
        from vllm_lint.excludes import anchor

        return anchor(self.exclude + self.extend_exclude, str(self.root))

    def ignored_for(self, path: str) -> list[str]:
        import fnmatch

        from vllm_lint.excludes import absolute_path

        codes: list[str] = []
        normalized = path.replace(os.sep, "/")
        name = normalized.rsplit("/", 1)[-1]
        absolute = absolute_path(path)
        root = str(self.root).replace(os.sep, "/").rstrip("/")
        for pattern, ignored in self.per_file_ignores.items():
            if (
                fnmatch.fnmatch(normalized, pattern)
                or fnmatch.fnmatch(name, pattern)
                or (pattern.startswith("/") and fnmatch.fnmatch(absolute, pattern))
                or fnmatch.fnmatch(normalized, "*/" + pattern)
                # relative to the project's folder, wherever the command runs
                or fnmatch.fnmatch(absolute, f"{root}/{pattern.removeprefix('./')}")
            ):
                codes.extend(ignored)
        return codes

    def reports(self, code: str, path: str) -> bool:
        """Whether a finding of ``code`` in ``path`` is reported (selection and per-file ignores)."""
        return self.enabled(code) and not any(code.startswith(prefix) for prefix in self.ignored_for(path))


def argument_key(name: str) -> str:
    """``--max-model-len``, ``max_model_len`` and ``max-model-len`` name one argument."""
    return name.strip().lstrip("-").replace("-", "_")


def _matches(code: str, prefixes: list[str]) -> bool:
    return any(prefix == "ALL" or code.startswith(prefix) for prefix in prefixes)


def find_config(start: Path) -> Path | None:
    """The nearest pyproject.toml with a [tool.vllm-lint] table, from ``start`` upwards.

    A pyproject.toml on the way that is not valid TOML, or whose ``tool`` is not a
    table, is an error (as in ruff): it may be the one meant to hold the settings.
    """
    directory = start.resolve()
    if directory.is_file():
        directory = directory.parent
    for candidate in [directory, *directory.parents]:
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file():
            if CONFIG_SECTION in table(read_pyproject(pyproject), "tool", pyproject):
                return pyproject
    return None


_KNOWN_SETTINGS = frozenset(
    {
        "target-version",
        "select",
        "extend-select",
        "ignore",
        "extend-ignore",
        "exclude",
        "extend-exclude",
        "per-file-ignores",
        "frameworks",  # declared framework packs, read by vllm_lint.frameworks.user
        "extra-arguments",  # arguments a vLLM fork or plugin adds: never reported by VLM301
        "assume-pass-through",  # "nothing" (default) or "anything": how "$@" and the like are read
        "respect-gitignore",  # true (default): folders are walked without what git ignores
        "server-images",  # images whose entrypoint is vLLM's server: their containers' args are engine flags
        "models",  # the project's own models: config.json keys by model id, for the checks that read the model
    }
)


def load_settings(start: Path, config_path: Path | None = None) -> Settings:
    settings = Settings()
    path = config_path or find_config(start)
    if path is None:
        return settings
    section = table(table(read_pyproject(path), "tool", path), CONFIG_SECTION, path, "tool")
    settings.config_path = path
    unknown = set(section) - _KNOWN_SETTINGS
    if unknown:
        raise ConfigError(f"{path}: unknown [tool.vllm-lint] setting(s): {', '.join(sorted(unknown))}")
    where = f"{path}: [tool.vllm-lint]"
    if "target-version" in section:
        value = section["target-version"]
        if not isinstance(value, str):
            # A TOML number loses what makes it a version: 0.30 reads as 0.3.
            raise ConfigError(f'{where} target-version must be a string, not {_toml_type(value)}: quote it, e.g. target-version = "0.30"')
        try:
            settings.target_version, note = parse_target_version(value)
        except VersionError as error:
            raise ConfigError(f"{where} target-version: {error}") from error
        settings.target_version_source = f"target-version in {path}" + (f" ({note})" if note else "")
    def codes(key: str) -> list[str]:
        return selectors(_as_list(section.get(key), f"{where} {key}"), f"{where} {key}")

    if "select" in section:
        settings.select = codes("select")
    settings.extend_select = codes("extend-select")
    settings.ignore = codes("ignore") + codes("extend-ignore")
    settings.exclude = _as_list(section.get("exclude"), f"{where} exclude")
    settings.extend_exclude = _as_list(section.get("extend-exclude"), f"{where} extend-exclude")
    settings.extra_arguments = frozenset(
        argument_key(name) for name in _as_list(section.get("extra-arguments"), f"{where} extra-arguments")
    )
    if "assume-pass-through" in section:
        value = section["assume-pass-through"]
        if value not in PASS_THROUGH_READINGS:
            raise ConfigError(f'{where} assume-pass-through must be "nothing" or "anything", not {value!r}')
        settings.assume_pass_through = value
    if "respect-gitignore" in section:
        value = section["respect-gitignore"]
        if not isinstance(value, bool):
            raise ConfigError(f"{where} respect-gitignore must be true or false, not {_toml_type(value)}")
        settings.respect_gitignore = value
    if "server-images" in section:
        settings.server_images = server_images(section["server-images"], f"{where} server-images")
    if "models" in section:
        from vllm_lint.model_facts import declared_models

        try:
            settings.models = declared_models(section["models"], f"{where} models", path.resolve().parent)
        except ValueError as error:
            raise ConfigError(str(error)) from error
    per_file = section.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise ConfigError(f"{where} per-file-ignores must be a table of glob = [codes]")
    for pattern, ignored in per_file.items():
        label = f"{where} per-file-ignores {pattern!r}"
        settings.per_file_ignores[pattern] = selectors(_as_list(ignored, label), label)
    return settings


def server_images(value: object, where: str) -> tuple[str, ...]:
    """``server-images``: a list of image names or globs (``images.declared_server_image``)."""
    from vllm_lint.images import image_pattern_error

    if not isinstance(value, list):
        raise ConfigError(f'{where} must be a list of image names, e.g. ["quay.io/example/vllm"], not {_toml_type(value)}')
    for pattern in value:
        problem = image_pattern_error(pattern)
        if problem is not None:
            raise ConfigError(f"{where}: {problem}")
    return tuple(value)


def plugin_settings(target_version: str | None, option: str) -> Settings:
    """Settings for the flake8 and pylint plugins: ``[tool.vllm-lint]`` from the pyproject.toml
    found from the working directory upwards (where both hosts look for their own
    configuration), with the plugin's own target-version option over it."""
    settings = load_settings(Path.cwd())
    if target_version:
        try:
            settings.target_version, note = parse_target_version(target_version)
        except VersionError as error:
            raise ConfigError(f"{option}: {error}") from error
        settings.target_version_source = option + (f" ({note})" if note else "")
    return settings


class VersionResolver:
    """Finds each file's target version; caches per folder."""

    def __init__(
        self, explicit: Version | None = None, explicit_source: str = "", pass_through: str = "nothing", server_images: tuple[str, ...] = ()
    ) -> None:
        self.explicit = explicit
        self.explicit_source = explicit_source
        self.pass_through = pass_through
        self.server_images = tuple(server_images)
        self.models: tuple = ()  # the project's ``[tool.vllm-lint.models]``
        self._by_dir: dict[Path, tuple[Version, str] | None] = {}
        self._pins_by_dir: dict[Path, list] = {}
        self._plugins_by_dir: dict[Path, frozenset] = {}
        self._installed: tuple[Version, str] | None | bool = False

    def for_path(self, path: str | None) -> tuple[Version, str]:
        directory = Path(path).resolve().parent if path and path not in ("-", "stdin") else None
        target = self._target(directory)
        target.pass_through = self.pass_through
        target.server_images = self.server_images
        target.models = self.models
        if directory is not None:
            target.plugin_arguments = self.plugin_arguments_for(directory)
        return target

    def plugin_arguments_for(self, directory: Path) -> frozenset:
        """The arguments the vLLM plugin of the project ``directory`` is in adds (its nearest folder
        with a ``pyproject.toml``, ``setup.py`` or ``setup.cfg``); cached per folder."""
        cached = self._plugins_by_dir.get(directory)
        if cached is not None:
            return cached
        names: frozenset = frozenset()
        if any((directory / name).is_file() for name in ("pyproject.toml", "setup.py", "setup.cfg")):
            from vllm_lint.plugins import plugin_arguments

            names = plugin_arguments(directory)
        elif directory.parent != directory and not (directory / ".git").exists() and directory not in _not_a_project():
            names = self.plugin_arguments_for(directory.parent)
        self._plugins_by_dir[directory] = names
        return names

    def _target(self, directory: Path | None) -> Target:
        """The target of a file of ``directory`` (None: standard input)."""
        if self.explicit is not None:
            return Target(self.explicit, self.explicit_source, explicit=True, origin=self.explicit_source)
        if directory is not None:
            pinned = self._pinned(directory)
            if pinned is not None:
                return Target(*pinned)
        installed = self._installed_version()
        if installed is not None:
            return Target(*installed, origin=installed[1])
        return Target(Version.admitting([NEWEST_VERSION.release], assumed=True), "the newest vLLM release the rules know: no pin found")

    def _pinned(self, directory: Path) -> tuple[Version, str, str] | None:
        """The releases the nearest folder's pins admit, and where they are written; cached per folder."""
        if directory in self._by_dir:
            return self._by_dir[directory]  # type: ignore[return-value]
        found: tuple[Version, str, str] | None = None
        pins = self.pins_for(directory)
        if pins:
            why = ", ".join(f"{pin.requirement} at {pin.where}" for pin in pins)
            found = (pinned_version(pins), why, places([(str(pin.path), pin.line) for pin in pins]))
        self._by_dir[directory] = found
        return found

    def pins_for(self, directory: Path) -> list:
        """The pins a file of ``directory`` runs by: the nearest folder's that has any (its lock
        file's alone when it has one; a bare ``vllm`` alone pins nothing)."""
        cached = self._pins_by_dir.get(directory)
        if cached is not None:
            return cached
        if directory in _not_a_project():
            return []  # a requirements file lying in the home or temp folder pins no project beneath it
        from vllm_lint.pins import pins_in

        pins = pins_in(directory)
        locked = [pin for pin in pins if pin.locked]
        pins = locked or pins  # a lock file says what is installed, the others what is allowed
        if all(pin.bare for pin in pins):
            pins = []  # a bare ``vllm`` alone pins nothing: the folders above may
        if not pins and directory.parent != directory and not (directory / ".git").exists():
            pins = self.pins_for(directory.parent)
        self._pins_by_dir[directory] = pins
        return pins

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


def _not_a_project() -> frozenset[Path]:
    """Folders whose own files pin nothing beneath them: the user's home, the temp folder, the root."""
    global _NOT_A_PROJECT
    if _NOT_A_PROJECT is None:
        import tempfile

        folders = {Path(os.path.abspath(os.sep)), Path(tempfile.gettempdir()).resolve()}
        try:
            folders.add(Path.home().resolve())
        except (RuntimeError, KeyError):
            pass  # no home folder known
        _NOT_A_PROJECT = frozenset(folders)
    return _NOT_A_PROJECT


_NOT_A_PROJECT: frozenset[Path] | None = None


def pinned_version(pins) -> Version:
    """The version that stands for what several pins admit together (any of them may be the one installed)."""
    releases = {release for pin in pins for release in pin.releases}
    if len(releases) == 1:
        return pins[0].version
    return Version.admitting(releases)


def places(located: list[tuple[str, int]]) -> str:
    """Where releases are written, short: ``requirements.txt:3, ../values.yaml:23`` (paths
    relative to the working directory when under it; at most three, then how many more)."""
    shown = [f"{display_path(path)}:{line}" for path, line in located]
    if len(shown) > 3:
        shown = shown[:3] + [f"{len(shown) - 3} more"]
    return ", ".join(dict.fromkeys(shown))


def display_path(path: str) -> str:
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute)
    except ValueError:  # another drive
        return absolute
    return absolute if relative.startswith("..") else relative


class Target(tuple):
    """``(version, why)``; ``explicit`` when the user set it (``--target-version``,
    ``target-version``), which an image tag in a Dockerfile or manifest does not override;
    ``pass_through``: the project's ``assume-pass-through`` (``facts.reading`` applies it);
    ``server_images``: the project's ``server-images`` (applied the same way);
    ``origin``: where the release is written, short (``requirements.txt:3``), for findings;
    "" when nothing names it (the newest release stands in)."""

    explicit: bool
    pass_through: str
    server_images: tuple[str, ...]
    origin: str
    models: tuple = ()  # the project's ``[tool.vllm-lint.models]``
    plugin_arguments: frozenset = frozenset()  # the arguments the project's own vLLM plugin adds

    def __new__(
        cls, version: Version, why: str, origin: str = "", explicit: bool = False, pass_through: str = "nothing", server_images: tuple[str, ...] = ()
    ) -> Target:
        target = super().__new__(cls, (version, why))
        target.explicit = explicit
        target.pass_through = pass_through
        target.server_images = server_images
        target.origin = origin
        return target

    def with_release(self, version: Version, why: str, origin: str) -> Target:
        """The same file's target with the release named elsewhere (an image its module builds):
        the project's settings go with it."""
        return _target(version, why, origin, False, self.pass_through, self.server_images, self.models, self.plugin_arguments)

    def __reduce__(self):  # for the worker processes of -j N
        return (
            _target,
            (self[0], self[1], self.origin, self.explicit, self.pass_through, self.server_images, self.models, self.plugin_arguments),
        )


def _target(version, why, origin, explicit, pass_through, server_images, models, plugin_arguments=frozenset()) -> Target:
    target = Target(version, why, origin, explicit, pass_through, server_images)
    target.models = models
    target.plugin_arguments = plugin_arguments
    return target
