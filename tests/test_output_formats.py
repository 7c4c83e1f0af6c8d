"""``--output-format``: each format checked against what its consumers expect.

* ``sarif``: the SARIF 2.1.0 structure (required properties, types, rule
  indices, regions inside the file), rules with help text;
* ``github``: workflow commands ``::error file=...,line=...::message`` with
  GitHub's escaping;
* ``concise``: one ``path:line:col: CODE message`` line per finding;
* ``full``: the source around each finding with a caret under it.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from vllm_lint import cli
from vllm_lint.rules import ALL_RULES

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"
SAMPLE = TESTDATA / "fixes" / "unsafe" / "logits_processors.py"
NON_ASCII = TESTDATA / "fixes" / "safe" / "bom_utf8.py"


def run(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.run_check(cli.build_parser().parse_args(["check", *argv]), out, err)
    return code, out.getvalue()


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    """A folder with findings, a file that does not parse, and awkward file names."""
    shutil.copyfile(SAMPLE, tmp_path / "engines.py")
    shutil.copyfile(NON_ASCII, tmp_path / "résumé, v2.py")
    (tmp_path / "broken.py").write_text("from vllm import LLM\nLLM(return_sampling_mask=True\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _is_int(value, minimum=1) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


def test_sarif_is_a_valid_sarif_2_1_0_log(workspace):
    code, out = run("--output-format", "sarif", ".")
    assert code == 1
    log = json.loads(out)
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-2.1.0.json")
    assert isinstance(log["runs"], list) and len(log["runs"]) == 1
    run_ = log["runs"][0]
    assert run_["columnKind"] in ("utf16CodeUnits", "unicodeCodePoints")
    driver = run_["tool"]["driver"]
    assert driver["name"] == "vllm-lint" and isinstance(driver["version"], str)
    rules = driver["rules"]
    assert [rule["id"] for rule in rules] == [rule.code for rule in ALL_RULES]
    for rule in rules:
        assert rule["shortDescription"]["text"]
        assert rule["fullDescription"]["text"]
        assert rule["help"]["text"] and rule["help"]["markdown"]
        assert rule["helpUri"].startswith("https://")
        assert all(isinstance(v, str) for v in rule.get("properties", {}).values())
    results = run_["results"]
    assert len(results) == 8
    lines = {
        "engines.py": (workspace / "engines.py").read_text().splitlines(),
        "r%C3%A9sum%C3%A9%2C%20v2.py": (workspace / "résumé, v2.py").read_text("utf-8-sig").splitlines(),
    }
    for result in results:
        assert result["level"] in ("none", "note", "warning", "error")
        assert result["message"]["text"].startswith(result["ruleId"])
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        uri = physical["artifactLocation"]["uri"]
        assert uri in lines, uri  # relative, percent-encoded URI references
        region = physical["region"]
        for key in ("startLine", "startColumn", "endLine", "endColumn"):
            assert _is_int(region[key]), (key, region)
        assert (region["endLine"], region["endColumn"]) >= (region["startLine"], region["startColumn"])
        file_lines = lines[uri]
        assert region["endLine"] <= len(file_lines)
        assert region["startColumn"] <= len(file_lines[region["startLine"] - 1]) + 1
        assert region["endColumn"] <= len(file_lines[region["endLine"] - 1]) + 1
    # Columns count characters: the region of the finding on the non-ASCII line is its keyword.
    (accented,) = [r for r in results if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith("r%C3")]
    region = accented["locations"][0]["physicalLocation"]["region"]
    line = lines[accented["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]][region["startLine"] - 1]
    assert line[region["startColumn"] - 1 : region["endColumn"] - 1] == 'logprobs_mode="raw_logprobs"'
    # The file that does not parse is a notification of a successful invocation.
    (invocation,) = run_["invocations"]
    assert invocation["executionSuccessful"] is True
    (notification,) = invocation["toolExecutionNotifications"]
    assert notification["level"] == "error" and notification["message"]["text"].startswith("cannot parse")
    assert notification["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "broken.py"


def test_sarif_without_findings(tmp_path):
    clean = tmp_path / "clean.py"
    clean.write_text("from vllm import LLM\nllm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n")
    code, out = run("--output-format", "sarif", str(clean))
    assert code == 0
    log = json.loads(out)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"]


GITHUB = re.compile(
    r"^::error title=(?P<title>[^,:]*(?:\([A-Z0-9]+\))?),file=(?P<file>[^,:]+),line=(?P<line>\d+),col=(?P<col>\d+)"
    r"(?:,endLine=(?P<end_line>\d+),endColumn=(?P<end_col>\d+))?::(?P<message>.*)$"
)


def test_github_workflow_commands(workspace):
    code, out = run("--output-format", "github", ".")
    assert code == 1
    commands = out.splitlines()
    assert len(commands) == 9  # 8 findings and the file that does not parse
    files = set()
    for command in commands:
        match = GITHUB.match(command)
        assert match, command
        files.add(match["file"])
        assert "\r" not in command
        if match["end_line"]:
            assert int(match["end_line"]) >= int(match["line"])
        assert re.search(r"VLM\d{3}|cannot parse", match["message"])
    # Property values escape ',' and ':' (and '%'), so the file name survives.
    assert files == {"engines.py", "résumé%2C v2.py", "broken.py"}


def test_github_escapes_newlines_and_percent():
    from vllm_lint.output import _github_escape, _github_property

    assert _github_escape("50%\nnext\r") == "50%25%0Anext%0D"
    assert _github_property("a,b:c") == "a%2Cb%3Ac"


def test_concise_is_one_line_per_finding(workspace):
    code, out = run("--output-format", "concise", "engines.py")
    lines = out.splitlines()
    assert lines[-2:] == [
        "Found 7 errors.",
        "No fixes available (7 hidden fixes can be enabled with the `--unsafe-fixes` option).",
    ]
    for line in lines[:-2]:
        assert re.match(r"^engines\.py:\d+:\d+: VLM104 return_sampling_mask=True cannot be combined", line), line
    assert len(lines) == 9


def test_full_shows_the_source_with_a_caret(workspace):
    code, out = run("--output-format", "full", "engines.py", "résumé, v2.py")
    blocks = out.split("\n\n")
    first = blocks[0].splitlines()
    assert first[0].startswith("engines.py:11:5: VLM104 ")
    assert first[1:5] == [
        "  10 |     # custom processors for the policy",
        '  11 |     logits_processors=["my_pkg.processors:NoRepeat"],  # no repeats',
        "     |     " + "^" * len('logits_processors=["my_pkg.processors:NoRepeat"]') + " VLM104",
        "  12 |     # the mode replay needs",
    ]
    assert first[5:] == [
        '  = note: vLLM refuses to start: "sampling distribution replay does not support custom logits processors"',
        "  = help: Remove `logits_processors` (unsafe fix)",
    ]
    # On a line with accented letters the caret still sits under the keyword.
    accented = next(block for block in blocks if block.startswith("résumé, v2.py:4:"))
    source_line, caret_line = accented.splitlines()[2:4]
    start = caret_line.index("^")
    width = caret_line.count("^")
    assert source_line[start : start + width] == 'logprobs_mode="raw_logprobs"'
    assert out.endswith("Found 8 errors.\n[*] 1 fixable with the `--fix` option (7 hidden fixes can be enabled with the `--unsafe-fixes` option).\n")


# ------------------------------------------------------------------ messages, text, concise and full


LOGPROBS_ERROR = (
    "sampling distribution replay requires logprobs_mode='processed_logprobs' so that returned logprobs "
    "are normalized over the same nucleus as the sampling mask"
)


def test_messages_are_short_and_whole(workspace):
    """A finding says what is wrong and what to write; vLLM's error text is not cut into it."""
    for path in sorted(TESTDATA.glob("examples/*")) + sorted(TESTDATA.glob("python/*.py")):
        _, out = run("--output-format", "concise", "--exit-zero", str(path))
        for line in out.splitlines():
            if re.match(r"^\S.*:\d+:\d+: VLM\d{3} ", line):
                message = line.split(": ", 1)[1]
                # Without a pin, the release that stood in is named at the end: not part of what is wrong.
                message = re.sub(r" \(checked against vLLM [\d.]+, the newest known: no pin found; set target-version\)$", "", message)
                # Nor where the pinned release is written.
                message = re.sub(r" \(vLLM [\d., -]+ from [^()]*\)$", "", message)
                assert len(message) <= 200, line
                assert " ..." not in message and "refuses to start" not in message, line


def test_text_shows_the_source_and_full_adds_vllms_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text('from vllm import LLM\nllm = LLM("m", return_sampling_mask=True)\n')
    _, concise = run("--output-format", "concise", "train.py")
    _, text = run("train.py")
    _, full = run("--output-format", "full", "train.py")
    header = 'train.py:2:7: VLM105 [*] return_sampling_mask=True needs logprobs_mode="processed_logprobs" (vLLM\'s default is "raw_logprobs")'
    summary = "Found 1 error.\n[*] 1 fixable with the `--fix` option.\n"
    assert concise == f"{header}\n{summary}"
    snippet = [
        "  1 | from vllm import LLM",
        '  2 | llm = LLM("m", return_sampling_mask=True)',
        "    |       " + "^" * len('LLM("m", return_sampling_mask=True)') + " VLM105",
    ]
    help_line = '  = help: Add `logprobs_mode="processed_logprobs"` (safe fix)'
    assert text == "\n".join([header, *snippet, help_line]) + "\n\n" + summary
    note = f'  = note: vLLM refuses to start: "{LOGPROBS_ERROR}"'
    assert full == "\n".join([header, *snippet, note, help_line]) + "\n\n" + summary


def test_caret_is_aligned_under_wide_characters_and_tabs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text(
        'from vllm import LLM\nif True:\n\tname = "模型"; llm = LLM("m", return_sampling_mask=True)\n', encoding="utf-8"
    )
    _, out = run("train.py")
    source_line, caret_line = out.splitlines()[2:4]
    prefix = "  3 | "
    assert source_line == prefix + '    name = "模型"; llm = LLM("m", return_sampling_mask=True)'
    # Each of the two wide characters takes two cells: the caret starts two cells further right.
    pad = caret_line.index("^") - len(prefix)
    assert pad == len('    name = "模型"; llm = ') + 2
    assert caret_line.count("^") == len('LLM("m", return_sampling_mask=True)')


def test_rule_documentation_quotes_vllms_error_verbatim():
    """A search for vLLM's runtime error finds the rule: in ``vllm-lint rule`` and docs/rules.md, on one line."""
    import io

    from vllm_lint.rules import RULES_BY_CODE

    rules_md = (TESTDATA.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule in ALL_RULES:
        if rule.code.startswith("VLM9"):
            continue  # about the linter's own comments, not a vLLM error
        assert rule.vllm_errors, rule.code
        out = io.StringIO()
        cli.run_rule(cli.build_parser().parse_args(["rule", rule.code]), out)
        for error in rule.vllm_errors:
            assert error in out.getvalue().splitlines(), (rule.code, error)
            assert error in rules_md.splitlines(), (rule.code, error)
    assert LOGPROBS_ERROR in RULES_BY_CODE["VLM105"].vllm_errors


# ------------------------------------------------------------------ colour


def test_colour_only_on_a_terminal_or_when_forced(tmp_path, monkeypatch):
    from vllm_lint.style import colour_enabled

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    assert colour_enabled(Terminal(), {}) is True
    assert colour_enabled(io.StringIO(), {}) is False
    assert colour_enabled(io.StringIO(), {"FORCE_COLOR": "1"}) is True
    assert colour_enabled(Terminal(), {"NO_COLOR": "1"}) is False
    assert colour_enabled(Terminal(), {"NO_COLOR": "1", "FORCE_COLOR": "1"}) is False  # as ruff
    assert colour_enabled(Terminal(), {"TERM": "dumb"}) is False

    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text('from vllm import LLM\nllm = LLM("m", return_sampling_mask=True)\n')
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    _, coloured = run("train.py")
    assert "\x1b[1;31mVLM105\x1b[0m" in coloured
    _, as_json = run("--output-format", "json", "train.py")
    assert "\x1b" not in as_json  # machine-readable output is never coloured
    monkeypatch.setenv("NO_COLOR", "1")
    _, plain = run("train.py")
    assert "\x1b" not in plain
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain  # the same text, coloured


def test_json_lines_is_one_json_record_a_line(workspace):
    code, out = run("--output-format", "json-lines", ".")
    assert code == 1
    records = [json.loads(line) for line in out.splitlines()]
    assert records == json.loads(run("--output-format", "json", ".")[1])
    assert any(record["code"] is None and "syntax error" in record["message"] for record in records)
    assert all(record["fix"] for record in records if record["code"] == "VLM104")  # the fixes, as in json


def test_gitlab_code_quality_report(workspace, monkeypatch):
    monkeypatch.setenv("CI_PROJECT_DIR", str(workspace))
    code, out = run("--output-format", "gitlab", str(workspace))
    assert code == 1
    issues = json.loads(out)
    assert len(issues) == 9  # 8 findings, and the file that does not parse
    for issue in issues:
        assert set(issue) >= {"check_name", "description", "fingerprint", "severity", "location"}
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert not os.path.isabs(issue["location"]["path"])  # relative to the project
        assert (workspace / issue["location"]["path"]).exists()
        where = issue["location"].get("positions", {}).get("begin") or {"line": issue["location"]["lines"]["begin"]}
        assert _is_int(where["line"])
    fingerprints = [issue["fingerprint"] for issue in issues]
    assert len(set(fingerprints)) == len(fingerprints)
    # A finding keeps its fingerprint when lines above it move.
    engines = workspace / "engines.py"
    engines.write_text("# a new first line\n" + engines.read_text())
    moved = json.loads(run("--output-format", "gitlab", str(workspace))[1])
    assert {issue["fingerprint"] for issue in moved} == set(fingerprints)


def test_junit_report(workspace):
    from xml.etree import ElementTree

    code, out = run("--output-format", "junit", ".")
    assert code == 1
    suites = ElementTree.fromstring(out.split("\n", 1)[1])
    assert suites.tag == "testsuites" and suites.get("tests") == "9"
    assert suites.get("failures") == "8" and suites.get("errors") == "1"
    cases = suites.findall("testsuite/testcase")
    assert len(cases) == 9
    failure = next(case for case in cases if case.find("failure") is not None)
    assert failure.get("name").startswith("vllm-lint.VLM") and failure.get("line").isdigit()
    assert failure.find("failure").get("message")
    assert any(case.find("error") is not None for case in cases)
    # Nothing found: one passing test case.
    clean = ElementTree.fromstring(run("--output-format", "junit", "--select", "VLM201", "engines.py")[1].split("\n", 1)[1])
    assert clean.get("tests") == "1" and clean.get("failures") == "0"


def test_pylint_parseable_lines(workspace):
    code, out = run("--output-format", "pylint", ".")
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 9
    for line in lines:
        assert re.match(r"^.+:\d+: \[(VLM\d{3}|cannot-parse)\] \S", line), line


def test_output_file(workspace):
    code, out = run("--output-format", "concise", "-o", "reports/vllm-lint.txt", ".")
    assert code == 1 and out == ""
    report = (workspace / "reports" / "vllm-lint.txt").read_text()
    assert "engines.py:" in report and "Found 8 errors." in report
