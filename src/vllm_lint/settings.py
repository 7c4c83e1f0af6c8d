"""How a file's settings are decided, alike for every entry point.

``check`` (and ``--fix``, ``--add-noqa``), ``explain``, the language server and
the flake8 and pylint plugins all ask here for a path's configuration
(``[tool.vllm-lint]``, with the command line's or the host's options over it),
the rules selected for it, its target release(s), and which findings of a
linted file are reported (selection, per-file ignores, declared arguments, and
the unused-noqa rule, which also reads files skipped unanalysed).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, NamedTuple


class Decided(NamedTuple):
    """A run's settings: the configuration, the exclude patterns of discovery, and the target release of each path."""

    settings: object  # config.Settings
    excludes: list[str]
    resolver: object  # config.VersionResolver


def split_patterns(values: list[str] | None) -> list[str]:
    """The patterns of a repeatable, comma-separated option."""
    patterns: list[str] = []
    for value in values or []:
        patterns.extend(part.strip() for part in value.split(",") if part.strip())
    return patterns


def codes(values: list[str] | None, option: str) -> list[str]:
    """Rule selectors of a repeatable, comma-separated option; ``ConfigError`` for an unknown one."""
    from vllm_lint.config import selectors

    found: list[str] = []
    for value in values or []:
        parts = [part for part in value.split(",") if part.strip()]
        found.extend(selectors(parts or [value], option))  # an empty value is an unknown selector
    return found


def resolver_for(settings):
    """The target release of each path, as the settings say to find it."""
    from vllm_lint.config import VersionResolver

    resolver = VersionResolver(settings.target_version, settings.target_version_source, settings.assume_pass_through, settings.server_images)
    resolver.models = settings.models
    return resolver


def settings_for(
    paths: list[str],
    config: str | None = None,
    target_version: str | None = None,
    select: list[str] | None = None,
    extend_select: list[str] | None = None,
    ignore: list[str] | None = None,
    extend_ignore: list[str] | None = None,
    exclude: list[str] | None = None,
    extend_exclude: list[str] | None = None,
    per_file_ignores: list[str] | None = None,
    extend_per_file_ignores: list[str] | None = None,
    respect_gitignore: bool | None = None,
) -> Decided:
    """The settings of a run over ``paths``, as ``vllm-lint check`` options give them; ``ConfigError``
    for a setting that cannot be used.  The configuration is the one found from the first path."""
    from vllm_lint.config import DEFAULT_EXCLUDES, ConfigError, load_settings
    from vllm_lint.excludes import anchor
    from vllm_lint.versions import VersionError
    from vllm_lint.versions import target_version as parse_target_version

    first = paths[0] if paths and paths[0] != "-" else "."
    config_path = Path(config) if config else None
    settings = load_settings(Path(first) if os.path.exists(first) else Path("."), config_path)
    if target_version:
        try:
            settings.target_version, note = parse_target_version(target_version)
        except VersionError as error:
            raise ConfigError(f"--target-version: {error}") from error
        settings.target_version_source = "--target-version" + (f" ({note})" if note else "")
    # As in ruff: --select replaces the configured selection, the others add to it.
    if select:
        settings.select = codes(select, "--select")
        settings.extend_select = []
    settings.extend_select += codes(extend_select, "--extend-select")
    settings.ignore += codes(ignore, "--ignore") + codes(extend_ignore, "--extend-ignore")
    # As in ruff: --exclude replaces the configured exclude, --extend-exclude adds to it.
    if exclude:
        settings.exclude = []
    if per_file_ignores:
        settings.per_file_ignores = {}
    for pattern, ignored in per_file_pairs((per_file_ignores or []) + (extend_per_file_ignores or [])):
        # Given on the command line: relative to the working directory, as its paths are.
        for anchored in anchor([pattern], os.getcwd()):
            settings.per_file_ignores.setdefault(anchored, []).extend(ignored)
    if respect_gitignore is not None:
        settings.respect_gitignore = respect_gitignore
    # Path patterns belong to the folder they were given for: the project's, or the working directory.
    given = anchor(split_patterns(exclude) + split_patterns(extend_exclude), os.getcwd())
    excludes = list(DEFAULT_EXCLUDES) + settings.excludes() + given
    return Decided(settings, excludes, resolver_for(settings))


def per_file_pairs(values: list[str]) -> list[tuple[str, list[str]]]:
    """``--per-file-ignores`` values: ``GLOB:CODES``, codes comma-separated; as in ruff, a value may
    also hold several pairs (``tests/*:VLM2,scripts/*:VLM301``).  ``ConfigError`` for a value
    without a glob or a code."""
    from vllm_lint.config import ConfigError, selectors

    pairs: list[tuple[str, list[str]]] = []
    for value in values:
        for part in (item.strip() for item in value.split(",")):
            if not part:
                continue
            if ":" in part:
                pattern, _, code = part.rpartition(":")
                if not pattern.strip() or not code.strip():
                    raise ConfigError(f"--per-file-ignores: expected GLOB:CODES, got {value!r}")
                pairs.append((pattern.strip(), []))
            elif not pairs:
                raise ConfigError(f"--per-file-ignores: expected GLOB:CODES, got {value!r}")
            else:
                code = part
            pairs[-1][1].extend(selectors([code], f"--per-file-ignores {value!r}"))
    return pairs


def plugin_settings(target_version: str | None, option: str) -> Decided:
    """The settings of the flake8 and pylint plugins: ``[tool.vllm-lint]`` found from the working
    directory upwards, with the host's ``option`` over its target-version; the configured
    excludes only (the host discovers the files)."""
    from vllm_lint.config import plugin_settings as load_plugin_settings

    settings = load_plugin_settings(target_version, option)
    return Decided(settings, settings.excludes(), resolver_for(settings))


def excluded(decided: Decided, path: str) -> bool:
    """A file a plugin's host hands over that the configuration excludes."""
    if not decided.excludes:
        return False
    from vllm_lint.excludes import is_excluded

    return is_excluded(path, decided.excludes)


def selector(settings, path: str) -> Callable[[str], bool]:
    """Whether a code is reported in ``path``: selected, and not ignored for the file."""
    ignored = settings.ignored_for(path)

    def selected(code: str) -> bool:
        return settings.enabled(code) and not any(code.startswith(prefix) for prefix in ignored)

    return selected


def reported(findings, settings, path: str) -> list:
    """The findings of ``path`` the settings report (unused-noqa findings are added by ``select_findings``)."""
    selected = selector(settings, path)
    return [finding for finding in findings if selected(finding.code) and not settings.declares(finding)]


def select_findings(results, settings) -> None:
    """Keep the findings of the selected rules; add unused-noqa findings when that rule is selected."""
    for result in results:
        if not result.findings and result.noqa is None:
            continue
        selected = selector(settings, result.path)
        result.findings = [f for f in result.findings if selected(f.code) and not settings.declares(f)]
        if result.noqa is not None:
            from vllm_lint.rules import RULES_BY_CODE, unused_noqa

            if selected(unused_noqa.CODE):
                result.findings.extend(unused_noqa.check(result, selected, RULES_BY_CODE))
                result.findings.sort(key=lambda f: (f.span.line, f.span.col, f.code))


def read_skipped_directives(results, settings) -> None:
    """With the unused-noqa rule on, files skipped unanalysed are read for noqa comments too
    (a comment left after the setting it silenced was removed); off, they cost nothing."""
    from vllm_lint.lint import read_directives
    from vllm_lint.rules import unused_noqa

    if not settings.enabled(unused_noqa.CODE):
        return
    for result in results:
        if not result.findings and result.noqa is None:
            read_directives(result)
