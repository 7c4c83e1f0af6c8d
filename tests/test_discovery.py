"""Which files ``check`` reads: git's ignore rules (compared with git itself), notices about
named files that are skipped, ``--show-files``, and notebooks."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess

import pytest

from vllm_lint import cli
from vllm_lint.gitignore import Ignore, parse

BAD = 'from vllm import LLM\nllm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True)\n'
GIT_ENV = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.run_check(cli.build_parser().parse_args(["check", *argv]), out, err)
    return code, out.getvalue(), err.getvalue()


def ignored(patterns: str, path: str, is_dir: bool = False) -> bool:
    return Ignore("", tuple(parse(patterns))).ignored(path, is_dir)


@pytest.mark.parametrize(
    ("patterns", "path", "is_dir", "expected"),
    [
        ("outputs/", "outputs", True, True),  # Hydra's run folders
        ("outputs/", "outputs", False, False),  # a trailing slash: folders only
        ("outputs/", "exp/outputs", True, True),  # no slash before the end: any depth
        ("/outputs", "exp/outputs", True, False),  # a leading slash anchors
        ("conf/generated", "conf/generated", True, True),
        ("conf/generated", "x/conf/generated", True, False),  # a middle slash anchors too
        ("*.log\n!keep.log", "run/keep.log", False, False),  # negation: the last match decides
        ("!keep.log\n*.log", "keep.log", False, True),
        ("**/cache", "a/b/cache", True, True),
        ("runs/**/ckpt", "runs/ckpt", True, True),
        ("runs/**/ckpt", "runs/a/b/ckpt", True, True),
        ("runs/**", "runs/a/b.py", False, True),
        ("runs/**", "runs", True, False),
        ("ckpt-[0-9]", "ckpt-7", True, True),
        ("ckpt-[!0-9]", "ckpt-7", True, False),
        ("a?c.py", "abc.py", False, True),
        ("a?c.py", "a/c.py", False, False),  # ? never matches /
        ("\\#notes.py", "#notes.py", False, True),
        ("# a comment", "# a comment", False, False),
        ("\\!bang.py", "!bang.py", False, True),
        ("trailing.py   ", "trailing.py", False, True),
        ("escaped.py\\ ", "escaped.py ", False, True),
    ],
)
def test_gitignore_patterns(patterns, path, is_dir, expected):
    assert ignored(patterns, path, is_dir) is expected


def _git(*args: str, cwd) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, check=True, capture_output=True, text=True).stdout


def _tree(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


# An RL project's layout: Hydra's outputs, generated configs, checkpoints, a nested .gitignore that
# re-includes, anchored and directory-only patterns, and .git/info/exclude.
PROJECT = {
    ".gitignore": "outputs/\n/generated\n*.tmp.py\n!keep.tmp.py\nwandb/\nruns/**/ckpt\n[Bb]uild-*/\nscratch\n",
    "train.py": BAD,
    "launch.sh": "#!/bin/bash\nvllm serve Qwen/Qwen3-4B --return-sampling-mask\n",
    "outputs/2025-01-01/12-00-00/.hydra/config.yaml": "model: x\n",
    "outputs/2025-01-01/12-00-00/rollout.py": BAD,
    "generated/engine.py": BAD,
    "src/generated/engine.py": BAD,  # /generated is anchored at the top
    "src/x.tmp.py": BAD,
    "src/keep.tmp.py": BAD,
    "src/wandb/run.py": BAD,
    "runs/a/ckpt/engine.py": BAD,
    "runs/a/engine.py": BAD,
    "Build-1/engine.py": BAD,
    "scratch": "not a folder here\n",
    "tools/scratch/engine.py": BAD,
    "tools/.gitignore": "*.py\n!serve.py\nlocal/\n",
    "tools/serve.py": BAD,
    "tools/other.py": BAD,
    "tools/local/run.py": BAD,
    "deploy/values.yaml": "image: vllm/vllm-openai:v0.9.0\n",
    "deploy/private.yaml": "x: 1\n",
    "notebooks/demo.ipynb": json.dumps({"cells": [], "nbformat": 4, "nbformat_minor": 5, "metadata": {}}),
}


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_walk_skips_what_git_ignores_as_git_does(tmp_path, monkeypatch):
    _tree(tmp_path, PROJECT)
    _git("init", "-q", cwd=tmp_path)
    (tmp_path / ".git" / "info").mkdir(exist_ok=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("deploy/private.yaml\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("--show-files")
    assert code == 0
    listed = set(out.split())
    # git's own answer: every file it does not ignore, of the kinds check reads.
    kept = set(_git("ls-files", "--others", "--cached", "--exclude-standard", cwd=tmp_path).split())
    kinds = {path for path in kept if cli.discover([path], [], False, [])}
    assert listed == kinds
    assert "src/keep.tmp.py" in listed and "tools/serve.py" in listed and "src/generated/engine.py" in listed
    assert not any(path.startswith(("outputs/", "generated/", "runs/a/ckpt", "Build-1", "tools/local")) for path in listed)
    # --no-respect-gitignore walks everything again; so does respect-gitignore = false.
    code, out, _ = run("--show-files", "--no-respect-gitignore")
    assert "outputs/2025-01-01/12-00-00/rollout.py" in out.split()
    (tmp_path / "pyproject.toml").write_text("[tool.vllm-lint]\nrespect-gitignore = false\n")
    code, out, _ = run("--show-files")
    assert "generated/engine.py" in out.split()
    code, out, _ = run("--show-files", "--respect-gitignore")
    assert "generated/engine.py" not in out.split()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_gitignore_of_folders_above_the_one_checked_and_global_excludes(tmp_path, monkeypatch):
    _tree(tmp_path, {".gitignore": "src/gen/\n", "src/gen/a.py": BAD, "src/b.py": BAD, "src/c_local.py": BAD})
    _git("init", "-q", cwd=tmp_path)
    (tmp_path / "gitconfig").write_text("[core]\n\texcludesFile = " + str(tmp_path / "global-ignore") + "\n")
    (tmp_path / "global-ignore").write_text("*_local.py\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.chdir(tmp_path / "src")
    code, out, _ = run("--show-files", ".")
    assert out.split() == ["b.py"]
    # A path named on the command line is checked all the same, unless --force-exclude.
    code, out, err = run("gen/a.py")
    assert code == 1 and "VLM105" in out
    code, out, err = run("--force-exclude", "gen/a.py")
    assert code == 0 and "gen/a.py: skipped: ignored by git (--force-exclude)" in err


def test_no_gitignore_outside_a_repository(tmp_path, monkeypatch):
    _tree(tmp_path, {".gitignore": "*.py\n", "train.py": BAD})
    monkeypatch.chdir(tmp_path)
    if cli_repository(tmp_path):
        pytest.skip("the temporary folder is inside a git repository")
    assert run("--show-files")[1].split() == ["train.py"]


def cli_repository(path) -> bool:
    from vllm_lint.gitignore import repository_top

    return repository_top(str(path)) is not None


def test_named_files_that_are_not_checked_are_said_so(tmp_path, monkeypatch):
    _tree(tmp_path, {"README.md": "vllm serve x\n", "train.py": BAD, "vendor/x.py": BAD, "bin/train": "#!/usr/bin/env python3\n" + BAD})
    monkeypatch.chdir(tmp_path)
    code, out, err = run("README.md")
    assert code == 0
    assert "README.md: skipped: not a kind of file vllm-lint reads" in err
    code, out, err = run("--force-exclude", "--exclude", "vendor", "vendor/x.py", "train.py")
    assert code == 1 and "vendor/x.py: skipped: excluded (--force-exclude)" in err and "train.py:2" in out
    # An extensionless Python script named on the command line is read as Python.
    code, out, err = run("bin/train")
    assert code == 1 and "bin/train:3:7: VLM105" in out
    code, out, err = run("--exclude", "*", ".")
    assert code == 0 and "no files to check" in err


NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Rollouts with replay\n"]},
        {
            "cell_type": "code",
            "execution_count": 1,
            "metadata": {},
            "outputs": [],
            "source": ["!pip install -q vllm\n", "%load_ext autoreload\n", "from vllm import LLM, SamplingParams\n"],
        },
        {
            "cell_type": "code",
            "execution_count": 2,
            "metadata": {},
            "outputs": [],
            "source": [
                "llm = LLM(\n",
                '    model="Qwen/Qwen3-4B",\n',
                "    return_sampling_mask=True,  # noqa: VLM106\n",
                ")\n",
                "gpus = !nvidia-smi -L\n",
            ],
        },
        {"cell_type": "code", "metadata": {}, "outputs": [], "source": "%%bash\nvllm serve Qwen/Qwen3-4B --not-an-option\n"},
        {"cell_type": "code", "metadata": {}, "outputs": [], "source": "params = SamplingParams(temperature=0.0, top_k=5)\nllm.generate(['hi'], params)"},
    ],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def test_notebook_cells_are_checked_and_findings_placed_in_their_cell(tmp_path, monkeypatch):
    text = json.dumps(NOTEBOOK, indent=1)
    (tmp_path / "rollouts.ipynb").write_text(text)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("--output-format", "concise", "--target-version", "0.33", ".")
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("rollouts.ipynb:cell 3:1:7: VLM105 ")
    assert any(line.startswith("rollouts.ipynb:cell 5:1:") for line in lines)
    assert "--not-an-option" not in out  # a %%bash cell is not Python
    # The same with worker processes.
    (tmp_path / "second.ipynb").write_text(text)
    assert run("--output-format", "concise", "--target-version", "0.33", "-j", "2", "rollouts.ipynb", "second.ipynb")[1].count("VLM105") == 2
    (tmp_path / "second.ipynb").unlink()
    records = json.loads(run("--output-format", "json", "--target-version", "0.33", ".")[1])
    assert {record["cell"] for record in records} == {3, 5}
    assert all(record["fix"] is None for record in records)
    # --fix and --add-noqa leave the notebook as it is, and say so.
    code, out, err = run("--fix", "--target-version", "0.33", ".")
    assert "notebooks are not fixed" in err and (tmp_path / "rollouts.ipynb").read_text() == text


def test_a_notebook_that_is_not_json_or_does_not_parse(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.ipynb").write_text('{"cells": [')
    broken = dict(NOTEBOOK, cells=[NOTEBOOK["cells"][1], {"cell_type": "code", "source": ["llm = LLM(\n"]}])
    (tmp_path / "syntax.ipynb").write_text(json.dumps(broken))
    code, out, _ = run("--output-format", "concise", ".")
    assert code == 1
    assert "broken.ipynb: cannot parse: invalid notebook" in out
    assert "syntax.ipynb: cannot parse: syntax error" in out and "(cell 2, line 1)" in out
