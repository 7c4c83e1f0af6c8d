"""Each rule documents itself in ruff's sections, and its examples are tested."""

from __future__ import annotations

import pytest

from fixtures import target_version
from vllm_lint.lint import lint_python_bytes
from vllm_lint.rules import ALL_RULES, RULES_BY_CODE, lookup, unused_noqa
from vllm_lint.versions import NEWEST_VERSION, Version

SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "Versions")


def _codes(source: str) -> set[str]:
    """The codes reported on a source as ``check`` reports them, every rule selected (VLM901 too)."""
    pinned = target_version(source)
    version = Version.parse(pinned) if pinned else NEWEST_VERSION
    result = lint_python_bytes("example.py", source.encode(), lambda path: (version, ""))
    assert result.error is None, result.error
    return {f.code for f in result.findings} | {f.code for f in unused_noqa.check(result, lambda code: True, RULES_BY_CODE)}


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda rule: rule.code)
def test_rule_has_every_section(rule):
    for title in SECTIONS:
        assert rule.section(title), f"{rule.code} lacks a '{title}' section"
    assert rule.name == rule.name.lower() and " " not in rule.name


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda rule: rule.code)
def test_example_is_reported(rule):
    blocks = rule.code_blocks("Example")
    assert blocks, f"{rule.code} has no example"
    for block in blocks:
        assert rule.code in _codes(block), f"{rule.code} example not reported:\n{block}"


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda rule: rule.code)
def test_use_instead_is_clean(rule):
    blocks = rule.code_blocks("Use instead")
    assert blocks, f"{rule.code} has no 'Use instead'"
    for block in blocks:
        assert _codes(block) == set(), f"{rule.code} 'Use instead' is reported:\n{block}"


def test_codes_are_unique_and_named():
    assert len(RULES_BY_CODE) == len(ALL_RULES)
    assert lookup("vlm105") is RULES_BY_CODE["VLM105"]
    assert lookup("replay-logprobs-mode") is RULES_BY_CODE["VLM105"]
    assert lookup("VLM999") is None


def test_docs_list_every_rule():
    from fixtures import TESTDATA

    checked = (TESTDATA.parent / "docs" / "what-is-checked.md").read_text(encoding="utf-8")
    for rule in ALL_RULES:
        assert f"| {rule.code} | {rule.name} |" in checked


def test_docs_rules_md_is_generated_from_the_rules():
    from fixtures import TESTDATA
    from vllm_lint.cli import rules_markdown

    committed = (TESTDATA.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == rules_markdown(), "regenerate with: vllm-lint rule --all --markdown > docs/rules.md"


def test_usage_documents_every_option_limit_and_front_end():
    """Every option of ``vllm-lint check``, the size limits and the pylint plugin are in docs/usage.md."""
    import argparse
    import re

    from fixtures import TESTDATA
    from vllm_lint.cli import build_parser
    from vllm_lint.sources import MAX_ANALYSED_BYTES, MAX_FILE_BYTES

    readme = (TESTDATA.parent / "docs" / "usage.md").read_text(encoding="utf-8")
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for command in ("check", "rule"):
        for action in commands.choices[command]._actions:
            if action.help == argparse.SUPPRESS or not action.option_strings or "--help" in action.option_strings:
                continue
            assert any(re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", readme) for option in action.option_strings), (
                action.option_strings
            )
    assert f"{MAX_FILE_BYTES // 2**20} MiB" in readme and f"{MAX_ANALYSED_BYTES // 2**20} MiB" in readme
    assert "--load-plugins=vllm_lint.pylint" in readme and "# pylint: disable=replay-logprobs-mode" in readme
