"""The flake8 plugin: ``flake8 --select VLM``.

It reads flake8's own ``tree`` and ``lines`` (so stdin and unsaved editor
buffers work) and never re-reads the file.  flake8 applies ``# noqa`` to the
reported line; the plugin also honours it on any other line of the statement
(a multi-line engine call), unless ``--disable-noqa``.
"""

from __future__ import annotations

import ast
from typing import Iterator

from vllm_lint import __version__


class VllmLintPlugin:
    name = "vllm-lint"
    version = __version__

    target_version = None  # from --vllm-target-version
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
            help="vLLM release to check against (default: the project's pinned vllm, "
            "else the installed vllm, else the newest release vllm-lint knows)",
        )

    @classmethod
    def parse_options(cls, options) -> None:
        from vllm_lint.versions import Version

        value = getattr(options, "vllm_target_version", None)
        cls.target_version = Version.parse(value) if value else None
        cls.disable_noqa = bool(getattr(options, "disable_noqa", False))
        cls._resolver = None

    @classmethod
    def _version_for(cls, filename: str):
        if cls._resolver is None:
            from vllm_lint.config import VersionResolver

            cls._resolver = VersionResolver(cls.target_version, "--vllm-target-version")
        return cls._resolver.for_path(filename)[0]

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        from vllm_lint.python import may_have_findings, needs_analysis

        source = "".join(self.lines)
        if not may_have_findings(source):
            # A project module that holds the settings, or a process started with a replay flag.
            maybe = "vllm" in source or "subprocess" in source or "os.exec" in source
            if not maybe or not needs_analysis(source.encode("utf-8", "replace"), self.filename):
                return
        from vllm_lint.python import analyze_tree

        try:
            findings = analyze_tree(self.tree, self._version_for(self.filename), self.filename)
        except (RecursionError, MemoryError):
            return
        if findings and not self.disable_noqa:
            from vllm_lint.lint import apply_python_noqa

            findings = apply_python_noqa(findings, "".join(self.lines))
        for finding in findings:
            yield finding.span.line, finding.span.col, finding.text, type(self)
