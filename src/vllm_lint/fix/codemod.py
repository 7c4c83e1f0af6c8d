"""The fixes as a libcst codemod, for libcst's own runner::

    python -m libcst.tool codemod -x vllm_lint.fix.codemod.FixReplayConfig --no-format src/
    python -m libcst.tool codemod -x vllm_lint.fix.codemod.FixReplayConfig --no-format --unsafe-fixes src/

``-x`` tells the runner that the command is a dotted path (no
``.libcst.codemod.yaml`` needed); ``--no-format`` keeps the runner from
piping the result through black.  The fixes and their passes are the ones
``vllm-lint check --fix`` applies; the settings (``select``, ``ignore``,
``per-file-ignores``, ``target-version``) come from the ``pyproject.toml``
nearest to each file, unless ``--target-version`` is given.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import libcst as cst
from libcst.codemod import CodemodCommand, CodemodContext, SkipFile

from vllm_lint.fix.plan import DISABLE_REPLAY, KEEP_REPLAY
from vllm_lint.versions import Version


class FixReplayConfig(CodemodCommand):
    DESCRIPTION: str = (
        "Fix vLLM sampling distribution replay configurations (the fixes of vllm-lint check --fix)."
    )

    def __init__(
        self,
        context: CodemodContext,
        unsafe_fixes: bool = False,
        fix_mode: str = KEEP_REPLAY,
        target_version: str | Version | None = None,
    ) -> None:
        super().__init__(context)
        if fix_mode not in (KEEP_REPLAY, DISABLE_REPLAY):
            raise ValueError(f"fix_mode must be {KEEP_REPLAY!r} or {DISABLE_REPLAY!r}, not {fix_mode!r}")
        self.unsafe_fixes = unsafe_fixes
        self.fix_mode = fix_mode
        # A string (from Python), or a Version already (libcst's runner, through add_args).
        self.target_version = _version(target_version) if isinstance(target_version, str) else target_version

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument(
            "--unsafe-fixes", action="store_true", default=False, help="also apply unsafe fixes (vllm-lint's switch)"
        )
        arg_parser.add_argument(
            "--fix-mode",
            choices=(KEEP_REPLAY, DISABLE_REPLAY),
            default=KEEP_REPLAY,
            help="keep-replay (default) removes what is incompatible with replay; "
            "disable-replay removes return_sampling_mask instead (unsafe)",
        )
        arg_parser.add_argument(
            "--target-version",
            default=None,
            type=_target_version_argument,
            metavar="X.Y",
            help="vLLM release to fix for (default: from the settings)",
        )

    def _settings(self):
        from vllm_lint.config import ConfigError, VersionResolver, load_settings

        filename = self.context.filename
        try:
            settings = load_settings(Path(filename) if filename else Path("."))
        except ConfigError as error:
            # Fixing with settings other than the project's could undo what it chose: skip, and say why.
            raise SkipFile(f"vllm-lint: {error}") from None
        if self.target_version:
            settings.target_version = self.target_version
            settings.target_version_source = "--target-version"
        resolver = VersionResolver(settings.target_version, settings.target_version_source, settings.assume_pass_through, settings.server_images)
        version, _ = resolver.for_path(filename)
        return settings, version

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        from vllm_lint.fix.apply import keeper
        from vllm_lint.fix.python import fix_source

        source = tree.code
        if "vllm" not in source:
            raise SkipFile("no vLLM configuration")
        settings, version = self._settings()
        path = self.context.filename or "-"
        try:
            outcome = fix_source(
                source, path, version, unsafe=self.unsafe_fixes, mode=self.fix_mode, keep=keeper(settings, path)
            )
        except SyntaxError as error:
            raise SkipFile(f"cannot analyse: {error.msg}") from error
        if outcome.error is not None:
            self.warn(outcome.error)
            return tree
        for finding in outcome.remaining:
            self.warn(f"line {finding.span.line}: {finding.code} not fixed")
        if not outcome.changed:
            return tree
        return cst.parse_module(outcome.source, config=tree.config_for_parsing)


def _version(text: str) -> Version:
    """``text`` as a vLLM release the rules know (a newer one: the newest rules); ``ValueError``
    (a ``VersionError``) when it is not one."""
    from vllm_lint.versions import target_version

    return target_version(text)[0]


def _target_version_argument(text: str) -> Version:
    """``--target-version`` for libcst's argument parser: a usage error, not a traceback."""
    from vllm_lint.versions import VersionError

    try:
        return _version(text)
    except VersionError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
