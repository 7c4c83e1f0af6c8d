"""The pre-commit hooks of ``.pre-commit-hooks.yaml``, run by pre-commit itself.

``pre-commit try-repo`` installs this repository in a fresh virtual
environment (``language: python``: pip needs PyPI or its cache, nothing
else) and runs both hooks on a temporary git repository: on a bad file
``vllm-lint`` fails and ``vllm-lint-fix`` fixes the file (and so fails, as
pre-commit does for a hook that changes files); on the next run both pass.

Each ``try-repo`` installs the hooks anew (about 15 s each); ``-m "not slow"``
skips this test.  The hooks repository is a snapshot of this working tree committed to a
temporary git repository, so that uncommitted work is what gets tested.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
FIXES = ROOT / "testdata" / "fixes"
HOOK_FILES = ("pyproject.toml", "README.md", "LICENSE", ".pre-commit-hooks.yaml", "src")
GIT_ENV = {
    "GIT_AUTHOR_NAME": "vllm-lint tests",
    "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "vllm-lint tests",
    "GIT_COMMITTER_EMAIL": "tests@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def test_hooks_manifest():
    hooks = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"vllm-lint", "vllm-lint-fix"}
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert {"python", "shell", "dockerfile", "yaml"} <= set(hook["types_or"])
        assert hook["entry"].startswith("vllm-lint check")
    assert "--fix" in hooks["vllm-lint-fix"]["entry"].split()
    assert "--fix" not in hooks["vllm-lint"]["entry"].split()


def _git(*args: str, cwd: Path, env: dict) -> None:
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def _snapshot(target: Path, env: dict) -> None:
    target.mkdir()
    for name in HOOK_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif source.exists():
            shutil.copyfile(source, target / name)
    _git("init", "-q", cwd=target, env=env)
    _git("add", "-A", cwd=target, env=env)
    _git("commit", "-q", "-m", "hooks", cwd=target, env=env)


def _try_repo(hooks: Path, work: Path, env: dict) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(hooks), "--all-files", "--color", "never"]
    return subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_try_repo_fails_on_a_bad_file_and_passes_after_the_fix(tmp_path):
    if importlib.util.find_spec("pre_commit") is None or shutil.which("git") is None:
        pytest.skip("pre-commit (the test extra) or git is not installed")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT", "VIRTUAL_ENV"))},
        **GIT_ENV,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "HOME": os.environ.get("HOME", str(tmp_path)),
    }
    hooks = tmp_path / "hooks"
    _snapshot(hooks, env)
    work = tmp_path / "work"
    work.mkdir()
    _git("init", "-q", cwd=work, env=env)
    bad = {"engines.py": FIXES / "safe" / "rename_then_add.py"}
    if importlib.util.find_spec("vllm_lint.commandline.kinds") is not None:
        bad["serve.sh"] = None  # the command-line front end reads shell scripts too
        (work / "serve.sh").write_text("#!/bin/sh\nvllm serve Qwen/Qwen3-4B --return-sampling-mask\n")
    shutil.copyfile(bad["engines.py"], work / "engines.py")
    (work / "notes.yaml").write_text("owner: inference\n")  # a file kind the hooks read, without findings
    _git("add", "-A", cwd=work, env=env)

    first = _try_repo(hooks, work, env)
    output = first.stdout + first.stderr
    assert first.returncode == 1, output
    assert "vllm-lint....." in output and "vllm-lint (fix)....." in output
    lines = output.splitlines()
    assert any(line.startswith("vllm-lint.") and line.endswith("Failed") for line in lines), output
    assert any(line.startswith("vllm-lint (fix).") and line.endswith("Failed") for line in lines), output
    assert "engines.py:4:28: VLM302" in output
    assert "files were modified by this hook" in output
    fixed = (work / "engines.py").read_bytes()
    assert fixed == Path(f"{FIXES / 'safe' / 'rename_then_add.py'}.fixed").read_bytes()
    if "serve.sh" in bad:
        assert "--logprobs-mode processed_logprobs" in (work / "serve.sh").read_text()

    _git("add", "-A", cwd=work, env=env)
    second = _try_repo(hooks, work, env)
    output = second.stdout + second.stderr
    assert second.returncode == 0, output
    lines = output.splitlines()
    assert any(line.startswith("vllm-lint.") and line.endswith("Passed") for line in lines), output
    assert any(line.startswith("vllm-lint (fix).") and line.endswith("Passed") for line in lines), output
