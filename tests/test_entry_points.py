"""One project through every entry point: ``check``, flake8, pylint, the language server and
``explain`` report the same codes on the same lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

FILES = {
    # The engine is built by a helper of another module: train.py does not mention vLLM.
    "helpers.py": """\
        from vllm import LLM


        def make_engine(model: str, **kwargs) -> LLM:
            return LLM(model, **kwargs)
        """,
    "train.py": """\
        from helpers import make_engine

        rollout = make_engine("Qwen/Qwen3-4B", return_sampling_mask=True)
        """,
    # An engine built on two paths, and a greedy request to it.
    "evaluate.py": """\
        import sys

        from vllm import LLM, SamplingParams

        if sys.argv[1] == "big":
            llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
        else:
            llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
        outputs = llm.generate(["hi"], SamplingParams(temperature=0.0, top_k=20))
        """,
    # Settings in a module of their own, an engine built from them.
    "settings.py": """\
        POLICY = {"model": "Qwen/Qwen3-8B", "return_sampling_mask": True, "logprobs_mode": "raw_logprobs"}
        """,
    "policy.py": """\
        from vllm import LLM

        from settings import POLICY

        policy = LLM(**POLICY)
        """,
    "clean.py": """\
        import json

        print(json.dumps({"sampling": "mask"}))
        """,
}
PYTHON_FILES = sorted(FILES)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("entry-points")
    (root / "pyproject.toml").write_text('[project]\nname = "rollout"\n\n[tool.vllm-lint]\ntarget-version = "0.33"\n')
    for name, text in FILES.items():
        (root / name).write_text(textwrap.dedent(text))
    return root


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    completed = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in completed.stderr, completed.stderr
    return completed


def by_check(project: Path) -> set[tuple[str, int, str]]:
    completed = run([sys.executable, "-m", "vllm_lint", "check", "--output-format", "json", *PYTHON_FILES], project)
    return {(os.path.basename(f["filename"]), f["location"]["row"], f["code"]) for f in json.loads(completed.stdout)}


def by_flake8(project: Path) -> set[tuple[str, int, str]]:
    completed = run([sys.executable, "-m", "flake8", "--isolated", "--select", "VLM", *PYTHON_FILES], project)
    found = set()
    for line in completed.stdout.splitlines():
        path, row, _column, message = line.split(":", 3)
        found.add((path, int(row), message.split()[0]))
    return found


def by_pylint(project: Path) -> set[tuple[str, int, str]]:
    template = "{path}|{line}|{msg}"
    completed = run(
        [sys.executable, "-m", "pylint", "--load-plugins=vllm_lint.pylint", "--disable=all", "--enable=vllm-lint",
         f"--msg-template={template}", "--persistent=n", "--score=n", *PYTHON_FILES],
        project,
    )
    found = set()
    for line in completed.stdout.splitlines():
        if line.count("|") >= 2 and not line.startswith("*"):
            path, row, message = line.split("|", 2)
            found.add((path, int(row), message.split()[0]))
    return found


def by_server(project: Path) -> set[tuple[str, int, str]]:
    pytest.importorskip("pygls")
    from lsp_client import Client

    client = Client(cwd=str(project))
    client.initialize(project)
    found = set()
    try:
        for name in PYTHON_FILES:
            path = project / name
            client.open(path, path.read_text())
            for diagnostic in client.diagnostics(path):
                found.add((name, diagnostic["range"]["start"]["line"] + 1, diagnostic["code"]))
    finally:
        client.close()
    return found


def by_explain(project: Path) -> set[tuple[str, int, str]]:
    """Engine findings on the engine's line, request findings on the request's (the calls here fit one line)."""
    found = set()
    for name in PYTHON_FILES:
        completed = run([sys.executable, "-m", "vllm_lint", "explain", "--output-format", "json", name], project)
        for engine in json.loads(completed.stdout)["engines"]:
            found.update((name, engine["line"], code) for code in engine["findings"])
            for request in engine["requests"]:
                found.update((name, request["line"], code) for code in request["findings"])
    return found


def test_every_entry_point_reports_the_same_codes_on_the_same_lines(project):
    expected = {
        ("train.py", 3, "VLM105"),  # built by the helper of another module
        ("evaluate.py", 9, "VLM201"),  # a request to an engine built on two paths
        ("policy.py", 5, "VLM105"),  # settings of another module
    }
    assert by_check(project) == expected
    assert by_flake8(project) == expected
    assert by_pylint(project) == expected
    assert by_server(project) == expected
    assert by_explain(project) == expected
