"""The flake8 plugin, through real flake8."""

from __future__ import annotations

import subprocess
import sys
import tempfile

from fixtures import TESTDATA

BAD = 'from vllm import LLM\nllm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True)\n'


def flake8(*args, stdin: str | None = None, cwd=None):
    # From a folder without a [tool.vllm-lint] (the project's own excludes its test data).
    cwd = cwd or tempfile.gettempdir()
    completed = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )
    return completed.returncode, completed.stdout, completed.stderr


def test_version_lists_plugin():
    code, out, _ = flake8("--version")
    assert code == 0 and "vllm-lint" in out


def test_reports_fixture_codes():
    code, out, err = flake8("--select", "VLM", str(TESTDATA / "python" / "requests.py"))
    assert code == 1, err
    codes = {line.split(": ", 1)[1].split()[0] for line in out.splitlines()}
    assert codes == {"VLM201", "VLM202"}


def test_stdin():
    code, out, _ = flake8("--select", "VLM", "-", stdin=BAD)
    assert code == 1
    assert out.startswith("stdin:2:7: VLM105 ")


def test_noqa_on_any_line_of_a_multiline_call(tmp_path):
    path = tmp_path / "engine.py"
    path.write_text(
        "from vllm import LLM\n"
        "llm = LLM(  # noqa: VLM105\n"
        '    "Qwen/Qwen3-4B",\n'
        "    return_sampling_mask=True,\n"
        ")\n"
    )
    assert flake8("--select", "VLM", str(path))[0] == 0
    path.write_text(path.read_text().replace("(  # noqa: VLM105", "(").replace("True,\n", "True,  # noqa: VLM105\n"))
    assert flake8("--select", "VLM", str(path))[0] == 0


def test_target_version_option(tmp_path):
    path = tmp_path / "engine.py"
    path.write_text(
        "import os\nfrom vllm import LLM\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
        'llm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
    )
    assert flake8("--select", "VLM", "--vllm-target-version", "0.34", str(path))[0] == 0
    code, out, _ = flake8("--select", "VLM", "--vllm-target-version", "0.33", str(path))
    assert code == 1 and "VLM101" in out


def test_plugin_uses_flakes_tree_not_the_file(tmp_path, monkeypatch):
    import ast

    from vllm_lint.integrations.flake8 import VllmLintPlugin

    VllmLintPlugin.target_version = None
    VllmLintPlugin._resolver = None
    lines = BAD.splitlines(keepends=True)
    plugin = VllmLintPlugin(ast.parse(BAD), lines, str(tmp_path / "does-not-exist.py"))
    results = list(plugin.run())
    assert [(line, col, text.split()[0]) for line, col, text, _ in results] == [(2, 6, "VLM105")]


def test_forwarded_arguments_read_as_check_reads_them(tmp_path):
    """An argv list ending in sys.argv[1:]: the same finding and note as ``vllm-lint check``,
    and nothing under the project's strict reading."""
    source = TESTDATA / "commandline" / "channels" / "forward_argv.py"
    code, out, err = flake8("--select", "VLM", "--vllm-target-version", "0.33", str(source))
    assert code == 1, err
    lines = [line.split(":")[1] for line in out.splitlines()]
    assert lines == ["12", "21"]
    assert "(unless the arguments passed through at sys.argv[1:], line 12, set --logprobs-mode)" in out
    (tmp_path / "pyproject.toml").write_text('[tool.vllm-lint]\nassume-pass-through = "anything"\n')
    assert flake8("--select", "VLM", "--vllm-target-version", "0.33", str(source), cwd=tmp_path)[0] == 0
