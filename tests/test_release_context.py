"""Where each finding's release comes from: in its message, in JSON and SARIF, in
``--show-settings``; and a target-version the rules do not know."""

from __future__ import annotations

import contextlib
import json
import os
from io import StringIO

import pytest

from fixtures import TESTDATA

PINS = TESTDATA / "pins"


def run(*argv: str) -> tuple[int, str]:
    from vllm_lint.cli import main

    out = StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(list(argv))
    return code, out.getvalue()


@pytest.fixture
def in_testdata(monkeypatch):
    monkeypatch.chdir(TESTDATA)


def test_json_and_sarif_name_the_release_and_where_it_is_written(in_testdata):
    code, out = run("check", "--output-format", "json", "pins/helm-chart")
    [record] = json.loads(out)
    assert (record["target_version"], record["target_version_from"]) == ("0.10", "pins/helm-chart/values.yaml:4")
    assert record["message"].endswith("(vLLM 0.10 from pins/helm-chart/values.yaml:4)")
    code, out = run("check", "--output-format", "sarif", "pins/wheel-url")
    [result] = json.loads(out)["runs"][0]["results"]
    assert result["properties"] == {"target_version": "0.10", "target_version_from": "pins/wheel-url/requirements.txt:3"}


def test_a_release_in_the_same_file_is_named_by_its_line(in_testdata):
    code, out = run("check", "--output-format", "json", "pins/skypilot/serve.yaml")
    [record] = json.loads(out)
    assert record["target_version_from"] == "pins/skypilot/serve.yaml:15"
    assert record["message"].endswith("(vLLM 0.10 from line 15)")


def test_no_pin_and_a_chosen_release_say_nothing_new_in_the_message(in_testdata, tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "serve.py").write_text('from vllm import LLM\nllm = LLM("m", task="generate")\n')
    code, out = run("check", "--output-format", "json", str(tmp_path))
    [record] = json.loads(out)
    assert (record["target_version"], record["target_version_from"]) == ("0.34", None)
    assert record["message"].endswith("(checked against vLLM 0.34, the newest known: no pin found; set target-version)")
    code, out = run("check", "--output-format", "json", "--target-version", "0.13", str(tmp_path))
    [record] = json.loads(out)
    assert (record["target_version"], record["target_version_from"]) == ("0.13", "--target-version")
    assert record["message"] == "task is not an argument of LLM in vLLM 0.13 (removed in 0.13); replaced by convert or runner (vLLM 0.12)"


def test_show_settings_names_each_launch_that_runs_another_release(in_testdata):
    code, out = run("check", "--show-settings", "pins/docker/Dockerfile")
    assert "launch at line 4: 0.9 (from the tag of the image vllm/vllm-openai:v0.9.2 at pins/docker/Dockerfile:3)" in out
    assert "launch at line 9: 0.10 (from the RUN pip install at pins/docker/Dockerfile:8)" in out
    code, out = run("check", "--show-settings", "pins/third-party-image/deployment.yaml")
    assert "launch at line 11: the release its image runs (the tag names none" in out
    code, out = run("check", "--show-settings", "pins/kustomize/base/deployment.yaml")
    assert "launch at line 18: 0.10 (from the tag of the image vllm/vllm-openai:v0.10.2 (set at " in out


@pytest.mark.parametrize("value", ["0.3", "0.7", "1", "latest"])
def test_a_target_version_the_rules_do_not_know_is_an_error_naming_the_known_ones(tmp_path, value):
    code, out = run("check", "--target-version", value, str(tmp_path))
    assert code == 2 and "--target-version" in out
    if value[0].isdigit() and "." in value:
        assert "known: 0.8-0.34, or newer" in out
    (tmp_path / "pyproject.toml").write_text(f'[tool.vllm-lint]\ntarget-version = "{value}"\n')
    code, out = run("check", str(tmp_path))
    assert code == 2 and "target-version" in out


def test_a_target_version_newer_than_the_known_ones_uses_the_newest_rules_and_says_so(tmp_path):
    (tmp_path / "serve.sh").write_text("vllm serve m --served-model-name m --return-sampling-mask --logprobs-mode processed_logits\n")
    code, out = run("check", "--target-version", "0.35", "--show-settings", str(tmp_path / "serve.sh"))
    assert "target version: 0.34 (from --target-version (0.35 is newer than the newest release the rules know: 0.34's rules apply))" in out
    code, out = run("check", "--target-version", "0.35", "--output-format", "concise", str(tmp_path / "serve.sh"))
    newest = run("check", "--target-version", "0.34", "--output-format", "concise", str(tmp_path / "serve.sh"))[1]
    assert out == newest and "VLM105" in out  # the choice checks of the newest release too


def test_broken_carriers_pin_nothing_and_never_raise(tmp_path):
    from vllm_lint.config import VersionResolver

    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_bytes(
        b"-r \x00bad.txt\n-c missing.txt\nvllm @ https://[::1/vllm-0.10.2-cp38-abi3-linux_x86_64.whl\n"
        b"vllm @ git+https://github.com/vllm-project/vllm@@@\nvllm===\xff\xfe\n-r requirements.txt\n"
    )
    (tmp_path / "Dockerfile").write_text("ARG V=${V:-\nFROM vllm/vllm-openai:v${V\nRUN pip install vllm==${\nENTRYPOINT [\"python\"\n")
    (tmp_path / "kustomization.yaml").write_text("resources: [deployment.yaml\nimages: {{\n")
    (tmp_path / "deployment.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - image: vllm/vllm-openai\n      args: [--model, m, --task, generate]\n"
    )
    (tmp_path / "kaito.yaml").write_text("kind: ConfigMap\ndata:\n  inference_config.yaml: |\n    vllm: [unclosed\n      - {\n")
    version, why = VersionResolver().for_path(str(tmp_path / "serve.py"))
    assert version.assumed
    code, out = run("check", str(tmp_path))
    assert "Traceback" not in out and code in (0, 1)


def test_explain_names_each_launchs_own_release_and_where_it_is_written(in_testdata, capsys):
    code, out = run("explain", "pins/docker/Dockerfile", "--output-format", "json")
    engines = json.loads(out)
    engines = engines if isinstance(engines, list) else engines.get("engines", [])
    sources = [(engine["target_version"], engine["target_version_from"]) for engine in engines]
    assert sources[:3] == [
        ("0.9", "the tag of the image vllm/vllm-openai:v0.9.2 at pins/docker/Dockerfile:3"),
        ("0.10", "the RUN pip install at pins/docker/Dockerfile:8"),
        ("0.12", "the RUN pip install at pins/docker/Dockerfile:13"),
    ]
