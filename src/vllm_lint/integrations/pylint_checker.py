"""The pylint plugin: ``pylint --load-plugins=vllm_lint.pylint``.

pylint hands the checker an astroid module; the checker reads the module's
source and runs the same analysis as the flake8 plugin and the CLI on Python's
``ast``.  Nothing is inferred through astroid, so no installed package (vLLM,
torch) is ever imported or analysed.  Messages use the rules' names as symbols
(``replay-logprobs-mode``) and stable ids in one checker range, E71xx (pylint
wants one range per checker): E71 followed by ``(a - 1) * 20 + bc`` for VLMabc, so VLM105 is E7105, VLM201 is
E7121 and VLM302 is E7142.

A finding is silenced by pylint's own ``# pylint: disable=replay-logprobs-mode``
(or ``disable=E7105``), and by the ``# noqa: VLM105`` comments the CLI and the
flake8 plugin honour, so one comment serves every front end.  Columns are
0-based characters, as pylint documents them (``ast`` counts UTF-8 bytes).

Its settings are the CLI's: ``[tool.vllm-lint]`` in the pyproject.toml found from
the working directory upwards (where pylint finds its own configuration), with
``--vllm-target-version`` over ``target-version``.
"""

from __future__ import annotations

import sys

from pylint.checkers import BaseChecker

from vllm_lint.rules import ALL_RULES

# Rules about a linted file rather than an engine (unused noqa comments): pylint has
# its own for its disable comments (useless-suppression).
PYLINT_RULES = tuple(rule for rule in ALL_RULES if rule.scope != "file")


def message_id(code: str) -> str:
    """VLM105 -> E7105, VLM201 -> E7121, VLM302 -> E7142: a fixed id per rule."""
    category, number = int(code[3]), int(code[4:])
    return f"E71{(category - 1) * 20 + number:02d}"


class VllmLintChecker(BaseChecker):
    name = "vllm-lint"
    msgs = {
        message_id(rule.code): (
            f"{rule.code} %s",
            rule.name,
            rule.summary + f" (vLLM {rule.versions}; see `vllm-lint rule {rule.code}`).",
        )
        for rule in PYLINT_RULES
    }
    options = (
        (
            "vllm-target-version",
            {
                "default": None,
                "type": "string",
                "metavar": "<X.Y>",
                "help": "vLLM release to check against (default: target-version in [tool.vllm-lint], else the "
                "project's pinned vllm, else the installed vllm, else the newest release vllm-lint knows).",
            },
        ),
    )

    def open(self) -> None:
        from vllm_lint.config import ConfigError
        from vllm_lint.settings import plugin_settings

        try:
            self._decided = plugin_settings(self.linter.config.vllm_target_version, "--vllm-target-version")
        except ConfigError as error:
            # A usage error, as pylint reports its own: one line, exit 2, no traceback.
            sys.stderr.write(f"pylint: error: vllm-lint: {error}\n")
            raise SystemExit(2) from None
        self._settings, _, self._resolver = self._decided

    def visit_module(self, node) -> None:
        from vllm_lint.columns import char_column, source_lines
        from vllm_lint.lint import lint_python_bytes

        path = node.file or "-"
        from vllm_lint.settings import excluded, reported

        if excluded(self._decided, path):
            return
        try:
            with node.stream() as stream:
                data = stream.read()
        except (OSError, AttributeError):
            return
        # pylint reports syntax errors itself; its disable comments apply on top of noqa ones.
        # It has parsed the module already, so vllm-lint's own size limit does not apply.
        result = lint_python_bytes(path, data, self._resolver.for_path, size_limit=False)
        lines = source_lines(result.source) if result.findings and result.source is not None else []

        def column(line: int | None, byte_col: int | None) -> int | None:
            if line is None or byte_col is None or not 0 < line <= len(lines):
                return byte_col
            return char_column(lines[line - 1], byte_col)

        for finding in reported(result.findings, self._settings, path):
            span = finding.span
            self.add_message(
                message_id(finding.code),
                node=node,  # positions below are the finding's own, not the module's
                line=span.line,
                col_offset=column(span.line, span.col),
                end_lineno=span.end_line,
                end_col_offset=column(span.end_line, span.end_col),
                args=(finding.message,),
            )


def register(linter) -> None:
    linter.register_checker(VllmLintChecker(linter))
