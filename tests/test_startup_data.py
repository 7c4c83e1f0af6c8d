"""The start-up checks' data: one file per release, read only for the release a file runs on."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from vllm_lint.lint import lint_python_bytes
from vllm_lint.rules import startup_checks
from vllm_lint.versions import Version

DATA = Path(startup_checks._DATA)


def lint(source: str, release: str):
    return lint_python_bytes("app.py", source.encode(), lambda _path: (Version.parse(release), "test")).findings


def test_each_release_has_its_file_and_the_index_lists_them():
    index = json.loads((DATA / "index.json").read_text())
    files = sorted(p.stem for p in DATA.glob("*.json") if p.stem != "index" and not p.stem.endswith(".model"))
    assert sorted(index["releases"]) == files
    # The checks that read the model's config too: one file per release beside it.
    assert sorted(p.stem for p in DATA.glob("*.model.json")) == [f"{key}.model" for key in files]
    assert index["newest"] == max(files, key=lambda k: tuple(int(p) for p in k.split(".")))
    for key in files:
        data = json.loads((DATA / f"{key}.json").read_text())
        assert data["release"].startswith(key + ".")
        assert data["checks"] and all(check["file"].startswith("vllm/") for check in data["checks"])


def test_importing_the_rules_reads_no_release_file():
    code = (
        "import vllm_lint.rules.startup_checks as s, vllm_lint.rules.startup_parallel\n"
        "import vllm_lint.rules.startup_model\n"
        "print(s._load.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "0"


def test_a_file_reads_only_its_release():
    startup_checks._load.cache_clear()
    oldest = json.loads((DATA / "index.json").read_text())["releases"][0]
    lint('from vllm import LLM\n\nllm = LLM("m", checkpoint_prepare_on_startup=True)\n', oldest)
    assert startup_checks._load.cache_info().currsize == 1
    assert startup_checks._load(oldest)["release"].startswith(oldest)


def test_the_finding_names_the_release_it_runs_on():
    source = 'from vllm import LLM\n\nllm = LLM("m", ray_workers_use_nsight=True, distributed_executor_backend="mp")\n'
    for key in json.loads((DATA / "index.json").read_text())["releases"]:
        found = [f for f in lint(source, key) if f.code == "VLM401"]
        assert found, key
        assert f"by vLLM {key}: " in found[0].message


def test_a_release_without_data_is_silent():
    source = 'from vllm import LLM\n\nllm = LLM("m", ray_workers_use_nsight=True, distributed_executor_backend="mp")\n'
    oldest = json.loads((DATA / "index.json").read_text())["releases"][0]
    major, minor = (int(p) for p in oldest.split("."))
    if (major, minor - 1) < (0, 27):
        return  # older than every release the rules know: the oldest profile stands in
    assert not [f for f in lint(source, f"{major}.{minor - 1}") if f.code.startswith("VLM40")]


def test_each_release_checks_with_its_own_conditions_and_messages():
    """0.32 wants numa_bind=True for NUMA binding lists; 0.34 only refuses numa_bind=False."""
    unset = 'from vllm import LLM\n\nllm = LLM("m", numa_bind_nodes=[0, 1])\n'
    refused = 'from vllm import LLM\n\nllm = LLM("m", numa_bind_nodes=[0, 1], numa_bind=False)\n'
    on_032 = [f.vllm_error for f in lint(unset, "0.32") if f.code == "VLM401"]
    assert on_032 == ["numa_bind_nodes and numa_bind_cpus require numa_bind=True."]
    assert not [f for f in lint(unset, "0.34") if f.code == "VLM401"]
    on_034 = [f.vllm_error for f in lint(refused, "0.34") if f.code == "VLM401"]
    assert on_034 == ["NUMA binding lists cannot be combined with numa_bind=False."]


def test_a_long_reason_is_shortened_between_words_never_dropped():
    source = 'from vllm import LLM\n\nllm = LLM("Qwen/Qwen3-8B", data_parallel_size=2)\n'
    (found,) = [f for f in lint(source, "0.34") if f.code == "VLM403"]
    assert len(found.message) <= startup_checks.LONGEST
    assert found.message.startswith("data_parallel_size=2: rejected at start-up by vLLM 0.34: LLM(data_parallel_size=2)")
    assert found.message.endswith("\u2026 (vllm/entrypoints/llm.py:298)")
    assert "\u2026" not in found.vllm_error and found.vllm_error.startswith(found.message.split(": ", 2)[2][:60])
