"""The pre-commit hooks of ``.pre-commit-hooks.yaml``, run by pre-commit itself.

``pre-commit try-repo`` installs this repository in a fresh virtual
environment (``language: python``: pip needs PyPI or its cache, nothing
else) and runs both hooks on temporary git repositories: on a bad file
``vllm-lint`` fails and ``vllm-lint-fix`` fixes the file (and so fails, as
pre-commit does for a hook that changes files); on the fixed file both pass.

Each ``try-repo`` installs the hooks anew (10-20 s), so the two runs go side by
side, the second on the fixed form that the first one must write;
``pytest -m "not slow"`` skips them.  The hooks repository is a snapshot of
this working tree committed to a temporary git repository, so that
uncommitted work is what gets tested.
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
    "GIT_CONFIG_GLOBAL": os.devnull,  # no signing or hooks from the user's configuration
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


def _try_repo(hooks: Path, work: Path, env: dict) -> subprocess.Popen:
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(hooks), "--all-files", "--color", "never"]
    return subprocess.Popen(command, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _repository(path: Path, files: dict[str, bytes], env: dict) -> Path:
    path.mkdir()
    _git("init", "-q", cwd=path, env=env)
    for name, data in files.items():
        (path / name).write_bytes(data)
    _git("add", "-A", cwd=path, env=env)
    return path


def _status(output: str, hook: str) -> str:
    """``Passed`` or ``Failed`` from pre-commit's line for a hook (``vllm-lint.....Passed``)."""
    for line in output.splitlines():
        if line.startswith(hook + ".") and line.rstrip().endswith(("Passed", "Failed")):
            return line.rstrip().rsplit(".", 1)[-1]
    raise AssertionError(f"no status line for {hook}:\n{output}")


@pytest.mark.slow
def test_try_repo_fails_on_a_bad_file_and_passes_after_the_fix(tmp_path):
    if importlib.util.find_spec("pre_commit") is None or shutil.which("git") is None:
        pytest.skip("pre-commit (the test extra) or git is not installed")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT", "VIRTUAL_ENV"))},
        **GIT_ENV,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    hooks = tmp_path / "hooks"
    _snapshot(hooks, env)
    bad_source = FIXES / "safe" / "rename_then_add.py"
    fixed_source = Path(f"{bad_source}.fixed")
    shell = importlib.util.find_spec("vllm_lint.commandline.kinds") is not None
    yaml_file = b"owner: inference\n"  # a kind of file the hooks read, without findings
    bad = {"engines.py": bad_source.read_bytes(), "notes.yaml": yaml_file}
    good = {"engines.py": fixed_source.read_bytes(), "notes.yaml": yaml_file}
    if shell:  # the command-line front end reads shell scripts too
        bad["serve.sh"] = b"#!/bin/sh\nvllm serve Qwen/Qwen3-4B --return-sampling-mask\n"
        good["serve.sh"] = b"#!/bin/sh\nvllm serve Qwen/Qwen3-4B --return-sampling-mask --logprobs-mode processed_logprobs\n"
    # Each try-repo installs the hooks anew: run on the bad file and on its fixed
    # form at the same time; the fixed form is what the fix hook writes (checked below).
    before = _repository(tmp_path / "before", bad, env)
    after = _repository(tmp_path / "after", good, env)
    runs = {name: _try_repo(hooks, path, env) for name, path in (("before", before), ("after", after))}
    outputs = {name: process.communicate(timeout=600)[0] for name, process in runs.items()}
    codes = {name: process.returncode for name, process in runs.items()}

    output = outputs["before"]
    assert codes["before"] == 1, output
    assert _status(output, "vllm-lint") == "Failed" and _status(output, "vllm-lint (fix)") == "Failed", output
    assert "engines.py:4:28: VLM302" in output
    assert "files were modified by this hook" in output
    assert (before / "engines.py").read_bytes() == fixed_source.read_bytes()
    if shell:
        assert "serve.sh:2:" in output
        assert b"--logprobs-mode processed_logprobs" in (before / "serve.sh").read_bytes()

    output = outputs["after"]
    assert codes["after"] == 0, output
    assert _status(output, "vllm-lint") == "Passed" and _status(output, "vllm-lint (fix)") == "Passed", output


def test_the_documented_local_hooks(tmp_path):
    """The ``repo: local`` hooks docs/usage.md gives, run by pre-commit with the vllm-lint installed
    beside this Python: the check fails on a bad file, the fix hook fixes it and fails (files
    changed), then both pass."""
    import re

    usage = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    config = next(block for block in re.findall(r"```yaml\n(.*?)```", usage, flags=re.S) if "repo: local" in block)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "repo: local" in readme and "github.com/vllm-lint/vllm-lint\n    rev:" not in readme
    env = {**os.environ, **GIT_ENV, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")}
    env["PRE_COMMIT_HOME"] = str(tmp_path / "cache")
    bad = b'from vllm import LLM\n\nllm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True)\n'
    work = _repository(tmp_path / "work", {"train.py": bad, ".pre-commit-config.yaml": config.encode()}, env)

    def run() -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
            cwd=work, env=env, capture_output=True, text=True, timeout=300,
        )

    first = run()
    assert first.returncode == 1, first.stdout
    assert "VLM105" in first.stdout
    assert b'logprobs_mode="processed_logprobs"' in (work / "train.py").read_bytes()
    second = run()
    assert second.returncode == 0, second.stdout
