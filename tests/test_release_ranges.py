"""Findings over a range of releases (a pin that admits several): the values each message lists are
merged, not dropped: VLM303 lists the choices every admitted release accepts, an ambiguous
abbreviation every option it may stand for."""

from __future__ import annotations

import io

from vllm_lint import cli


def check(tmp_path, monkeypatch, script: str) -> str:
    (tmp_path / "requirements.txt").write_text("vllm>=0.30,<0.34\n")
    (tmp_path / "serve.sh").write_text("#!/bin/bash\n" + script)
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    cli.run_check(cli.build_parser().parse_args(["check", "--output-format", "concise", "serve.sh"]), out, io.StringIO())
    return out.getvalue()


def test_invalid_choice_lists_the_choices_of_every_admitted_release(tmp_path, monkeypatch):
    from vllm_lint.launch.schema import schema_for
    from vllm_lint.versions import Version

    out = check(tmp_path, monkeypatch, "vllm serve Qwen/Qwen3-8B --kv-cache-dtype fp8_e4m3x\n")
    line = next(line for line in out.splitlines() if "VLM303" in line)
    assert "in vLLM 0.30-0.33; use one of: " in line
    listed = line.split("use one of: ", 1)[1]
    assert listed.endswith(" (vLLM 0.30-0.33 from requirements.txt:1)")  # where the releases come from
    listed = listed.rsplit(" (vLLM", 1)[0]
    known = [schema_for(Version.parse(f"0.{minor}")).choices["kv_cache_dtype"] for minor in range(30, 34)]
    choices = [set(entry.get("cli") or entry.get("config")) for entry in known]
    common = set.intersection(*choices)
    assert {value.strip("'") for value in listed.split(", ")} == common


def test_ambiguous_abbreviation_names_its_candidates_over_a_range(tmp_path, monkeypatch):
    out = check(tmp_path, monkeypatch, "vllm serve Qwen/Qwen3-8B --max-num 8\n")
    line = next(line for line in out.splitlines() if "VLM301" in line)
    assert "--max-num is ambiguous in vLLM 0.30-0.33; write in full the option you mean: " in line
    assert "--max-num-seqs" in line and "--max-num-batched-tokens" in line and "remove it" not in line
