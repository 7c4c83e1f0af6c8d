"""Options a ruff user reaches for: --extend-exclude, --per-file-ignores, --show-fixes,
--exit-non-zero-on-fix, and usage errors that show the command's own usage."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from vllm_lint import cli

BAD = 'from vllm import LLM\nllm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True)\n'
FIXED = 'from vllm import LLM\nllm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.run_check(cli.build_parser().parse_args(["check", *argv]), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def project(tmp_path, monkeypatch):
    for name in ("train.py", "tests/test_engine.py", "third_party/engine.py", "scripts/eval.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(BAD)
    (tmp_path / "pyproject.toml").write_text('[tool.vllm-lint]\nexclude = ["third_party"]\nextend-exclude = ["scripts"]\nper-file-ignores = { "tests/*" = ["VLM1"] }\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def files(*argv: str) -> list[str]:
    return run("--show-files", *argv)[1].split()


def test_exclude_replaces_and_extend_exclude_adds(project):
    assert files() == ["tests/test_engine.py", "train.py"]
    assert files("--extend-exclude", "tests") == ["train.py"]
    # --exclude replaces the configured exclude; the configured extend-exclude stays.
    assert files("--exclude", "tests") == ["third_party/engine.py", "train.py"]


def test_per_file_ignores_on_the_command_line(project):
    code, out, _ = run("--output-format", "concise")
    assert "tests/test_engine.py" not in out and "train.py" in out
    # Replaces the configured table ...
    code, out, _ = run("--output-format", "concise", "--per-file-ignores", "train.py:VLM105")
    assert "tests/test_engine.py:2:7: VLM105" in out and "train.py" not in out
    # ... or adds to it; several pairs in one value, as ruff writes them.
    code, out, _ = run("--output-format", "concise", "--extend-per-file-ignores", "train.py:VLM2,VLM105")
    assert code == 0 and out.strip() == "All checks passed!"
    code, out, _ = run("--output-format", "concise", "--per-file-ignores", "tests/*:VLM1,train.py:VLM1")
    assert code == 0
    code, _, err = run("--per-file-ignores", "train.py")
    assert code == 2 and "expected GLOB:CODES" in err
    code, _, err = run("--per-file-ignores", "train.py:E501")
    assert code == 2 and "unknown rule selector" in err


def test_exit_non_zero_on_fix_and_show_fixes(project):
    code, out, _ = run("--fix", "train.py")
    assert code == 0 and (project / "train.py").read_text() == FIXED
    (project / "train.py").write_text(BAD)
    code, out, _ = run("--fix", "--exit-non-zero-on-fix", "--show-fixes", "train.py")
    assert code == 1 and (project / "train.py").read_text() == FIXED
    assert "Fixed:\n  train.py:2:7: VLM105 (replay-logprobs-mode) return_sampling_mask=True needs" in out
    code, out, _ = run("--fix", "--exit-non-zero-on-fix", "train.py")
    assert code == 0  # nothing left to fix
    (project / "train.py").write_text(BAD)
    code, out, err = run("--diff", "--show-fixes", "train.py")
    assert code == 1 and "Would fix:\n  train.py:2:7: VLM105" in err and (project / "train.py").read_text() == BAD
    code, _, err = run("--fix", "--exit-zero", "--exit-non-zero-on-fix", "train.py")
    assert code == 2


def test_a_bad_option_shows_the_commands_own_usage():
    completed = subprocess.run([sys.executable, "-m", "vllm_lint", "check", "--bad-flag"], capture_output=True, text=True)
    assert completed.returncode == 2
    assert completed.stderr.startswith("usage: vllm-lint check ")
    assert "vllm-lint check: error: unrecognized arguments: --bad-flag" in completed.stderr
    completed = subprocess.run([sys.executable, "-m", "vllm_lint", "explain", "x.py", "--nope"], capture_output=True, text=True)
    assert completed.returncode == 2 and completed.stderr.startswith("usage: vllm-lint explain ")


def test_help_names_the_argument_and_start_up_checks():
    parser = cli.build_parser()
    assert "start-up checks" in parser.description and "release" in parser.description
    check_help = parser.commands["check"].format_help()
    assert "start-up" in check_help and "arguments" in check_help
