"""The command line: discovery, selection, output formats, exit codes, settings."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from vllm_lint.cli import main

BAD = 'from vllm import LLM\nllm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True)\n'
GOOD = 'from vllm import LLM\nllm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'


def run(args, cwd, stdin: bytes | None = None):
    completed = subprocess.run(
        [sys.executable, "-m", "vllm_lint", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        timeout=120,
    )
    return completed.returncode, completed.stdout.decode(), completed.stderr.decode()


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "train.py").write_text(BAD)
    (tmp_path / "pkg" / "ok.py").write_text(GOOD)
    (tmp_path / ".venv" / "lib").mkdir(parents=True)
    (tmp_path / ".venv" / "lib" / "vendored.py").write_text(BAD)
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "x.py").write_text(BAD)
    return tmp_path


def test_finding_and_exit_code(project):
    code, out, err = run(["check"], project)
    assert code == 1, err
    assert out.splitlines()[0] == (
        "pkg/train.py:2:7: VLM105 [*] return_sampling_mask=True needs logprobs_mode=\"processed_logprobs\" "
        "(vLLM's default is \"raw_logprobs\")"
    )
    assert "Found 1 error." in out
    assert ".venv" not in out and "node_modules" not in out


def test_clean_exit_zero(project):
    code, out, _ = run(["check", "pkg/ok.py"], project)
    assert code == 0
    assert "All checks passed!" in out


def test_exit_zero_flag(project):
    code, out, _ = run(["check", "--exit-zero"], project)
    assert code == 0 and "VLM105" in out


def test_json_is_ruff_shaped(project):
    code, out, _ = run(["check", "--output-format", "json"], project)
    assert code == 1
    records = json.loads(out)
    assert len(records) == 1
    record = records[0]
    # The keys of ruff's JSON (ruff 0.17), vLLM's error text, and the release checked against.
    ruff_keys = {"cell", "code", "end_location", "filename", "fix", "location", "message", "name", "noqa_row", "severity", "url"}
    assert set(record) == ruff_keys | {"vllm_error", "target_version", "target_version_from"}
    assert record["code"] == "VLM105"
    assert (record["name"], record["severity"]) == ("replay-logprobs-mode", "error")
    assert record["message"] == 'return_sampling_mask=True needs logprobs_mode="processed_logprobs" (vLLM\'s default is "raw_logprobs")'
    assert record["vllm_error"] == (
        "sampling distribution replay requires logprobs_mode='processed_logprobs' so that returned logprobs "
        "are normalized over the same nucleus as the sampling mask"
    )
    assert record["location"] == {"row": 2, "column": 7}
    assert record["end_location"]["row"] == 2
    assert record["filename"] == str(project / "pkg" / "train.py")
    assert record["noqa_row"] == 2
    assert not record["message"].startswith("VLM105")


def test_select_ignore_and_per_file_ignores(project):
    assert run(["check", "--ignore", "VLM105"], project)[0] == 0
    assert run(["check", "--select", "VLM2"], project)[0] == 0
    assert run(["check", "--select", "VLM1,VLM3"], project)[0] == 1
    (project / "pyproject.toml").write_text('[tool.vllm-lint]\nper-file-ignores = { "pkg/train.py" = ["VLM105"] }\n')
    assert run(["check"], project)[0] == 0


def test_exclude_globs_match_components(project):
    assert run(["check", "--exclude", "pkg"], project)[0] == 0
    assert run(["check", "--exclude", "train.*,other"], project)[0] == 0
    assert run(["check", "--exclude", "other", "--exclude", "tra*.py"], project)[0] == 0
    # Named on the command line, a file is linted unless --force-exclude.
    assert run(["check", "--exclude", "train.py", "pkg/train.py"], project)[0] == 1
    assert run(["check", "--exclude", "train.py", "--force-exclude", "pkg/train.py"], project)[0] == 0


def test_config_exclude_and_select(project):
    (project / "pyproject.toml").write_text('[tool.vllm-lint]\nexclude = ["pkg"]\n')
    assert run(["check"], project)[0] == 0
    (project / "pyproject.toml").write_text('[tool.vllm-lint]\nselect = ["VLM2"]\n')
    assert run(["check"], project)[0] == 0


def test_bad_config_is_usage_error(project):
    (project / "pyproject.toml").write_text('[tool.vllm-lint]\ntarget-version = "next"\n')
    code, _, err = run(["check"], project)
    assert code == 2 and "target-version" in err
    (project / "pyproject.toml").write_text('[tool.vllm-lint]\nselects = ["VLM"]\n')
    code, _, err = run(["check"], project)
    assert code == 2 and "selects" in err


def test_statistics(project):
    (project / "pkg" / "more.py").write_text(BAD)
    code, out, _ = run(["check", "--statistics"], project)
    assert code == 1
    assert out.splitlines() == [
        "2\tVLM105\t[*] replay-logprobs-mode",
        "Found 2 errors.",
        "[*] 2 fixable with the `--fix` option.",
    ]
    assert run(["check", "--statistics", "-q"], project)[1] == "2\tVLM105\t[*] replay-logprobs-mode\n"


def test_statistics_as_json(project):
    """``--statistics --output-format json`` prints ruff's statistics JSON, nothing else."""
    (project / "pkg" / "more.py").write_text(BAD)
    (project / "pkg" / "broken.py").write_text("from vllm import LLM\nLLM(return_sampling_mask=True\n")
    code, out, _ = run(["check", "--statistics", "--output-format", "json"], project)
    assert code == 1
    assert json.loads(out) == [
        {"code": "VLM105", "name": "replay-logprobs-mode", "count": 2, "fixable": True, "fixable_count": 2},
        {"code": None, "name": "cannot-parse", "count": 1, "fixable": False, "fixable_count": 0},
    ]


def test_stdin(project):
    code, out, _ = run(["check", "-", "--stdin-filename", "pkg/new.py"], project, stdin=BAD.encode())
    assert code == 1
    assert out.startswith("pkg/new.py:2:7: VLM105")


SERVE_SH = "#!/bin/sh\nMODEL=Qwen/Qwen3-8B\nvllm serve $MODEL --return-sampling-mask\n"
SERVE_YAML = "services:\n  vllm:\n    image: vllm/vllm-openai:v0.34.0\n    command: [Qwen/Qwen3-8B, --return-sampling-mask]\n"
SERVE_DOCKERFILE = "FROM python:3.12-slim\nCMD vllm serve Qwen/Qwen3-8B --return-sampling-mask\n"


@pytest.mark.parametrize(
    "name, text, where",
    [
        ("serve.sh", SERVE_SH, "3:19"),
        ("deploy/compose.yaml", SERVE_YAML, "4:30"),
        ("Dockerfile", SERVE_DOCKERFILE, "2:30"),
    ],
)
def test_stdin_filename_picks_the_front_end(project, name, text, where):
    """Standard input is read by the front end its --stdin-filename names, as a file of that name would be."""
    code, out, err = run(["check", "--output-format", "concise", "--stdin-filename", name, "-"], project, stdin=text.encode())
    assert "cannot parse" not in out, out
    assert code == 1, err
    assert out.startswith(f"{name}:{where}: VLM105 ")
    # --fix - prints the fixed text, fixed by the same front end.
    code, out, err = run(["check", "--fix", "--stdin-filename", name, "-"], project, stdin=text.encode())
    assert code == 0, err
    assert out.startswith(text.splitlines()[0]) and "processed_logprobs" in out


def test_noqa(project):
    (project / "pkg" / "train.py").write_text(
        'from vllm import LLM\nllm = LLM(\n    "Qwen/Qwen3-4B",\n    return_sampling_mask=True,  # noqa: VLM105\n)\n'
    )
    assert run(["check"], project)[0] == 0
    (project / "pkg" / "train.py").write_text(BAD.replace("True)", "True)  # noqa: VLM104"))
    assert run(["check"], project)[0] == 1
    (project / "pkg" / "train.py").write_text(BAD.replace("True)", "True)  # noqa"))
    assert run(["check"], project)[0] == 0


@pytest.mark.parametrize(
    "pin, version",
    [
        ("vllm==0.30.0", "0.30"),
        ("vllm~=0.33.0", "0.33"),
        ("vllm[audio]==0.28.0  # replay", "0.28"),
        ("vllm>=0.30", "0.30-0.34"),  # a range admits every release it names
    ],
)
def test_target_version_from_requirements(project, pin, version):
    (project / "requirements.txt").write_text(f"torch\n{pin}\n")
    (project / ".git").mkdir()
    code, out, _ = run(["check", "--show-settings", "pkg"], project)
    assert code == 0
    assert f"target version: {version} " in out


def test_target_version_order(project):
    (project / ".git").mkdir()
    (project / "pyproject.toml").write_text(
        '[project]\nname = "x"\ndependencies = ["vllm==0.30.0"]\n\n[tool.vllm-lint]\ntarget-version = "0.33"\n'
    )
    out = run(["check", "--show-settings"], project)[1]
    assert "target version: 0.33 (from target-version in" in out
    out = run(["check", "--show-settings", "--target-version", "0.28.1"], project)[1]
    assert "target version: 0.28 (from --target-version)" in out
    (project / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["vllm==0.30.0"]\n')
    out = run(["check", "--show-settings"], project)[1]
    assert "target version: 0.30 (from vllm==0.30.0 at" in out
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n')
    out = run(["check", "--show-settings"], project)[1]
    assert "target version: 0.34 (from the newest vLLM release the rules know: no pin found)" in out


def test_version_changes_findings(project):
    (project / "pkg" / "train.py").write_text(
        "import os\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n" + GOOD
    )
    assert run(["check", "--target-version", "0.34"], project)[0] == 0
    code, out, _ = run(["check", "--target-version", "0.33"], project)
    assert code == 1 and "VLM101" in out
    assert run(["check", "--target-version", "0.99"], project)[0] == 0  # newer than known: newest rules


def test_unreadable_and_missing_paths(project):
    code, out, _ = run(["check", "missing.py", "pkg"], project)
    assert code == 1
    assert "missing.py: cannot parse: cannot read: no such file or directory" in out


def test_rule_command():
    out = io.StringIO()
    from vllm_lint.cli import build_parser, run_rule

    assert run_rule(build_parser().parse_args(["rule", "VLM105"]), out) == 0
    text = out.getvalue()
    assert text.startswith("# VLM105 replay-logprobs-mode")
    assert "## Why is this bad?" in text
    # Without a code: a table, one line per rule.
    from vllm_lint.rules import ALL_RULES

    out = io.StringIO()
    run_rule(build_parser().parse_args(["rule"]), out)
    assert [line.split()[0] for line in out.getvalue().splitlines()] == [rule.code for rule in ALL_RULES]
    # --all: every rule's documentation, as `rule CODE` prints it.
    out = io.StringIO()
    run_rule(build_parser().parse_args(["rule", "--all"]), out)
    everything = out.getvalue()
    for rule in ALL_RULES:
        single = io.StringIO()
        run_rule(build_parser().parse_args(["rule", rule.code]), single)
        assert single.getvalue() in everything
    assert everything.count("## Why is this bad?") == len(ALL_RULES)


def test_main_usage_error():
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "--output-format", "xml"])
    assert exit_info.value.code == 2


BAD_INPUTS = {
    "syntax.py": b"from vllm import LLM\nllm = LLM(return_sampling_mask=True\n",
    "latin1.py": b"from vllm import LLM\n# caf\xe9\nllm = LLM(return_sampling_mask=True)\n",
    "binary.py": b"\x00\x01vllm return_sampling_mask=True\x00",
    "deep.py": b"from vllm import LLM\nx = " + b"(" * 300 + b"1" + b")" * 300 + b"\nLLM(return_sampling_mask=True)\n",
}


def test_bad_input_one_diagnostic_each(tmp_path):
    for name, data in BAD_INPUTS.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "bom_crlf.py").write_bytes(b"\xef\xbb\xbf" + BAD.replace("\n", "\r\n").encode())
    (tmp_path / "empty.py").write_bytes(b"")
    code, out, err = run(["check", "."], tmp_path)
    assert code == 1
    assert "Traceback" not in err
    lines = out.splitlines()
    for name in BAD_INPUTS:
        matching = [line for line in lines if line.startswith(f"{name}: cannot parse: ")]
        assert len(matching) == 1, (name, out)
    assert any(line.startswith("bom_crlf.py:2:7: VLM105") for line in lines)
    records = json.loads(run(["check", ".", "--output-format", "json"], tmp_path)[1])
    assert {os.path.basename(r["filename"]) for r in records if r["code"] is None} == set(BAD_INPUTS)


def test_columns_count_characters_like_ruff(tmp_path):
    (tmp_path / "engine.py").write_text(
        'from vllm import LLM\nlabel = "modèle"; llm = LLM("m", return_sampling_mask=True)\n', encoding="utf-8"
    )
    code, out, _ = run(["check", "engine.py"], tmp_path)
    assert code == 1
    assert out.startswith("engine.py:2:25: VLM105")
    record = json.loads(run(["check", "engine.py", "--output-format", "json"], tmp_path)[1])[0]
    assert record["location"] == {"row": 2, "column": 25}
