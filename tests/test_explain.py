"""``vllm-lint explain PATH[:LINE]``: the configuration each engine gets, with origins."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vllm_lint.cli import main
from vllm_lint.facts import Trace

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "testdata" / "explain"


@pytest.fixture(autouse=True)
def in_fixtures(monkeypatch):
    monkeypatch.chdir(FIXTURES)


def explain(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["explain", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def engines(capsys, *argv: str) -> list[dict]:
    code, out, err = explain(capsys, *argv, "--output-format", "json")
    assert code == 0, err
    return json.loads(out)["engines"]


def only(capsys, *argv: str) -> dict:
    found = engines(capsys, *argv)
    assert len(found) == 1, found
    return found[0]


# ------------------------------------------------------------------ Python


def test_literal_keywords_are_known_where_written(capsys):
    engine = only(capsys, "requests.py", "--target-version", "0.33")
    mask = engine["settings"]["return_sampling_mask"]
    assert mask == {
        "state": "known",
        "value": True,
        "origin": {"path": "requests.py", "line": 3, "col": 28, "kind": "keyword"},
        "via": [],
    }
    assert engine["settings"]["logprobs_mode"]["value"] == "processed_logprobs"
    assert engine["settings"]["model"]["origin"]["kind"] == "positional"


def test_dict_entry_splatted_into_the_constructor(capsys):
    engine = only(capsys, "train.py", "--target-version", "0.33")
    mask = engine["settings"]["return_sampling_mask"]
    assert mask["origin"] == {"path": "train.py", "line": 3, "col": 18, "kind": "dict-entry"}
    assert mask["via"] == [{"step": "splatted", "path": "train.py", "line": 4, "col": 28}]
    # Every argument set anywhere is listed, not only the replay settings.
    assert engine["settings"]["tensor_parallel_size"]["value"] == 2
    assert engine["findings"] == ["VLM105"]


def test_dict_flow_in_text(capsys):
    code, out, _ = explain(capsys, "train.py", "--target-version", "0.33")
    assert code == 0
    assert "dict entry at train.py:3:18, splatted at train.py:4:28" in out
    assert out.startswith("train.py:4: LLM (vLLM 0.33)\n")
    assert "findings: VLM105" in out


def test_value_passed_through_a_helper_of_another_module(capsys):
    engine = only(capsys, "project/train.py", "--target-version", "0.33")
    mask = engine["settings"]["return_sampling_mask"]
    assert mask["value"] is True
    assert mask["origin"] == {"path": "project/helpers.py", "line": 7, "col": 9, "kind": "keyword"}
    assert mask["via"] == [{"step": "called-from", "path": "project/train.py", "line": 5, "col": 11}]
    assert engine["built_at"] == {"path": "project/helpers.py", "line": 5, "col": 12}
    # A keyword of the call that lands in the helper's **overrides, then in the constructor.
    seed = engine["settings"]["seed"]
    assert seed["origin"]["path"] == "project/train.py"
    assert seed["via"] == [{"step": "splatted", "path": "project/helpers.py", "line": 8, "col": 9}]
    assert engine["findings"] == ["VLM105"]
    code, out, _ = explain(capsys, "project/train.py", "--target-version", "0.33")
    assert "keyword at project/helpers.py:7:9, called from project/train.py:5:11" in out


def test_defaults_of_the_target_release(capsys):
    engine = only(capsys, "train.py", "--target-version", "0.33")
    assert engine["settings"]["logprobs_mode"] == {"state": "default", "value": "raw_logprobs", "from": "vLLM 0.33's default"}
    assert engine["settings"]["enable_trace_replay"]["value"] is False
    assert engine["env"]["VLLM_USE_V2_MODEL_RUNNER"]["state"] == "default"


def test_settings_a_release_lacks_are_not_listed(capsys):
    # enable_trace_replay arrived in 0.29, return_sampling_mask in 0.28.
    engine = only(capsys, "requests.py", "--target-version", "0.28")
    assert "enable_trace_replay" not in engine["settings"]
    assert "enable_batch_sharded_sampling" not in engine["settings"]
    old = only(capsys, "train.py", "--target-version", "0.20")
    # Written, so listed, though 0.20 does not know it: the schema says so.
    assert old["settings"]["return_sampling_mask"]["state"] == "known"
    assert old["settings"]["return_sampling_mask"]["note"] == "not an argument of LLM in vLLM 0.20 (added in 0.28)"
    assert "note" not in old["settings"]["tensor_parallel_size"]
    assert old["findings"] == ["VLM301"]
    assert old["runner"]["runner"] == "not modelled"
    assert "enable_trace_replay" not in old["settings"]


def test_a_default_vllm_lint_does_not_know_is_not_invented(capsys):
    engine = only(capsys, "requests.py", "--target-version", "0.33")
    assert engine["settings"]["model"]["state"] == "known"
    # The model default differs between releases: when nothing names it, explain says it does not know.
    from vllm_lint.explain.report import ENGINE_DEFAULTS, NOT_KNOWN

    assert ENGINE_DEFAULTS["model"][0][1] is NOT_KNOWN


def test_request_parameters_and_their_defaults(capsys):
    engine = only(capsys, "requests.py", "--target-version", "0.33")
    [request] = engine["requests"]
    assert request["line"] == 4
    assert request["settings"]["temperature"]["value"] == 0.0
    assert request["settings"]["temperature"]["origin"]["line"] == 4
    assert request["settings"]["top_k"] == {"state": "default", "value": 0, "from": "vLLM 0.33's default"}
    assert request["settings"]["max_tokens"]["value"] == 64
    assert request["findings"] == ["VLM201"]
    assert engine["findings"] == []


def test_the_reason_names_the_splat_that_is_not_known(capsys, tmp_path):
    """Of several ``**mapping``s, the one whose keys are not all known is named, not the first."""
    source = tmp_path / "rollout.py"
    source.write_text(
        "from vllm import LLM\n"
        "\n"
        "\n"
        "def build(config, sizes):\n"
        "    compilation = {}\n"
        "    if sizes:\n"
        '        compilation["compilation_config"] = {"cudagraph_capture_sizes": sizes}\n'
        '    engine_kwargs = dict(config.get("engine_kwargs", {}))\n'
        '    return LLM(model="m", return_sampling_mask=True, **compilation, **engine_kwargs)\n'
    )
    engine = only(capsys, str(source), "--target-version", "0.34")
    assert engine["settings"]["logprobs_mode"]["reason"] == "unresolved **engine_kwargs"


def test_an_unresolved_star_args_is_named_over_a_resolved_mapping(capsys, tmp_path):
    source = tmp_path / "engine.py"
    source.write_text(
        "from vllm import EngineArgs, LLMEngine\n"
        "\n"
        "\n"
        "def build(args):\n"
        '    known = {"model": "m"}\n'
        "    return LLMEngine.from_engine_args(EngineArgs(*args, **known, return_sampling_mask=True))\n"
    )
    engine = only(capsys, str(source), "--target-version", "0.34")
    assert engine["settings"]["logprobs_mode"]["reason"] == "unresolved *args"


def test_a_request_of_unknown_keys_says_which_splat(capsys, tmp_path):
    """Requests have no record of the splat that opened them: the first ``**mapping`` is named."""
    source = tmp_path / "generate.py"
    source.write_text(
        "from vllm import LLM, SamplingParams\n"
        "\n"
        'llm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
        "\n"
        "\n"
        "def generate(prompts, generation_kwargs):\n"
        "    return llm.generate(prompts, SamplingParams(**generation_kwargs))\n"
    )
    [request] = only(capsys, str(source), "--target-version", "0.34")["requests"]
    assert request["settings"]["top_k"]["reason"] == "unresolved **generation_kwargs (a parameter of generate)"


def test_unknowns_say_why(capsys):
    helper, main_engine, evaluation = engines(capsys, "unknowns.py", "--target-version", "0.33")
    assert helper["line"] == 7
    assert helper["settings"]["return_sampling_mask"]["state"] == "unknown"
    assert helper["settings"]["return_sampling_mask"]["reason"] == "from a parameter of build: mask"
    assert helper["settings"]["logprobs_mode"]["reason"] == "unresolved **engine_kwargs (a parameter of build)"
    assert main_engine["settings"]["logprobs_mode"]["state"] == "unknown"
    assert main_engine["settings"]["logprobs_mode"]["reason"] == "runtime data: args.logprobs_mode"
    assert main_engine["settings"]["logprobs_mode"]["origin"]["line"] == 17
    # Unknown means silence: no finding on either.
    assert helper["findings"] == [] and main_engine["findings"] == []
    assert main_engine["runner"]["reason"] == "nothing known selects V1; an unknown value might"
    # One branch known, the other runtime data: unknown, and the reason names the variable.
    assert evaluation["settings"]["logprobs_mode"]["reason"] == "differs between branches: mode"
    assert evaluation["findings"] == []


def test_settings_through_a_dict_an_actor_and_another_module(capsys, monkeypatch):
    monkeypatch.chdir(ROOT / "testdata" / "python" / "project")
    engine = only(capsys, "rollout/launcher.py:14", "--target-version", "0.33")
    assert engine["built_at"] == {"path": "rollout/actors.py", "line": 19, "col": 23}
    mask = engine["settings"]["return_sampling_mask"]
    assert mask["origin"] == {"path": "rollout/launcher.py", "line": 11, "col": 37, "kind": "dict-entry"}
    assert [(step["step"], step["path"], step["line"]) for step in mask["via"]] == [
        ("merged", "rollout/launcher.py", 11),  # actor_kwargs.update({...})
        ("splatted", "rollout/launcher.py", 14),
        ("splatted", "rollout/actors.py", 19),
    ]
    assert engine["settings"]["model"]["reason"] == "from a parameter of create_rollout_engines: model"
    assert engine["findings"] == ["VLM105"]


def test_values_that_differ_between_branches_are_a_choice(capsys):
    engine = only(capsys, "branches.py", "--target-version", "0.33")
    mode = engine["settings"]["logprobs_mode"]
    assert mode["state"] == "choice"
    assert [option["value"] for option in mode["alternatives"]] == ["processed_logprobs", "raw_logprobs"]
    assert all(option["state"] == "known" for option in mode["alternatives"])
    # One path is clean, so check reports nothing (a must-analysis).
    assert engine["findings"] == []
    code, out, _ = explain(capsys, "branches.py", "--target-version", "0.33")
    assert '"processed_logprobs" | "raw_logprobs"' in out
    assert out.count("    or known") == 2


# ------------------------------------------------------------ command lines


def test_shell_script_with_a_config_file(capsys):
    engine = only(capsys, "serving/serve.sh", "--target-version", "0.33")
    assert engine["kind"] == "vllm serve"
    assert (engine["line"], engine["target_version"]) == (5, "0.33")
    mask = engine["settings"]["return_sampling_mask"]
    assert mask["origin"] == {"path": "serving/replay.yaml", "line": 1, "col": 1, "kind": "config-key"}
    assert mask["via"] == [{"step": "config-file", "path": "serving/serve.sh", "line": 7, "col": 3}]
    assert engine["settings"]["model"]["value"] == "Qwen/Qwen3-4B"
    assert engine["settings"]["tensor_parallel_size"]["value"] == 2
    assert engine["findings"] == []


def test_a_config_file_read_on_its_own(capsys):
    engine = only(capsys, "serving/replay.yaml", "--target-version", "0.33")
    mask = engine["settings"]["return_sampling_mask"]
    # The command line that reads the file may override what it says.
    assert mask["state"] == "unknown"
    assert mask["reason"] == "written here, but the command line that reads this file may override it"
    assert mask["origin"]["line"] == 1


def test_dockerfile_runs_in_the_tagged_image(capsys):
    engine = only(capsys, "serving/Dockerfile")
    assert engine["target_version"] == "0.31"  # the image tag
    assert engine["target_version_from"] == "the tag of the image vllm/vllm-openai:v0.31.0 at serving/Dockerfile:1"
    assert engine["settings"]["return_sampling_mask"]["origin"]["kind"] == "flag"
    assert engine["env"]["VLLM_USE_V2_MODEL_RUNNER"]["value"] == "0"
    assert engine["runner"]["runner"] == "V1"
    assert "VLLM_USE_V2_MODEL_RUNNER=0" in engine["runner"]["reason"]
    assert engine["findings"] == ["VLM101"]


def test_words_a_linter_cannot_expand_make_settings_unknown(capsys):
    engine = only(capsys, "serving/dynamic.sh", "--target-version", "0.33")
    assert engine["settings"]["logprobs_mode"]["state"] == "unknown"
    assert engine["settings"]["logprobs_mode"] == {"state": "unknown", "reason": "unresolved $EXTRA_ARGS (line 2) may set it"}
    # Written before the word that cannot be expanded, which may override it.
    assert engine["settings"]["return_sampling_mask"]["reason"] == "unresolved $EXTRA_ARGS (line 2) may set it"
    assert engine["settings"]["return_sampling_mask"]["origin"]["kind"] == "flag"
    assert engine["findings"] == []


def test_the_scripts_own_arguments_are_read_as_empty_and_noted(capsys):
    engine = only(capsys, "serving/forward.sh", "--target-version", "0.33")
    note = 'unless the arguments passed through at "$@", line 3, set it'
    assert engine["settings"]["logprobs_mode"] == {
        "state": "default",
        "value": "raw_logprobs",
        "from": "vLLM 0.33's default",
        "note": note,
    }
    assert engine["settings"]["return_sampling_mask"]["note"] == note
    assert "note" not in engine["settings"]["tensor_parallel_size"]  # written after: the arguments cannot change it
    assert engine["findings"] == ["VLM105"]
    code, out, _err = explain(capsys, "serving/forward.sh", "--target-version", "0.33")
    assert code == 0 and f"vLLM 0.33's default [{note}]" in out


def test_engine_args_from_the_command_line_of_the_script(capsys):
    engine = only(capsys, "cli_engine.py", "--target-version", "0.33")
    assert engine["kind"] == "EngineArgs"
    assert engine["settings"]["logprobs_mode"] == {"state": "unknown", "reason": "runtime data: a from_cli_args namespace"}
    assert engine["settings"]["return_sampling_mask"]["origin"] == {"path": "cli_engine.py", "line": 7, "col": 1, "kind": "attribute"}


# --------------------------------------------------------------- frameworks


def test_verl_config_maps_keys_to_engine_arguments(capsys):
    engine = only(capsys, "../frameworks/verl/replay_ppo.yaml", "--target-version", "0.33")
    assert engine["framework"] == "verl"
    mask = engine["settings"]["return_sampling_mask"]
    assert mask["value"] is True
    assert mask["origin"]["line"] == 19
    assert mask["via"][0]["step"] == "framework-key"
    assert "actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask -> return_sampling_mask" in mask["via"][0]["detail"]
    rollout, validation = engine["requests"]
    assert rollout["settings"]["temperature"]["origin"]["line"] == 16
    top_k = rollout["settings"]["top_k"]
    assert top_k["state"] == "default" and top_k["value"] == -1
    assert top_k["from"].startswith("verl's default for actor_rollout_ref.rollout.top_k")
    assert validation["findings"] == ["VLM201"]
    assert rollout["findings"] == ["VLM202"]
    assert engine["findings"] == ["VLM201", "VLM202"]


def test_a_framework_config_for_another_backend_has_no_engine(capsys, tmp_path):
    config = tmp_path / "sglang_ppo.yaml"
    config.write_text(
        "actor_rollout_ref:\n  rollout:\n    name: sglang\n    engine_kwargs:\n      vllm:\n        return_sampling_mask: true\n"
    )
    code, out, _ = explain(capsys, str(config))
    assert code == 0
    assert "no vLLM engine" in out


# ------------------------------------------------------------ PATH:LINE


def test_line_of_the_construction_and_inside_the_call(capsys):
    at_call = only(capsys, "unknowns.py:14", "--target-version", "0.33")
    inside = only(capsys, "unknowns.py:17", "--target-version", "0.33")
    assert at_call == inside
    assert at_call["line"] == 14
    helper = only(capsys, "unknowns.py:7", "--target-version", "0.33")
    assert helper["line"] == 7
    command = only(capsys, "serving/serve.sh:6", "--target-version", "0.33")
    assert command["line"] == 5


def test_a_line_with_no_engine_says_so(capsys):
    code, out, _ = explain(capsys, "unknowns.py:11")
    assert code == 1
    assert out == "unknowns.py:11: no engine is constructed or launched on this line\n"
    code, out, _ = explain(capsys, "unknowns.py:11", "--output-format", "json")
    assert code == 1
    assert json.loads(out) == {"engines": [], "message": "unknowns.py:11: no engine is constructed or launched on this line"}


# ----------------------------------------------------------------- output


def test_json_shape(capsys):
    code, out, _ = explain(capsys, "requests.py", "--target-version", "0.33", "--output-format", "json")
    data = json.loads(out)
    assert list(data) == ["engines"]
    [engine] = data["engines"]
    assert list(engine) == [
        "path", "line", "kind", "target_version", "target_version_from", "settings", "env", "runner", "model", "findings", "requests"
    ]
    assert engine["target_version_from"] == "--target-version"
    assert (engine["path"], engine["line"], engine["kind"], engine["target_version"]) == ("requests.py", 3, "LLM", "0.33")
    assert list(engine["settings"]["return_sampling_mask"]) == ["state", "value", "origin", "via"]
    assert list(engine["settings"]["return_sampling_mask"]["origin"]) == ["path", "line", "col", "kind"]
    assert list(engine["settings"]["speculative_config"]) == ["state", "value", "from"]
    assert list(engine["runner"]) == ["runner", "reason"]
    assert list(engine["requests"][0]) == ["path", "line", "settings", "findings"]
    unknown = only(capsys, "unknowns.py:14")["settings"]["logprobs_mode"]
    assert list(unknown) == ["state", "reason", "origin"]
    choice = only(capsys, "branches.py")["settings"]["logprobs_mode"]
    assert list(choice) == ["state", "alternatives"]


def test_text_is_a_table_per_engine(capsys):
    code, out, _ = explain(capsys, "unknowns.py", "--target-version", "0.33")
    assert code == 0
    blocks = out.split("\n\n")
    assert [block.splitlines()[0] for block in blocks] == [
        "unknowns.py:7: LLM (vLLM 0.33)",
        "unknowns.py:14: LLM (vLLM 0.33)",
        "unknowns.py:27: LLM (vLLM 0.33)",
    ]
    table = blocks[1].splitlines()[1:10]
    # Aligned columns: the state column starts at the same place on every row.
    starts = {line.index(state) for line in table for state in ("state", "known", "default", "unknown") if f" {state} " in line}
    assert len(starts) == 1


def test_target_version_from_the_project_pin(capsys, tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.31.0\n")
    script = tmp_path / "rollout.py"
    script.write_text('from vllm import LLM\n\nllm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True)\n')
    engine = only(capsys, str(script))
    assert engine["target_version"] == "0.31"
    assert engine["target_version_from"] == f"vllm==0.31.0 at {tmp_path / 'requirements.txt'}:1"
    assert engine["settings"]["logprobs_mode"]["from"] == "vLLM 0.31's default"


def test_defaults_under_a_pin_that_admits_several_releases_say_which_releases_they_hold_for(capsys, tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm>=0.8.5,<0.35\n")
    script = tmp_path / "rollout.py"
    script.write_text(
        "from vllm import LLM, SamplingParams\n\n"
        'llm = LLM("Qwen/Qwen3-4B", logprobs_mode="processed_logprobs")\n'
        "outputs = llm.generate(prompts, SamplingParams(max_tokens=64))\n"
    )
    engine = only(capsys, str(script))
    assert engine["target_version"] == "0.8-0.34"
    settings = engine["settings"]
    assert settings["speculative_config"]["from"] == "vLLM 0.8-0.34's default"
    # Replay arrived in 0.28: older admitted releases have no such argument.
    assert settings["return_sampling_mask"]["from"] == "vLLM 0.28-0.34's default (not an argument in 0.8-0.27)"
    # top_k's default changed in 0.10: the newest release's value, and the older one's.
    [request] = engine["requests"]
    assert request["settings"]["top_k"] == {"state": "default", "value": 0, "from": "vLLM 0.34's default (-1 in 0.8-0.9)"}


def test_an_argument_some_admitted_releases_lack_is_noted_with_those_releases(capsys, tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm>=0.8.5\n")
    script = tmp_path / "server.py"
    script.write_text(
        "from vllm import AsyncEngineArgs\n\n"
        'engine_args = AsyncEngineArgs(model="Qwen/Qwen3-4B", disable_log_requests=True)\n'
    )
    engine = only(capsys, str(script))
    # Removed in 0.10: the releases from there on lack it, 0.8 and 0.9 have it, so check is silent.
    assert engine["settings"]["disable_log_requests"]["note"] == "not an argument of AsyncEngineArgs in vLLM 0.10-0.34 (removed in 0.10)"
    assert engine["findings"] == []


# -------------------------------------------------------------- bad input


def test_missing_file(capsys):
    code, out, err = explain(capsys, "missing.py")
    assert code == 1
    assert err == "missing.py: cannot parse: cannot read: no such file or directory\n"
    assert out == ""


def test_unparsable_python_and_yaml(capsys):
    code, _, err = explain(capsys, "broken.py")
    assert code == 1
    assert err == "broken.py: cannot parse: syntax error: '(' was never closed (line 3)\n"
    code, _, err = explain(capsys, "broken.yaml")
    assert code == 1
    assert err.startswith("broken.yaml: cannot parse: invalid YAML:")
    assert "Traceback" not in err


def test_file_without_vllm_that_does_not_parse(capsys, tmp_path):
    script = tmp_path / "notes.py"
    script.write_text("def broken(:\n")
    code, _, err = explain(capsys, str(script))
    assert code == 1
    assert "cannot parse: syntax error" in err


def test_binary_and_non_utf8(capsys, tmp_path):
    binary = tmp_path / "serve.sh"
    binary.write_bytes(b"vllm serve m --return-sampling-mask\0\0")
    code, _, err = explain(capsys, str(binary))
    assert code == 1 and "binary file" in err
    latin = tmp_path / "run.py"
    latin.write_bytes(b'from vllm import LLM\n# caf\xe9\nllm = LLM("m", return_sampling_mask=True)\n')
    code, _, err = explain(capsys, str(latin))
    assert code == 1 and "invalid utf-8" in err


def test_usage_errors(capsys):
    code, _, err = explain(capsys, ".")
    assert code == 2 and "explain reads one file" in err
    code, _, err = explain(capsys, "train.py", "--target-version", "zero")
    assert code == 2 and "not a vLLM version" in err


def test_a_file_without_engines(capsys, tmp_path):
    plain = tmp_path / "util.py"
    plain.write_text("import os\n\nprint(os.getcwd())\n")
    code, out, _ = explain(capsys, str(plain))
    assert code == 0
    assert out == f"{plain}: no vLLM engine is constructed or launched in this file\n"


# ------------------------------------------------------------ no cost for check


def test_tracing_is_off_after_explain(capsys):
    explain(capsys, "train.py")
    assert Trace.active is False


def test_check_does_not_load_explain_nor_record_steps():
    code = (
        "import sys\n"
        "from vllm_lint.cli import main\n"
        "main(['check', '-q', '--exit-zero', 'train.py'])\n"
        "assert 'vllm_lint.explain' not in sys.modules, 'explain loaded by check'\n"
        "from vllm_lint.python import analyze_tree\n"
        "from vllm_lint.python.analyzer import analyze_module\n"
        "import ast\n"
        "analysis = analyze_module(ast.parse(open('train.py').read()))\n"
        "origin = analysis.engines[0].fields['return_sampling_mask'].origin\n"
        "assert origin.via == (), origin\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run([sys.executable, "-c", code], cwd=FIXTURES, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_via_is_not_part_of_equality():
    from vllm_lint.facts import Origin, Span, Step, moved

    origin = Origin(Span(3, 4), "dict-entry")
    travelled = moved(origin, Step("splatted", Span(4, 2)))
    assert travelled == origin and hash(travelled) == hash(origin)
    assert travelled.via == (Step("splatted", Span(4, 2)),)


def test_help_documents_explain(capsys):
    with pytest.raises(SystemExit):
        main(["explain", "--help"])
    out = capsys.readouterr().out
    assert "PATH[:LINE]" in out and "--output-format" in out
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "vllm-lint explain" in readme
    assert (ROOT / "docs" / "explain.md").is_file()


# ------------------------------------------------------------- launches


def test_value_passed_by_name_shows_its_assignment(capsys):
    engine = only(capsys, "branches.py", "--target-version", "0.33")
    first, second = engine["settings"]["logprobs_mode"]["alternatives"]
    assert first["via"] == [{"step": "assignment", "path": "branches.py", "line": 6, "col": 12}]
    assert second["via"] == [{"step": "assignment", "path": "branches.py", "line": 8, "col": 12}]


def test_hydra_overrides_of_a_framework_launch(capsys):
    engine = only(capsys, "../frameworks/skyrl/run_gsm8k_replay.sh", "--target-version", "0.33")
    assert (engine["kind"], engine["framework"]) == ("skyrl launch", "skyrl")
    assert (engine["line"]) == 4
    mask = engine["settings"]["return_sampling_mask"]
    assert mask["origin"] == {"path": "../frameworks/skyrl/run_gsm8k_replay.sh", "line": 10, "col": 3, "kind": "override"}
    assert mask["via"][0]["detail"] == "skyrl: generator.inference_engine.engine_init_kwargs.return_sampling_mask -> return_sampling_mask"
    [request] = engine["requests"]
    assert request["settings"]["top_k"]["state"] == "default"
    assert request["settings"]["top_k"]["from"].startswith("skyrl's default for generator.sampling_params.top_k")
    assert engine["findings"] == ["VLM202"]
    # Any line of the command selects it.
    assert only(capsys, "../frameworks/skyrl/run_gsm8k_replay.sh:7", "--target-version", "0.33")["line"] == 4


def test_framework_launched_from_a_python_argv_list(capsys):
    replay, clean = engines(capsys, "../frameworks/verl/launch_from_python.py", "--target-version", "0.33")
    assert replay["kind"] == "verl launch"
    assert replay["settings"]["return_sampling_mask"]["origin"]["line"] == 7
    assert replay["findings"] == ["VLM201", "VLM202"]
    assert clean["settings"]["return_sampling_mask"]["origin"]["line"] == 13
    assert clean["findings"] == []


def test_server_started_from_a_python_argv_list(capsys):
    engine = only(capsys, "launch_server.py", "--target-version", "0.33")
    assert engine["kind"] == "vllm serve"
    assert engine["settings"]["return_sampling_mask"]["origin"] == {"path": "launch_server.py", "line": 3, "col": 17, "kind": "flag"}
    assert engine["settings"]["model"]["origin"]["line"] == 7
    # The argv list's line selects it, as do the flag's and the call that starts the process.
    assert only(capsys, "launch_server.py:7", "--target-version", "0.33") == engine
    assert only(capsys, "launch_server.py:8", "--target-version", "0.33") == engine
    code, out, _ = explain(capsys, "launch_server.py:5")
    assert code == 1 and "no engine" in out


def test_dicts_merged_before_the_splat(capsys):
    engine = only(capsys, "merged.py", "--target-version", "0.33")
    mask = engine["settings"]["return_sampling_mask"]
    assert mask["origin"]["line"] == 3
    assert [(step["step"], step["line"]) for step in mask["via"]] == [("merged", 5), ("merged", 6), ("splatted", 7)]
    assert engine["settings"]["enforce_eager"]["via"] == [{"step": "splatted", "path": "merged.py", "line": 7, "col": 28}]


def test_documented_example_is_the_real_output(capsys):
    readme = (ROOT / "docs" / "explain.md").read_text(encoding="utf-8")
    command = "$ vllm-lint explain train.py --target-version 0.33\n"
    shown = readme.split(command, 1)[1].split("```", 1)[0]
    code, out, _ = explain(capsys, "train.py", "--target-version", "0.33")
    assert code == 0
    assert out == shown


def test_argv_rendered_from_a_dict(capsys):
    engine = only(capsys, "argv_from_dict.py", "--target-version", "0.33")
    mask = engine["settings"]["return_sampling_mask"]
    assert mask["origin"] == {"path": "argv_from_dict.py", "line": 3, "col": 16, "kind": "dict-entry"}
    assert mask["via"] == [{"step": "rendered", "path": "argv_from_dict.py", "line": 7, "col": 21}]
    size = engine["settings"]["tensor_parallel_size"]
    assert (size["value"], size["origin"]["line"], size["via"][0]["line"]) == (2, 3, 9)
    assert engine["findings"] == ["VLM105"]
    # The dict's line and the subprocess call's line select the launch too.
    assert only(capsys, "argv_from_dict.py:3", "--target-version", "0.33") == engine
    assert only(capsys, "argv_from_dict.py:10", "--target-version", "0.33") == engine
    # The line that renders a flag from the dict selects it too.
    assert only(capsys, "argv_from_dict.py:9", "--target-version", "0.33") == engine


def test_helper_of_the_same_module_per_call(capsys):
    policy, reference, alone = engines(capsys, "same_module.py", "--target-version", "0.33")
    assert policy["line"] == reference["line"] == alone["line"] == 5
    assert policy["called_from"] == [{"step": "called-from", "path": "same_module.py", "line": 8, "col": 10}]
    assert policy["settings"]["return_sampling_mask"]["value"] is True
    assert policy["settings"]["return_sampling_mask"]["via"] == policy["called_from"]
    assert policy["findings"] == ["VLM105"]
    assert reference["settings"]["return_sampling_mask"]["value"] is False
    assert reference["findings"] == []
    # The function analysed on its own: the parameter is one of what its callers pass.
    assert "called_from" not in alone
    mask = alone["settings"]["return_sampling_mask"]
    assert mask["state"] == "choice"
    assert sorted(alternative["value"] for alternative in mask["alternatives"]) == [False, True]
    assert alone["findings"] == []  # replay is on for one call only: reported there
    # The call's line selects the engine built for it.
    assert only(capsys, "same_module.py:9", "--target-version", "0.33") == reference
    assert len(engines(capsys, "same_module.py:5", "--target-version", "0.33")) == 3
    code, out, _ = explain(capsys, "same_module.py:8", "--target-version", "0.33")
    assert "  built by the code run for the call at same_module.py:8:10\n" in out


def test_python_columns_count_characters_as_check_prints_them(capsys, tmp_path):
    path = tmp_path / "modèle.py"
    path.write_text('from vllm import LLM\nmodèle = LLM("é", return_sampling_mask=True)\n', encoding="utf-8")
    [engine] = engines(capsys, str(path))
    line = path.read_text(encoding="utf-8").splitlines()[1]
    assert engine["settings"]["model"]["origin"]["col"] == line.index('"é"') + 1
    assert engine["settings"]["return_sampling_mask"]["origin"]["col"] == line.index("return_sampling_mask") + 1


def test_a_release_older_than_the_schema_lists_no_setting_added_since(capsys, tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text("vllm==0.7.3\n")  # a pin may name a release older than the rules know
    path = tmp_path / "old.py"
    path.write_text('from vllm import LLM\nllm = LLM("m", seed=1)\n', encoding="utf-8")
    [old] = engines(capsys, str(path))
    [oldest] = engines(capsys, str(path), "--target-version", "0.8")
    assert old["target_version"] == "0.7"
    assert set(old["settings"]) == set(oldest["settings"])
    assert "return_sampling_mask" not in old["settings"] and "logprobs_mode" not in old["settings"]


def test_request_parameters_of_a_framework_launch_are_overrides_mapped_by_their_key(capsys, tmp_path):
    script = tmp_path / "run_ppo.sh"
    script.write_text(
        "#!/bin/bash\npython3 -m verl.trainer.main_ppo \\\n"
        "    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true \\\n"
        "    actor_rollout_ref.rollout.top_k=50\n",
        encoding="utf-8",
    )
    [engine] = engines(capsys, str(script), "--target-version", "0.33")
    train = next(r for r in engine["requests"] if r["settings"]["top_k"]["state"] == "known")
    top_k = train["settings"]["top_k"]
    assert top_k["value"] == 50 and top_k["origin"]["kind"] == "override" and top_k["origin"]["line"] == 4
    assert top_k["via"][0]["step"] == "framework-key" and "actor_rollout_ref.rollout.top_k -> top_k" in top_k["via"][0]["detail"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("broken.py", "broken.py: cannot parse: syntax error: '(' was never closed (line 3)"),
        ("broken.yaml", "broken.yaml: cannot parse: invalid YAML:"),
        ("missing.py", "missing.py: cannot parse: cannot read: no such file or directory"),
    ],
)
def test_json_output_of_a_file_that_cannot_be_read_is_a_json_object(capsys, name, message):
    code, out, err = explain(capsys, name, "--output-format", "json")
    assert code == 1
    data = json.loads(out)
    assert data["engines"] == [] and data["message"].startswith(message)
    assert err.startswith(message)  # the diagnostic is still told on standard error


def _fixture_files() -> list[Path]:
    from fixtures import TESTDATA

    from vllm_lint.lint import file_kind

    files = []
    for path in sorted(TESTDATA.rglob("*")):
        if path.is_file() and not path.name.endswith(".fixed") and file_kind(str(path), path.read_bytes()[:512]) is not None:
            files.append(path)
    return files


def _explained(path: Path):
    """``check``'s findings for the file and ``explain``'s reports, with the same settings."""
    from fixtures import target_version

    from vllm_lint.explain import Target, explain_file
    from vllm_lint.settings import settings_for

    pinned = target_version(path.read_text(encoding="utf-8", errors="replace"))
    settings, _, resolver = settings_for([str(path)], target_version=pinned or "0.33")
    previous, Trace.active = Trace.active, True
    try:
        return explain_file(Target(str(path)), resolver, settings)
    finally:
        Trace.active = previous


META_CODES = ("VLM9",)  # about noqa comments, not about an engine


def test_explain_lists_every_finding_check_reports_for_every_fixture():
    mismatched = []
    explained = 0
    for path in _fixture_files():
        reports, result = _explained(path)
        if result.error is not None:
            continue
        checked = sorted({f.code for f in result.findings if not f.code.startswith(META_CODES)})
        listed = {code for report in reports for code in report.findings}
        listed |= {code for report in reports for request in report.requests for code in request["findings"]}
        if checked:
            explained += 1
        if sorted(listed) != checked:
            mismatched.append((str(path.relative_to(ROOT)), checked, sorted(listed)))
    assert mismatched == []
    assert explained >= 50, explained


BRANCHES = '''\
import sys

from vllm import LLM, SamplingParams

if sys.argv[1] == "big":
    llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
else:
    llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
outputs = llm.generate(["hi"], SamplingParams(temperature=0.0, top_k=20))
'''

SELF_BRANCHES = '''\
from vllm import LLM, SamplingParams


class Rollout:
    def __init__(self, big: bool):
        if big:
            self.llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
        else:
            self.llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def run(self, prompts):
        return self.llm.generate(prompts, SamplingParams(temperature=0.0, top_k=20))
'''


@pytest.mark.parametrize(("text", "request_line"), [(BRANCHES, 9), (SELF_BRANCHES, 12)], ids=["name", "attribute"])
def test_a_request_to_an_engine_built_on_two_paths_is_listed_under_each(capsys, tmp_path, text, request_line):
    script = tmp_path / "rollout.py"
    script.write_text(text)
    found = engines(capsys, str(script), "--target-version", "0.33")
    assert len(found) == 2
    for engine in found:
        [request] = engine["requests"]
        assert request["line"] == request_line and request["findings"] == ["VLM201"]
        assert request["settings"]["temperature"]["value"] == 0.0
    # The request's line selects the engines it may reach.
    assert len(engines(capsys, f"{script}:{request_line}", "--target-version", "0.33")) == 2


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("serve.sh", "vllm serve m --return-sampling-mask --max-model-len 8192 --gpu-memory-utilization=0.8 --no-enable-prefix-caching\n"),
        ("Dockerfile", 'FROM vllm/vllm-openai:v0.33.0\nCMD ["m", "--return-sampling-mask", "--max-model-len", "8192", "--gpu-memory-utilization=0.8", "--no-enable-prefix-caching"]\n'),
        ("launch.py", 'import subprocess\n\nsubprocess.run(["vllm", "serve", "m", "--return-sampling-mask", "--max-model-len", "8192", "--gpu-memory-utilization=0.8", "--no-enable-prefix-caching"])\n'),
        ("compose.yaml", 'services:\n  policy:\n    image: vllm/vllm-openai:v0.33.0\n    command: ["--model", "m", "--return-sampling-mask", "--max-model-len", "8192", "--gpu-memory-utilization=0.8", "--no-enable-prefix-caching"]\n'),
    ],
)
def test_every_flag_a_command_line_writes_is_listed_where_it_is_written(capsys, tmp_path, name, text):
    launch = tmp_path / name
    launch.write_text(text)
    [engine] = engines(capsys, str(launch), "--target-version", "0.33")
    settings = engine["settings"]
    line = text.splitlines().index(next(l for l in text.splitlines() if "--max-model-len" in l)) + 1
    written = {"max_model_len": (8192, "--max-model-len"), "gpu_memory_utilization": (0.8, "--gpu-memory-utilization"), "enable_prefix_caching": (False, "--no-enable-prefix-caching")}
    for setting, (value, flag) in written.items():
        assert settings[setting]["state"] == "known" and settings[setting]["value"] == value, setting
        origin = settings[setting]["origin"]
        assert (origin["line"], origin["kind"]) == (line, "flag")
        assert text.splitlines()[line - 1][origin["col"] - 1 :].lstrip('"').startswith(flag)


def test_every_key_of_a_launched_config_file_is_listed_with_its_line(capsys, tmp_path):
    (tmp_path / "serving.yaml").write_text("max-model-len: 4096\nenforce-eager: true\n")
    script = tmp_path / "serve.sh"
    script.write_text("vllm serve m --config serving.yaml --return-sampling-mask\n")
    [engine] = engines(capsys, str(script), "--target-version", "0.33")
    for setting, value, line in (("max_model_len", 4096, 1), ("enforce_eager", True, 2)):
        found = engine["settings"][setting]
        assert (found["value"], found["origin"]["line"], found["origin"]["kind"]) == (value, line, "config-key")
        assert found["origin"]["path"].endswith("serving.yaml")


POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: policy
spec:
  containers:
    - name: vllm
      command: ["vllm", "serve"]
      args: ["Qwen/Qwen3-8B", "--return-sampling-mask"]
      image: vllm/vllm-openai:v0.33.0
"""
DOCKERFILE = 'FROM vllm/vllm-openai:v0.33.0\nENV MODEL=m\nENTRYPOINT ["vllm", "serve"]\nCMD ["Qwen/Qwen3-8B", "--return-sampling-mask"]\n'


@pytest.mark.parametrize(("name", "text", "lines", "outside"), [("pod.yaml", POD, (8, 9), 7), ("Dockerfile", DOCKERFILE, (3, 4), 2)])
def test_every_line_of_a_launch_selects_it(capsys, tmp_path, name, text, lines, outside):
    launch = tmp_path / name
    launch.write_text(text)
    for line in lines:
        [engine] = engines(capsys, f"{launch}:{line}", "--target-version", "0.33")
        assert engine["findings"] == ["VLM105"]
    code, out, _ = explain(capsys, f"{launch}:{outside}", "--output-format", "json")
    assert code == 1 and json.loads(out)["engines"] == []


INLINE_TABLE = """\
max_steps = 200

[model]
name = "Qwen/Qwen3-4B"

[inference]
enable_return_sampling_mask = true
vllm = { max_model_len = 16384, additional_config = ["a,b", { x = 1 }], "logprobs_mode" = "raw_logprobs" }  # tuned
"""


def test_a_value_in_a_toml_inline_table_is_located_where_it_is_written(capsys, tmp_path):
    config = tmp_path / "rl.toml"
    config.write_text(INLINE_TABLE)
    line = INLINE_TABLE.splitlines()[7]
    [engine] = engines(capsys, str(config), "--target-version", "0.33")
    for name, key in (("logprobs_mode", '"logprobs_mode"'), ("max_model_len", "max_model_len")):
        origin = engine["settings"][name]["origin"]
        assert (origin["line"], origin["col"]) == (8, line.index(key) + 1), name
    main(["check", "--target-version", "0.33", "--output-format", "concise", str(config)])
    reported = capsys.readouterr().out.splitlines()[0]
    column = line.index('"logprobs_mode"') + 1
    assert reported.startswith(f"{config}:8:{column}: VLM105 [*]")
    main(["check", "--target-version", "0.33", "--fix", "--quiet", str(config)])
    capsys.readouterr()
    assert config.read_text() == INLINE_TABLE.replace('"raw_logprobs"', '"processed_logprobs"')


# ------------------------------------------------------------------ start-up checks


def test_the_settings_a_start_up_check_read_are_listed_as_it_read_them(capsys):
    """VLM404 reads enable_sleep_mode too: the default it read is listed, marked with the code."""
    engine = only(capsys, str(ROOT / "testdata/python/startup_checks.py:24"), "--target-version", "0.34")
    assert engine["findings"] == ["VLM404"]
    assert engine["settings"]["enable_sleep_mode"] == {
        "state": "default", "value": False, "from": "vLLM 0.34's default", "read_by": ["VLM404"],
    }
    assert engine["settings"]["checkpoint_prepare_on_startup"]["read_by"] == ["VLM404"]
    _, out, _ = explain(capsys, str(ROOT / "testdata/python/startup_checks.py:24"), "--target-version", "0.34")
    assert "vLLM 0.34's default; read by VLM404" in out


def test_a_framework_launch_lists_what_the_framework_passes_to_a_start_up_check(capsys):
    found = engines(capsys, str(ROOT / "testdata/frameworks/verl/run_startup_checks.sh:22"), "--target-version", "0.34")
    assert [engine["findings"] for engine in found] == [["VLM404"]]
    # verl renders its arguments as `vllm serve` options: false is left out, so vLLM's default stands.
    sleep = found[0]["settings"]["enable_sleep_mode"]
    assert (sleep["state"], sleep["value"], sleep["read_by"]) == ("default", False, ["VLM404"])
    # A clean launch: no start-up finding, and the setting verl passes from its own key is its default, read by none.
    clean = engines(capsys, str(ROOT / "testdata/frameworks/verl/run_startup_checks.sh:9"), "--target-version", "0.34")
    assert clean[0]["findings"] == []
    sleep = clean[0]["settings"]["enable_sleep_mode"]
    assert (sleep["state"], sleep["value"], "read_by" in sleep) == ("default", True, False)


def test_a_framework_key_whose_value_vllm_never_receives_says_why(capsys):
    found = engines(capsys, str(ROOT / "testdata/frameworks/verl/rollout_keys_clean.yaml"), "--target-version", "0.34")
    settings = found[0]["settings"]
    assert settings["load_format"]["reason"] == "actor_rollout_ref.rollout.load_format = dummy_dtensor: verl may replace it at run time"
    assert settings["max_model_len"]["reason"] == "actor_rollout_ref.rollout.max_model_len is null: verl decides it at run time"
    assert settings["tensor_parallel_size"]["reason"].endswith("verl rejects it (or fails on it) before vLLM starts")
    assert settings["gpu_memory_utilization"]["value"] == 0.7  # engine_kwargs.vllm comes last and wins


# ------------------------------------------------------------------ flags as argparse reads them


@pytest.mark.parametrize("release", ["0.10", "0.33"])
def test_flags_are_read_as_argparse_reads_them(capsys, release):
    settings = only(capsys, "serve_flags.sh", "--target-version", release)["settings"]
    assert settings["disable_log_stats"]["value"] is True  # not the inverse of an --enable- flag
    # --disable-log-requests sets enable_log_requests=False from 0.33, disable_log_requests before.
    requests = "enable_log_requests" if release == "0.33" else "disable_log_requests"
    assert settings[requests]["value"] is (release != "0.33")
    assert settings["enable_prefix_caching"]["value"] is True  # the last of the two wins
    assert settings["enable_prefix_caching"]["origin"]["line"] == 9
    assert settings["trust_remote_code"]["value"] is True
    assert settings["max_model_len"]["state"] == "unknown"  # "$MAX_LEN": not known here


def test_one_popen_is_one_report_and_an_environment_value_is_unknown(capsys):
    report = only(capsys, "popen_server.py", "--target-version", "0.33")
    settings = report["settings"]
    assert settings["model"] == {**settings["model"], "state": "known", "value": "Qwen/Qwen3-4B"}
    assert settings["max_model_len"]["state"] == "unknown"  # os.environ[...]
    assert settings["enforce_eager"]["value"] is True


def test_an_allowlist_filter_bounds_the_keys_of_a_spread(capsys, tmp_path):
    source = tmp_path / "allowlisted.py"
    source.write_text(
        "from vllm import LLM\n"
        "\n"
        "ENGINE_KEYS = ('dtype', 'max_model_len')\n"
        "\n"
        "\n"
        "def build(options):\n"
        "    allowed = {k: v for k, v in options.items() if k in ENGINE_KEYS}\n"
        "    denied = {k: v for k, v in options.items() if k not in ENGINE_KEYS}\n"
        "    LLM('Qwen/Qwen3-8B', return_sampling_mask=True, **allowed)\n"
        "    LLM('Qwen/Qwen3-8B', return_sampling_mask=True, **denied)\n",
        encoding="utf-8",
    )
    filtered, unfiltered = engines(capsys, str(source), "--target-version", "0.34")
    # Only the allowlist's keys can be passed: each may be, with a value from the caller.
    assert filtered["settings"]["dtype"]["state"] == "unknown"
    assert filtered["settings"]["logprobs_mode"]["state"] == "default"
    assert filtered["findings"] == ["VLM105"]
    # A key the filter leaves out says nothing about the keys let through.
    assert unfiltered["settings"]["logprobs_mode"]["state"] == "unknown"
    assert unfiltered["findings"] == []
