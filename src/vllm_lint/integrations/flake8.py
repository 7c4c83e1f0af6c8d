"""The flake8 plugin: ``flake8 --select VLM``.

It reads flake8's own ``tree`` and ``lines`` (so stdin and unsaved editor
buffers work) and never re-reads the file.  Its settings are the CLI's:
``[tool.vllm-lint]`` in the pyproject.toml found from the working directory
upwards (where flake8 finds its own configuration), with
``--vllm-target-version`` (or ``vllm-target-version`` in flake8's
configuration) over ``target-version``.  flake8 applies ``# noqa`` to the
reported line; the plugin also honours it on any other line of the statement
(a multi-line engine call), unless ``--disable-noqa``.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import replace
from typing import Iterator

from vllm_lint import __version__


class VllmLintPlugin:
    name = "vllm-lint"
    version = __version__

    decided = None  # settings.Decided: [tool.vllm-lint], with --vllm-target-version over it
    settings = None
    target_version = None
    disable_noqa = False
    _resolver = None

    def __init__(self, tree: ast.AST, lines: list[str], filename: str = "stdin") -> None:
        self.tree = tree
        self.lines = lines
        self.filename = filename

    @classmethod
    def add_options(cls, option_manager) -> None:
        option_manager.add_option(
            "--vllm-target-version",
            default=None,
            parse_from_config=True,
            metavar="X.Y",
            help="vLLM release to check against (default: target-version in [tool.vllm-lint], else the "
            "project's pinned vllm, else the installed vllm, else the newest release vllm-lint knows)",
        )

    @classmethod
    def parse_options(cls, options) -> None:
        from vllm_lint.config import ConfigError
        from vllm_lint.settings import plugin_settings

        try:
            decided = plugin_settings(getattr(options, "vllm_target_version", None), "vllm-target-version")
        except ConfigError as error:
            # A usage error, as flake8 reports its own: one line, exit 2, no traceback.
            sys.stderr.write(f"flake8: error: vllm-lint: {error}\n")
            raise SystemExit(2) from None
        cls.decided = decided
        cls.settings = decided.settings
        cls.target_version = decided.settings.target_version
        cls.disable_noqa = bool(getattr(options, "disable_noqa", False))
        cls._resolver = None

    @classmethod
    def _version_for(cls, filename: str):
        if cls._resolver is None:
            from vllm_lint.config import Settings
            from vllm_lint.settings import resolver_for

            # The target release on the class wins: it may be set after parse_options.
            base = cls.settings if cls.settings is not None else Settings(target_version_source="--vllm-target-version")
            cls._resolver = resolver_for(replace(base, target_version=cls.target_version))
        return cls._resolver.for_path(filename)

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        from vllm_lint.python import needs_analysis

        # The prefilter of every entry point (check, pylint, the server): a file that builds an
        # engine through a helper of another module mentions neither vLLM nor LLM(.
        source = "".join(self.lines)
        if not needs_analysis(source.encode("utf-8", "surrogatepass"), self.filename):
            return
        if self.decided is not None:
            from vllm_lint.settings import excluded

            if excluded(self.decided, self.filename):
                return
        from vllm_lint.python import analyze_tree, could_find

        if not could_find(self.tree, self.filename, source):
            return  # nothing in the module reaches an engine, a request or a launch
        try:
            from vllm_lint.facts import reading

            target = self._version_for(self.filename)
            with reading(target):
                findings = analyze_tree(self.tree, target[0], self.filename, target[1])
        except (RecursionError, MemoryError):
            return
        from vllm_lint.checker import describe_release

        describe_release(findings, target[0], getattr(target, "origin", ""), self.filename, say=not getattr(target, "explicit", False))
        if self.settings is not None:
            from vllm_lint.settings import reported

            findings = reported(findings, self.settings, self.filename)
        if findings and not self.disable_noqa:
            from vllm_lint.lint import apply_python_noqa

            findings = apply_python_noqa(findings, "".join(self.lines))
        for finding in findings:
            yield finding.span.line, finding.span.col, finding.text, type(self)
