"""Every fixture's findings are exactly the ones its ``# expect:`` comments name."""

from __future__ import annotations

import pytest

from fixtures import TESTDATA, expectations, fixture_files, target_version
from vllm_lint.lint import lint_file
from vllm_lint.rules import RULES_BY_CODE, unused_noqa
from vllm_lint.versions import NEWEST_VERSION, Version

FIXTURES = fixture_files("python", "commandline", "frameworks")


def lint_fixture(path):
    """Every rule selected, the unused-noqa rule too."""
    text = path.read_text(encoding="utf-8", errors="replace")
    pinned = target_version(text)
    version = Version.parse(pinned) if pinned else NEWEST_VERSION
    result = lint_file(str(path), lambda _path: (version, "fixture"))
    result.findings += unused_noqa.check(result, lambda code: True, RULES_BY_CODE)
    return text, result


@pytest.mark.parametrize("path", FIXTURES, ids=[str(p.relative_to(TESTDATA)) for p in FIXTURES])
def test_fixture(path):
    text, result = lint_fixture(path)
    assert result.error is None, result.error
    expected, columns = expectations(text)
    found = {(f.span.line, f.code) for f in result.findings}
    messages = "\n".join(f"{f.span.line}:{f.span.col + 1}: {f.text}" for f in result.findings)
    assert found == expected, f"findings differ:\n{messages}"
    for finding in result.findings:
        expected_columns = columns.get((finding.span.line, finding.code))
        if expected_columns:
            assert finding.span.col + 1 in expected_columns, (
                f"{finding.code} at {finding.span.line}:{finding.span.col + 1}, expected column {sorted(expected_columns)}"
            )


def test_every_rule_has_failing_and_clean_fixtures():
    from vllm_lint.rules import ALL_RULES

    codes = set()
    for path in FIXTURES:
        expected, _ = expectations(path.read_text(encoding="utf-8", errors="replace"))
        codes |= {code for _, code in expected}
    missing = {rule.code for rule in ALL_RULES} - codes
    assert not missing, f"rules without a failing fixture: {sorted(missing)}"
