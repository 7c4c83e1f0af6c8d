"""Settings: errors in them are loud, and every front end (CLI, flake8, pylint, the codemod)
reads the same ``[tool.vllm-lint]`` and picks the same target version."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

BAD = 'from vllm import LLM\nllm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True)\n'
# VLM101 on 0.28-0.33 only: the target version decides whether it is reported.
V1_RUNNER = (
    "import os\nfrom vllm import LLM\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
    'llm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
)
TIMEOUT = 180


def run(args, cwd, stdin: str | None = None):
    completed = subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert "Traceback" not in completed.stderr, completed.stderr
    return completed.returncode, completed.stdout, completed.stderr


def check(*args, cwd, stdin: str | None = None):
    # One line per finding (a later --output-format wins).
    return run(["vllm_lint", "check", "--output-format", "concise", *args], cwd, stdin)


def flake8(*args, cwd):
    return run(["flake8", "--select", "VLM", *args], cwd)


def pylint(*args, cwd):
    pytest.importorskip("pylint")
    command = ["pylint", "--load-plugins=vllm_lint.pylint", "--disable=all", "--enable=vllm-lint", "--persistent=n",
               "--score=n", "--msg-template={path}:{line}: {msg}", *args]  # fmt: skip
    return run(command, cwd)


def codes(output: str) -> list[str]:
    return sorted(word for word in output.split() if word.startswith("VLM") and word[3:].isdigit())


@pytest.fixture
def project(tmp_path):
    (tmp_path / ".git").mkdir()  # the repository's root: pins are not looked for above it
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "train.py").write_text(BAD)
    return tmp_path


def write_config(project, text: str) -> None:
    (project / "pyproject.toml").write_text(text)


# ----------------------------------------------------------- target version

SPECULATIVE = '{"method": "eagle3", "num_speculative_tokens": 3}'  # VLM102 before 0.32 only
FLAGS = f'"--model", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--speculative-config", \'{SPECULATIVE}\''


def test_image_tags_name_the_release_of_their_commands(project):
    (project / "Dockerfile").write_text(
        "FROM vllm/vllm-openai:v0.31.0 AS serve\n"
        'CMD ["--model", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", '
        '"--speculative-config", "{\\"method\\": \\"eagle3\\"}"]\n'
    )
    (project / "pod.yaml").write_text(
        "containers:\n"
        f"  - name: old\n    image: vllm/vllm-openai:v0.31.0\n    args: [{FLAGS}]\n"
        f"  - name: new\n    image: vllm/vllm-openai:v0.33.1\n    args: [{FLAGS}]\n"
        f"  - name: untagged\n    image: vllm/vllm-openai\n    args: [{FLAGS}]\n"
    )
    (project / "compose.yaml").write_text(f"services:\n  vllm:\n    image: vllm/vllm-openai:0.30.1-cu128\n    command: [{FLAGS}]\n")
    (project / "serve.sh").write_text(
        f"#!/bin/sh\ndocker run --gpus all vllm/vllm-openai:v0.31.0 --model m --return-sampling-mask "
        f"--logprobs-mode processed_logprobs --speculative-config '{SPECULATIVE}'\n"
    )
    (project / "pkg" / "train.py").unlink()
    (project / "requirements.txt").write_text("vllm==0.34.0\n")  # the project's pin: below the tags
    code, out, _ = check("--output-format", "concise", ".", cwd=project)
    found = sorted(line.split(":")[0] + ":" + line.split(":")[1] for line in out.splitlines() if "VLM102" in line)
    assert found == ["Dockerfile:2", "compose.yaml:4", "pod.yaml:4", "serve.sh:2"], out
    # A version the user chose wins over the tags.
    assert "VLM102" not in check("--target-version", "0.34", ".", cwd=project)[1]
    write_config(project, '[tool.vllm-lint]\ntarget-version = "0.34"\n')
    assert "VLM102" not in check(".", cwd=project)[1]


@pytest.mark.parametrize(
    "requirement, version",
    [
        ("vllm>=0.31,<0.32", "0.31"),
        ("vllm >= 0.31.2, < 0.32.0", "0.31"),
        ("vllm==0.31.*", "0.31"),
        ("vllm[audio]~=0.31.1 ; python_version >= '3.10'", "0.31"),
        ("vllm>=0.31,<0.32.1", "0.34"),  # admits 0.32.0 as well: not one release
        ("vllm>=0.31,<=0.32", "0.34"),
        ("vllm~=0.31", "0.34"),
        ("vllm>0.31.9,<0.31.9", "0.34"),  # admits nothing
        ("vllm-ext==0.31.0", "0.34"),  # another package
    ],
)
def test_requirement_ranges_that_fix_a_release(project, requirement, version):
    (project / "requirements.txt").write_text(f"torch\n{requirement}\n")
    code, out, _ = check("--show-settings", "pkg", cwd=project)
    assert code == 0 and f"target version: {version} " in out, out


def test_poetry_constraints(project):
    write_config(project, '[tool.poetry.dependencies]\npython = "^3.10"\nvllm = "^0.31.2"\n')
    assert "target version: 0.31 " in check("--show-settings", "pkg", cwd=project)[1]
    write_config(project, '[tool.poetry.dependencies]\nvllm = { version = "~0.30" }\n')
    assert "target version: 0.30 " in check("--show-settings", "pkg", cwd=project)[1]


def test_requirements_that_disagree_are_not_chosen_between(project):
    """Two requirement files beside each other pin different releases: neither is the
    project's, and --show-settings says so; a pin nearer the file is preferred."""
    (project / "requirements_torch251_vllm.txt").write_text("-r requirements_common.txt\nvllm==0.8.4\n")
    (project / "requirements_torch280_vllm.txt").write_text("-r requirements_common.txt\nvllm==0.10.2\n")
    (project / "requirements_common.txt").write_text("torch\n")
    code, out, _ = check("--show-settings", "pkg", cwd=project)
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("target version:"))
    assert line.startswith("target version: 0.34 (from the newest vLLM release the rules know; ")
    assert "vllm==0.8.4 in requirements_torch251_vllm.txt" in line and "vllm==0.10.2 in requirements_torch280_vllm.txt" in line
    assert "set target-version to choose" in line
    # The same release twice is no disagreement.
    (project / "requirements_torch251_vllm.txt").write_text("vllm==0.10.1\n")
    assert "target version: 0.10 (from the pinned requirement in" in check("--show-settings", "pkg", cwd=project)[1]
    # The nearest pin wins over the disagreement further up.
    (project / "requirements_torch251_vllm.txt").write_text("vllm==0.8.4\n")
    (project / "pkg" / "requirements.txt").write_text("vllm==0.31.0\n")
    out = check("--show-settings", "pkg", cwd=project)[1]
    assert f"target version: 0.31 (from the pinned requirement in {project / 'pkg' / 'requirements.txt'} (vllm==0.31.0))" in out
