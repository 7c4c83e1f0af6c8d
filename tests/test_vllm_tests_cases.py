"""vLLM's own tests as argument sets (tests/oracle/vllm_test_cases.json), replayed on the verdicts the
real engine gave them (recorded by ``tox -e vllm-tests-oracle -- --record``): no finding on a set vLLM
accepts, and at least 90 % of the rejections decidable from the arguments flagged."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "oracle"))

import vllm_tests_oracle  # noqa: E402

CASES = vllm_tests_oracle.load_cases()["cases"]
RELEASES = sorted({release for case in CASES for release in case.get("verdicts", {})})


def test_every_case_names_its_source():
    for case in CASES:
        source = case["source"]
        assert source["file"].startswith("tests/") and source["test"] and len(source["commit"]) == 40, case["id"]
        assert case["form"] in ("cli", "python"), case["id"]
        assert case["verdicts"], f"case {case['id']} was never judged"


@pytest.mark.parametrize("release", RELEASES)
def test_vllm_tests_agree(release):
    false_positives, flagged, missed = [], 0, []
    for case in CASES:
        verdict = case["verdicts"].get(release)
        if verdict is None:
            continue
        findings = vllm_tests_oracle.lint_case(case, release)
        if verdict["verdict"] == "accepted":
            if findings:
                false_positives.append((case["id"], [f"{f.code} {f.message}" for f in findings]))
        elif verdict["decidable"]:
            if findings:
                flagged += 1
            else:
                missed.append((case["id"], verdict["message"]))
    assert not false_positives, false_positives
    decidable = flagged + len(missed)
    assert decidable and flagged / decidable >= 0.9, missed
