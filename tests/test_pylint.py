"""The pylint plugin, through real pylint: the same findings as the CLI on every Python fixture."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

import pytest

from fixtures import expectations, fixture_files, target_version

pytest.importorskip("pylint")

from vllm_lint.integrations.pylint_checker import VllmLintChecker, message_id  # noqa: E402
from vllm_lint.rules import ALL_RULES  # noqa: E402

TEMPLATE = "{path}|{line}|{column}|{msg_id}|{symbol}|{msg}"
LINE_RE = re.compile(r"^(?P<path>[^|]+)\|(?P<line>\d+)\|(?P<column>\d+)\|(?P<id>E71\d\d)\|(?P<symbol>[\w-]+)\|(?P<msg>.*)$")


def pylint(*args, cwd=None):
    # From a folder without a [tool.vllm-lint] (the project's own excludes its test data).
    cwd = cwd or tempfile.gettempdir()
    completed = subprocess.run(
        [sys.executable, "-m", "pylint", "--load-plugins=vllm_lint.pylint", "--disable=all", "--enable=vllm-lint",
         f"--msg-template={TEMPLATE}", "--persistent=n", "--score=n", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )
    assert "Traceback" not in completed.stderr, completed.stderr
    found = {}
    for line in completed.stdout.splitlines():
        match = LINE_RE.match(line)
        if match:
            found.setdefault(os.path.abspath(os.path.join(cwd, match["path"])), set()).add((int(match["line"]), match["msg"].split()[0], match["symbol"]))
    return completed.returncode, found


def test_message_ids_are_stable_and_named_after_rules():
    assert message_id("VLM105") == "E7105"
    assert message_id("VLM201") == "E7121"
    assert message_id("VLM302") == "E7142"
    engine_rules = [rule for rule in ALL_RULES if rule.scope != "file"]  # not unused-noqa: pylint has its own
    symbols = {definition[1] for definition in VllmLintChecker.msgs.values()}
    assert symbols == {rule.name for rule in engine_rules}
    assert len(VllmLintChecker.msgs) == len(engine_rules)


@pytest.mark.parametrize("version", ["0.27", "0.28", "0.30", "0.33", "0.34"])
def test_same_findings_as_the_fixtures(version):
    files = [p for p in fixture_files("python") if p.suffix == ".py"]
    files = [p for p in files if (target_version(p.read_text()) or "0.34") == version]
    if not files:
        pytest.skip("no fixture for this version")
    _, found = pylint(f"--vllm-target-version={version}", *map(str, files))
    rules = {rule.code: rule.name for rule in ALL_RULES}
    pylint_codes = {rule.code for rule in ALL_RULES if rule.scope != "file"}  # unused-noqa is not pylint's
    for path in files:
        expected, _ = expectations(path.read_text())
        expected = {(line, code) for line, code in expected if code in pylint_codes}
        got = found.get(str(path), set())
        assert {(line, code) for line, code, _ in got} == expected, path
        assert all(rules[code] == symbol for _, code, symbol in got)


def test_disable_comment_and_target_version(tmp_path):
    source = tmp_path / "engine.py"
    source.write_text(
        "import os\nfrom vllm import LLM\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
        'llm = LLM("m", return_sampling_mask=True)\n'
    )
    _, found = pylint("--vllm-target-version=0.33", str(source))
    assert {code for _, code, _ in found[str(source)]} == {"VLM101", "VLM105"}
    _, found = pylint("--vllm-target-version=0.34", str(source))
    assert {code for _, code, _ in found[str(source)]} == {"VLM105"}
    source.write_text(source.read_text().replace("True)\n", "True)  # pylint: disable=replay-logprobs-mode\n"))
    _, found = pylint("--vllm-target-version=0.34", str(source))
    assert str(source) not in found


def test_no_inference_into_installed_packages(tmp_path):
    """The checker reads source; astroid never builds vLLM or any other installed package."""
    from astroid import MANAGER
    from pylint.lint import Run

    source = tmp_path / "engine.py"
    source.write_text('import json\nfrom vllm import LLM\nllm = LLM("m", return_sampling_mask=True)\n')
    before = set(MANAGER.astroid_cache)
    Run(["--load-plugins=vllm_lint.pylint", "--disable=all", "--enable=vllm-lint", "--persistent=n", str(source)],
        exit=False)
    loaded = set(MANAGER.astroid_cache) - before
    assert not {name for name in loaded if name.split(".")[0] in ("vllm", "torch", "json")}


def _pylint_lines(source_path, *args):
    completed = subprocess.run(
        [sys.executable, "-m", "pylint", "--load-plugins=vllm_lint.pylint", "--disable=all", "--enable=vllm-lint",
         "--msg-template={line}|{column}|{end_line}|{end_column}|{msg_id}", "--persistent=n", "--score=n",
         *args, str(source_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "Traceback" not in completed.stderr, completed.stderr
    return [line for line in completed.stdout.splitlines() if line[:1].isdigit()]


def test_columns_are_characters_as_pylint_documents(tmp_path):
    """0-based character columns: on a line with accented and wide characters the column is the call's."""
    source = tmp_path / "engine.py"
    line = 'label = "modèle 日本"; llm = LLM("m", return_sampling_mask=True)'
    source.write_text(f"from vllm import LLM\n{line}\n", encoding="utf-8")
    (reported,) = _pylint_lines(source)
    row, column, end_row, end_column, msg_id = reported.split("|")
    call = 'LLM("m", return_sampling_mask=True)'
    assert (row, end_row, msg_id) == ("2", "2", "E7105")
    assert line[int(column) : int(end_column)] == call


def test_noqa_comments_are_honoured(tmp_path):
    """The noqa comments the CLI and flake8 honour work under pylint too (on any line of the
    statement); pylint's own disable comment works on the reported line."""
    source = tmp_path / "engine.py"
    call = 'llm = LLM({first}\n    "m",\n    return_sampling_mask=True,{comment}\n)\n'
    for first, comment, reported in [
        ("", "", True),
        ("", "  # noqa: VLM105", False),
        ("", "  # noqa", False),
        ("", "  # noqa: VLM104", True),
        ("  # pylint: disable=replay-logprobs-mode", "", False),
        ("  # pylint: disable=E7105", "", False),
    ]:
        source.write_text("from vllm import LLM\n" + call.format(first=first, comment=comment))
        assert bool(_pylint_lines(source)) is reported, first + comment


def test_forwarded_arguments_read_as_check_reads_them(tmp_path):
    """An argv list ending in sys.argv[1:]: the CLI's findings, and none under the strict reading."""
    from fixtures import TESTDATA

    source = TESTDATA / "commandline" / "channels" / "forward_argv.py"
    _, found = pylint("--vllm-target-version=0.33", str(source))
    assert {(line, code) for line, code, _ in found[str(source)]} == {(12, "VLM105"), (21, "VLM105")}
    (tmp_path / "pyproject.toml").write_text('[tool.vllm-lint]\nassume-pass-through = "anything"\n')
    _, found = pylint("--vllm-target-version=0.33", str(source), cwd=tmp_path)
    assert str(source) not in found
