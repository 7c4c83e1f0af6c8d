"""Framework packs: where defaults come from, launches, declared packs, diagnostics, settings."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from vllm_lint.cli import main
from vllm_lint.lint import lint_file
from vllm_lint.versions import Version

V033 = Version.parse("0.33")


def lint(path: Path, version: Version = V033):
    return lint_file(str(path), lambda _path: (version, "test"))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def codes(result) -> list[tuple[int, str]]:
    assert result.error is None, result.error
    return sorted((f.span.line, f.code) for f in result.findings)


VERL_REPLAY = """\
    defaults:
      - ppo_trainer
      - _self_
    actor_rollout_ref:
      rollout:
        name: vllm
        engine_kwargs:
          vllm:
            return_sampling_mask: true
    trainer:
      val_before_train: false
    """


# ------------------------------------------------------ where defaults come from


def test_framework_config_in_the_linted_tree_gives_the_defaults(tmp_path):
    # A fork of verl whose rollout config bounds top_k: its own file wins over the pack's record.
    (tmp_path / ".git").mkdir()
    write(tmp_path / "verl/trainer/config/rollout/rollout.yaml", "top_k: 40\nlogprobs_mode: processed_logprobs\n")
    config = write(tmp_path / "exp/replay.yaml", VERL_REPLAY)
    assert codes(lint(config)) == []


def test_the_frameworks_own_rollout_config_with_replay_switched_on(tmp_path):
    (tmp_path / ".git").mkdir()
    rollout = write(
        tmp_path / "verl/trainer/config/rollout/rollout.yaml",
        """\
        name: ???
        temperature: 1.0
        top_k: -1
        logprobs_mode: processed_logprobs
        engine_kwargs:
          vllm:
            return_sampling_mask: true
          sglang: {}
        """,
    )
    result = lint(rollout)
    assert codes(result) == [(3, "VLM202")]  # at the top_k key this file writes
    assert "actor_rollout_ref.rollout.top_k = -1" in result.findings[0].message


@pytest.mark.parametrize(
    ("pin", "expected"),
    [
        ("verl==0.4.2", [(9, "VLM105"), (9, "VLM202")]),  # before verl set processed_logprobs
        ("verl==0.6.1", [(9, "VLM105"), (9, "VLM202")]),  # still before it (v0.7.0 brought the key)
        ("verl==0.7.0", [(9, "VLM202")]),
        (None, [(9, "VLM202")]),  # the default changed across releases: unknown, silent
    ],
)
def test_recorded_defaults_follow_the_pinned_framework_release(tmp_path, pin, expected):
    (tmp_path / ".git").mkdir()
    if pin:
        write(tmp_path / "requirements.txt", f"{pin}\n")
    config = write(tmp_path / "replay.yaml", VERL_REPLAY)
    assert codes(lint(config)) == expected


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        ("0.2.0.dev\n", [(9, "VLM105"), (9, "VLM202")]),  # a fork of verl before the key: vLLM's default
        ("0.7.0\n", [(9, "VLM202")]),
        ("main\n", [(9, "VLM202")]),  # no release in the file: unknown, silent
    ],
)
def test_a_fork_of_the_framework_runs_its_own_release(tmp_path, version, expected):
    """A project holding verl's own source (``verl/version/version``, as its forks do) runs that
    release of verl when it pins none."""
    (tmp_path / ".git").mkdir()
    write(tmp_path / "verl" / "version" / "version", version)
    config = write(tmp_path / "recipe" / "replay.yaml", VERL_REPLAY)
    assert codes(lint(config)) == expected


def test_the_release_a_default_comes_from_is_written_as_a_release(tmp_path):
    from vllm_lint.frameworks.defaults import default_tree
    from vllm_lint.frameworks.packs import load_pack

    (tmp_path / ".git").mkdir()
    write(tmp_path / "verl" / "version" / "version", "0.2.0.dev\n")
    config = write(tmp_path / "recipe" / "replay.yaml", VERL_REPLAY)
    _, label = default_tree(load_pack("verl"), str(config), recorded_only=True)
    assert " for verl 0.2.0 (the framework's own source in the project (" in label


def test_a_pin_wins_over_the_framework_source_in_the_tree(tmp_path):
    (tmp_path / ".git").mkdir()
    write(tmp_path / "verl" / "version" / "version", "0.2.0.dev\n")
    write(tmp_path / "requirements.txt", "verl==0.7.0\n")
    config = write(tmp_path / "replay.yaml", VERL_REPLAY)
    assert codes(lint(config)) == [(9, "VLM202")]


UNREADABLE_BASE = """\
    defaults:
      - rollout: my_rollout
      - _self_
    actor_rollout_ref:
      rollout:
        engine_kwargs:
          vllm:
            return_sampling_mask: true
    """


def test_an_unreadable_base_config_makes_defaults_unknown(tmp_path):
    config = write(
        tmp_path / "replay.yaml",
        UNREADABLE_BASE,
    )
    assert codes(lint(config)) == []


def test_interpolation_to_another_key_is_followed_and_to_the_environment_is_unknown(tmp_path):
    config = write(
        tmp_path / "replay.yaml",
        """\
        defaults: [ppo_trainer, _self_]
        sampling:
          k: 0
        actor_rollout_ref:
          rollout:
            top_k: ${sampling.k}
            temperature: ${oc.env:TEMPERATURE}
            engine_kwargs:
              vllm:
                return_sampling_mask: true
        trainer:
          val_before_train: false
        """,
    )
    assert codes(lint(config)) == [(6, "VLM202")]


# ----------------------------------------------------------------- launches


def test_hydra_override_fix_replaces_the_value_in_the_token(tmp_path):
    script = write(
        tmp_path / "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            actor_rollout_ref.rollout.name=vllm \\
            actor_rollout_ref.rollout.top_k=64 \\
            trainer.val_before_train=False \\
            +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true \\
            actor_rollout_ref.rollout.logprobs_mode=raw_logprobs
        """,
    )
    assert main(["check", "--fix", str(script)]) == 0
    assert "actor_rollout_ref.rollout.logprobs_mode=processed_logprobs" in script.read_text()
    assert codes(lint(script)) == []


def test_launch_reports_only_what_its_own_overrides_decide(tmp_path):
    # The named config turns replay on and keeps verl's top_k; it reports that itself.
    write(tmp_path / "config/exp.yaml", VERL_REPLAY)
    script = write(
        tmp_path / "run.sh",
        """\
        python3 -m verl.trainer.main_ppo --config-path config --config-name exp \\
            trainer.total_epochs=3
        python3 -m verl.trainer.main_ppo --config-path config --config-name exp \\
            actor_rollout_ref.rollout.temperature=0
        """,
    )
    assert codes(lint(script)) == [(4, "VLM201")]


def test_an_unknown_config_name_leaves_only_the_overrides_certain(tmp_path):
    script = write(
        tmp_path / "run.sh",
        """\
        python3 -m verl.trainer.main_ppo --config-name $CONFIG \\
            +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true
        """,
    )
    assert codes(lint(script)) == []


def test_framework_launch_in_a_kubernetes_job_spec(tmp_path):
    job = write(
        tmp_path / "job.yaml",
        """\
        apiVersion: batch/v1
        kind: Job
        spec:
          template:
            spec:
              containers:
                - name: trainer
                  image: verlai/verl:latest
                  command: ["python3", "-m", "verl.trainer.main_ppo"]
                  args:
                    - actor_rollout_ref.rollout.name=vllm
                    - +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true
        """,
    )
    assert codes(lint(job)) == [(12, "VLM201"), (12, "VLM202")]  # validation is greedy, rollouts unbounded


# ------------------------------------------------------------ declared packs


def test_a_broken_declared_pack_gives_one_diagnostic(tmp_path):
    write(
        tmp_path / "pyproject.toml",
        """\
        [tool.vllm-lint.frameworks.acme]
        globs = ["*.yaml"]
        engine = [{ key = "rollout.mask" }]
        """,
    )
    config = write(tmp_path / "rollout.yaml", "rollout:\n  mask: true\n")
    result = lint(config)
    assert result.error is not None
    assert "engine entries need key and arg" in result.error.reason


@pytest.mark.parametrize(
    "reaches, found",
    [
        ("engine-args", [(5, "VLM301"), (6, "VLM301")]),  # tool_call_parser is no engine argument
        ("serve-argv", [(6, "VLM301")]),  # the server's own option is valid; the typo is not
        ("serve-namespace", [(6, "VLM301")]),
    ],
)
def test_a_declared_prefix_is_checked_against_what_it_reaches(tmp_path, reaches, found):
    write(
        tmp_path / "pyproject.toml",
        f"""\
        [tool.vllm-lint]
        target-version = "0.33"

        [tool.vllm-lint.frameworks.acme]
        globs = ["*.yaml"]
        detect = ["rollout.vllm"]
        engine = [{{ prefix = "rollout.vllm", reaches = "{reaches}" }}]
        """,
    )
    config = write(tmp_path / "rollout.yaml", "rollout:\n  vllm:\n    max_model_len: 8192\n    enable_prefix_caching: true\n    tool_call_parser: hermes\n    gpu_memory_utilisation: 0.8\n")
    assert codes(lint(config)) == found


def test_a_declared_pack_maps_its_own_keys_as_the_framework_converts_them(tmp_path):
    write(
        tmp_path / "pyproject.toml",
        """\
        [tool.vllm-lint]
        target-version = "0.34"

        [tool.vllm-lint.frameworks.acme]
        globs = ["*.yaml"]
        detect = ["rollout"]
        engine = [
            { key = "rollout.precision", arg = "dtype", values = { fp8 = "bfloat16" } },
            { key = "rollout.memory", arg = "gpu_memory_utilization" },
            { key = "rollout.tp", arg = "tensor_parallel_size", framework-accepts = { ge = 1 } },
            { key = "rollout.kv", arg = "kv_cache_dtype", when = { key = "rollout.precision", is = "fp8" } },
        ]
        """,
    )
    bad = write(tmp_path / "bad.yaml", "rollout:\n  precision: bf16\n  memory: 1.5\n  tp: 0\n  kv: fp9\n")
    assert codes(lint(bad)) == [(2, "VLM303"), (3, "VLM304")]  # tp 0 fails in the framework; kv not passed
    converted = write(tmp_path / "fp8.yaml", "rollout:\n  precision: fp8\n  memory: 0.5\n  kv: fp9\n")
    assert codes(lint(converted)) == [(4, "VLM303")]  # fp8 is sent as bfloat16; with it, kv is passed
    message = next(f.message for f in lint(bad).findings if f.code == "VLM303")
    assert "[acme: rollout.precision = bf16]" in message


@pytest.mark.parametrize(
    "entry, problem",
    [
        ('values = "bfloat16"', "values is a table"),
        ("above = true", "above is a number"),
        ('framework-accepts = { gt = 1 }', "framework_accepts is a list of values or bounds"),
        ('null = "vllm"', 'null is "run-time"'),
        ('replaced = "dummy"', "replaced is a list of patterns"),
    ],
)
def test_a_declared_key_entry_with_a_broken_setting_gives_one_diagnostic(tmp_path, entry, problem):
    write(
        tmp_path / "pyproject.toml",
        f"""\
        [tool.vllm-lint.frameworks.acme]
        globs = ["*.yaml"]
        engine = [{{ key = "rollout.precision", arg = "dtype", {entry} }}]
        """,
    )
    result = lint(write(tmp_path / "rollout.yaml", "rollout:\n  precision: fp8\n"))
    assert result.error is not None and problem in result.error.reason


def test_a_declared_engine_entry_with_an_unknown_setting_gives_one_diagnostic(tmp_path):
    write(
        tmp_path / "pyproject.toml",
        """\
        [tool.vllm-lint.frameworks.acme]
        globs = ["*.yaml"]
        engine = [{ key = "rollout.memory", arg = "gpu_memory_utilization", convert = "x" }]
        """,
    )
    result = lint(write(tmp_path / "rollout.yaml", "rollout:\n  memory: 0.5\n"))
    assert result.error is not None and "unknown engine entry setting(s) convert" in result.error.reason


def test_a_converted_value_names_what_the_framework_sends(tmp_path):
    config = write(
        tmp_path / "grpo.yaml",
        """\
        # target-version: 0.34
        policy:
          generation:
            backend: vllm
            vllm_cfg:
              precision: fp8
              gpu_memory_utilization: 1.5
            vllm_kwargs: {}
        """,
    )
    found = lint(config).findings
    assert [(f.span.line, f.code) for f in found] == [(7, "VLM304")]
    built = [engine for _, engine, _, _ in _config_engines(config)][0]
    assert built.engine.fields["dtype"].value == "bfloat16"
    key, entry = built.decided_by[("engine", "dtype")]
    assert (key, entry.value, entry.becomes) == ("policy.generation.vllm_cfg.precision", "fp8", "bfloat16")


def _config_engines(path):
    from vllm_lint.frameworks.engine import config_engines
    from vllm_lint.frameworks.packs import load_pack
    from vllm_lint.launch.words import Source
    from vllm_lint.versions import Version

    text = path.read_text(encoding="utf-8")
    return config_engines(Source(str(path), text), str(path), "yaml", Version.parse("0.34"), [load_pack("nemo-rl")])


def test_a_declared_prefix_that_reaches_nothing_known_gives_one_diagnostic(tmp_path):
    write(
        tmp_path / "pyproject.toml",
        """\
        [tool.vllm-lint.frameworks.acme]
        globs = ["*.yaml"]
        engine = [{ prefix = "rollout.vllm", reaches = "sglang" }]
        """,
    )
    result = lint(write(tmp_path / "rollout.yaml", "rollout:\n  vllm:\n    max_model_len: 8192\n"))
    assert result.error is not None and "reaches is one of engine-args, serve-argv, engine-argv, serve-namespace" in result.error.reason


def test_a_declared_pack_with_broken_launchers_gives_one_diagnostic_and_no_launch(tmp_path):
    write(
        tmp_path / "pyproject.toml",
        """\
        [tool.vllm-lint.frameworks.acme]
        globs = ["*.yaml"]
        detect = ["rollout.vllm"]
        engine = [{ prefix = "rollout.vllm" }]
        launchers = { modules = "acme.train" }
        """,
    )
    config = write(tmp_path / "rollout.yaml", "rollout:\n  vllm:\n    return_sampling_mask: true\n")
    result = lint(config)
    assert result.error is not None
    assert "launchers.modules must be a list" in result.error.reason
    script = write(tmp_path / "run.sh", "python -m acme.train +rollout.vllm.return_sampling_mask=true\n")
    launched = lint(script)
    assert launched.error is None and launched.findings == []


# --------------------------------------------------------------- diagnostics


@pytest.mark.parametrize(
    ("name", "text", "reason"),
    [
        ("rl.toml", "[inference]\nenable_return_sampling_mask = true\n[inference.vllm\n", "invalid TOML"),
        ("exp.yaml", "actor_rollout_ref:\n  rollout: [\n", "invalid YAML"),
    ],
)
def test_broken_framework_configs_give_one_diagnostic(tmp_path, name, text, reason):
    result = lint(write(tmp_path / name, text))
    assert result.error is not None and result.error.reason.startswith(reason)
    assert result.findings == []


def test_unmarked_files_never_load_a_pack(tmp_path):
    write(tmp_path / "serve.sh", "vllm serve m --max-model-len 4096\n")
    write(tmp_path / "values.yaml", "replicas: 2\n")
    write(tmp_path / "settings.toml", "[tool]\nname = 'x'\n")
    code = (
        "import sys\n"
        "from vllm_lint.lint import lint_file\n"
        "from vllm_lint.versions import NEWEST_VERSION\n"
        f"for name in ('serve.sh', 'values.yaml', 'settings.toml'):\n"
        f"    lint_file({str(tmp_path)!r} + '/' + name, lambda p: (NEWEST_VERSION, ''))\n"
        "print(sorted(m for m in sys.modules if m.startswith('vllm_lint.frameworks.packs.')))\n"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert completed.stdout.strip() == "[]"


def test_show_settings_lists_the_packs_that_applied(tmp_path, capsys):
    config = write(tmp_path / "exp.yaml", VERL_REPLAY)
    assert main(["check", "--show-settings", str(config)]) == 0
    out = capsys.readouterr().out
    assert "framework pack: verl (applied because it has the key path actor_rollout_ref.rollout" in out
    assert "recorded defaults" in out


def test_a_variable_as_an_overrides_value_leaves_only_its_key_unknown(tmp_path):
    quoted = write(
        tmp_path / "quoted.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            actor_rollout_ref.rollout.temperature="$TEMPERATURE" \\
            +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true
        """,
    )
    assert codes(lint(quoted)) == [(3, "VLM201"), (3, "VLM202")]
    unquoted = write(
        tmp_path / "unquoted.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true \\
            actor_rollout_ref.rollout.temperature=$TEMPERATURE
        """,
    )
    assert codes(lint(unquoted)) == [(2, "VLM201"), (2, "VLM202")]  # unquoted, it is one value too
    extra = write(
        tmp_path / "extra.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true \\
            $EXTRA_OVERRIDES
        """,
    )
    assert codes(lint(extra)) == []  # where an override stands: any number of them


def test_the_scripts_own_arguments_after_the_overrides_are_read_as_none(tmp_path):
    from vllm_lint.config import Target

    script = write(
        tmp_path / "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true \\
            actor_rollout_ref.rollout.logprobs_mode=raw_logprobs \\
            $@
        """,
    )
    result = lint(script)
    assert codes(result) == [(2, "VLM201"), (2, "VLM202"), (3, "VLM105")]
    mode = next(f for f in result.findings if f.code == "VLM105")
    assert "(unless the arguments passed through at $@, line 4, override logprobs_mode)" in mode.message
    assert lint_file(str(script), lambda _path: Target(V033, "test", pass_through="anything")).findings == []


@pytest.mark.parametrize("name", ["verl", "nemo-rl", "roll", "skyrl", "openrlhf", "prime-rl"])
def test_each_pack_page_is_rendered_from_the_pack(name):
    from vllm_lint.frameworks.docs import render

    page = Path(__file__).resolve().parent.parent / "docs" / "frameworks" / f"{name}.md"
    assert page.read_text(encoding="utf-8") == render(name), "regenerate: python -m vllm_lint.frameworks.docs docs/frameworks"


def test_a_project_pinning_the_framework_and_not_vllm_gets_the_frameworks_vllm(tmp_path):
    (tmp_path / ".git").mkdir()
    write(tmp_path / "requirements.txt", "nemo-rl[vllm]==0.6.0\n")
    config = write(
        tmp_path / "grpo.yaml",
        """\
        policy:
          generation:
            top_k: 64
            vllm_kwargs:
              return_sampling_mask: true
            vllm_cfg:
              logprobs_mode: processed_logprobs
        """,
    )
    newest = lint_file(str(config), lambda _path: (V033, "the newest vLLM release the rules know"))
    assert codes(newest) == [(5, "VLM301")]  # NeMo-RL 0.6 pins vLLM 0.25.1
    pinned = lint_file(str(config), lambda _path: (V033, "the pinned requirement in pyproject.toml"))
    assert codes(pinned) == []


def test_verl_validation_before_training_samples_greedily(tmp_path):
    config = write(
        tmp_path / "exp.yaml",
        """\
        defaults: [ppo_trainer, _self_]
        actor_rollout_ref:
          rollout:
            top_k: 64
            engine_kwargs:
              vllm:
                return_sampling_mask: true
        """,
    )
    result = lint(config)
    assert codes(result) == [(7, "VLM201")]  # at the replay key
    assert "actor_rollout_ref.rollout.val_kwargs.temperature = 0 (verl default)" in result.findings[0].message
    unvalidated = write(tmp_path / "exp2.yaml", config.read_text() + "trainer:\n  val_before_train: false\n")
    assert codes(lint(unvalidated)) == []


NEWEST = "the newest vLLM release the rules know"


def lint_newest(path: Path):
    return lint_file(str(path), lambda _path: (V033, NEWEST))


@pytest.mark.parametrize(
    ("requirement", "spec", "target"),
    [
        ("==0.25.1", "==0.25.1", "0.25.1"),
        ("0.25", "0.25", "0.25.0"),
        (">=0.8.5,<=0.12.0", None, "0.12.0"),  # every admitted release predates the first the rules know
        ("==0.26.0", None, "0.26.0"),
        (">=0.26.0", None, None),  # no upper bound
        (">=0.27,<0.30", None, None),  # admits releases the rules tell apart
        ("==0.33.*", None, "0.33.0"),
    ],
)
def test_a_framework_requirement_gives_a_target_only_when_its_releases_agree(requirement, spec, target):
    from vllm_lint.frameworks.defaults import single_profile

    assert single_profile(requirement) == target


@pytest.mark.parametrize(
    ("requirements", "expected"),
    [
        ("verl[vllm]==0.8.0\n", [(3, "VLM301")]),  # verl 0.8 requires vLLM <= 0.12: no replay there
        ("verl==0.8.0\n", [(3, "VLM201"), (3, "VLM202")]),  # vLLM not from verl's extra
        ("verl[vllm]==0.8.0\nvllm==0.33.1\n", [(3, "VLM201"), (3, "VLM202")]),  # the project's pin wins
        ("verl[vllm]==0.7.2\n", [(3, "VLM201"), (3, "VLM202")]),  # no recorded vLLM pin for verl 0.7
    ],
)
def test_the_frameworks_vllm_applies_to_its_shell_launches(tmp_path, requirements, expected):
    (tmp_path / ".git").mkdir()
    write(tmp_path / "requirements.txt", requirements)
    script = write(
        tmp_path / "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            actor_rollout_ref.rollout.name=vllm \\
            +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true
        """,
    )
    from vllm_lint.config import VersionResolver

    resolver = VersionResolver(None, "")
    result = lint_file(str(script), resolver.for_path)
    assert codes(result) == expected


def test_the_frameworks_vllm_applies_to_job_specs_and_python_argv_launches(tmp_path):
    (tmp_path / ".git").mkdir()
    write(tmp_path / "pyproject.toml", '[project]\nname = "rl-exp"\ndependencies = ["skyrl[fsdp]==0.3.0", "verl[vllm]==0.8.1"]\n')
    job = write(
        tmp_path / "job.yaml",
        """\
        apiVersion: batch/v1
        kind: Job
        spec:
          template:
            spec:
              containers:
                - name: trainer
                  image: novasky/skyrl:0.3.0
                  command: ["python", "-m", "skyrl.train.entrypoints.main_base"]
                  args:
                    - +generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs
                    - +generator.inference_engine.engine_init_kwargs.return_sampling_mask=true
                    - generator.sampling_params.top_k=20
        """,
    )
    driver = write(
        tmp_path / "driver.py",
        """\
        import subprocess

        subprocess.run(
            [
                "python3", "-m", "verl.trainer.main_ppo",
                "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true",
            ],
            check=True,
        )
        """,
    )
    from vllm_lint.config import VersionResolver

    resolver = VersionResolver(None, "")
    assert codes(lint_file(str(job), resolver.for_path)) == [(12, "VLM301")]  # SkyRL 0.3 pins vLLM 0.26
    assert codes(lint_file(str(driver), resolver.for_path)) == [(6, "VLM301")]  # verl 0.8 requires vLLM <= 0.12
    # Without the framework's pin the same launches are checked against the newest release.
    assert codes(lint(job)) == []
    assert [code for _, code in codes(lint(driver))] == ["VLM201", "VLM202"]


def test_a_framework_extra_without_a_fixed_vllm_gives_no_target(tmp_path):
    from vllm_lint.frameworks.defaults import framework_vllm
    from vllm_lint.frameworks.packs import load_pack

    (tmp_path / ".git").mkdir()
    write(tmp_path / "requirements.txt", "openrlhf[vllm_latest]==0.11.0\n")
    assert framework_vllm(load_pack("openrlhf"), str(tmp_path / "run.sh")) == (None, "")
    write(tmp_path / "requirements.txt", "openrlhf[vllm]==0.11.0\n")
    target, why = framework_vllm(load_pack("openrlhf"), str(tmp_path / "run.sh"))
    assert target == "0.27.1" and "openrlhf 0.11.0" in why


# ------------------------------------------------------------------- fixes


PACK_FOLDERS = ["verl", "nemo-rl", "roll", "skyrl", "prime-rl", "inhouse"]


def _fixture_findings(folder: str):
    from fixtures import TESTDATA, fixture_files, target_version

    for path in fixture_files(f"frameworks/{folder}"):
        text = path.read_text(encoding="utf-8")
        pinned = target_version(text)
        version = Version.parse(pinned) if pinned else V033
        for finding in lint_file(str(path), lambda _path, version=version: (version, "fixture")).findings:
            yield path.relative_to(TESTDATA), finding


@pytest.mark.parametrize("folder", PACK_FOLDERS)
def test_every_fixable_finding_a_file_decides_offers_an_edit(folder):
    # A value written in a YAML/TOML scalar or an override token, or a default beside the
    # key that turned replay on: the rule's fix (set, turn off, empty, add the key) is offered.
    seen = 0
    for where, finding in _fixture_findings(folder):
        if finding.fix_action is None or ", set in " in finding.message:
            continue
        seen += 1
        assert finding.fix is not None, f"{where}:{finding.span.line} {finding.code} has no fix"
    assert seen, f"no fixable finding among the {folder} fixtures"


@pytest.mark.parametrize("folder", PACK_FOLDERS)
def test_fixing_a_packs_fixtures_leaves_no_fixable_finding(tmp_path, folder):
    import shutil

    from fixtures import TESTDATA

    copy = tmp_path / folder
    shutil.copytree(TESTDATA / "frameworks" / folder, copy)
    before = {p: (p.read_bytes(), lint(p).findings) for p in copy.rglob("*") if p.is_file()}
    main(["check", "--fix", "--unsafe-fixes", "--target-version", "0.33", str(copy)])
    for path, (data, findings) in before.items():
        assert not [f for f in lint(path).findings if f.fix is not None], path
        if not any(f.fix is not None for f in findings):
            assert path.read_bytes() == data, f"{path} had nothing to fix but was changed"
        else:
            assert path.read_bytes() != data


def test_a_default_decided_in_a_launch_gets_the_key_added_after_the_replay_token(tmp_path):
    script = write(
        tmp_path / "run.sh",
        """\
        python -m skyrl.train.entrypoints.main_base \\
          generator.sampling_params.top_k=20 \\
          +generator.inference_engine.engine_init_kwargs.return_sampling_mask=true \\
          trainer.epochs=1
        """,
    )
    result = lint(script)
    assert codes(result) == [(3, "VLM105")]
    fix = result.findings[0].fix
    assert fix.applicability == "unsafe" and "logprobs_mode=processed_logprobs" in fix.message
    assert main(["check", "--fix", str(script)]) == 1  # unsafe: not applied by default
    assert "logprobs_mode" not in script.read_text()
    main(["check", "--fix", "--unsafe-fixes", str(script)])
    assert script.read_text().splitlines()[3].strip() == "+generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs \\"
    assert codes(lint(script)) == []


def test_a_default_decided_in_a_config_gets_the_key_beside_the_replay_key(tmp_path):
    config = write(
        tmp_path / "rlvr.yaml",
        """\
        actor_infer:
          generating_args:
            top_k: 50
          strategy_args:
            strategy_name: vllm
            strategy_config:
                gpu_memory_utilization: 0.7
                return_sampling_mask: True   # replay
                block_size: 16
        """,
    )
    assert codes(lint(config)) == [(8, "VLM105")]
    main(["check", "--fix", "--unsafe-fixes", str(config)])
    lines = config.read_text().splitlines()
    assert lines[7:9] == ["        return_sampling_mask: True   # replay", "        logprobs_mode: processed_logprobs"]
    assert codes(lint(config)) == []


def test_no_line_is_added_beside_a_flow_mapping(tmp_path):
    config = write(
        tmp_path / "rlvr.yaml",
        """\
        actor_infer:
          generating_args: {top_k: 50}
          strategy_args:
            strategy_name: vllm
            strategy_config: {return_sampling_mask: true}
        """,
    )
    result = lint(config)
    assert codes(result) == [(5, "VLM105")]
    assert result.findings[0].fix is None


def test_written_values_get_text_edits_and_mappings_become_null(tmp_path):
    config = write(
        tmp_path / "rlvr.yaml",
        """\
        actor_infer:
          generating_args:
            top_k: 50
          strategy_args:
            strategy_name: vllm
            strategy_config:
              return_sampling_mask: true
              logprobs_mode: "raw_logprobs"
              enable_batch_sharded_sampling: true
              logits_processors: [acme.processors:Bias]
              speculative_config:
                method: ngram
                num_speculative_tokens: 4
              max_num_seqs: 64
        """,
    )
    result = lint(config, Version.parse("0.30"))
    assert [(line, code, f.fix.applicability) for (line, code), f in zip(codes(result), sorted(result.findings, key=lambda f: (f.span.line, f.code)))] == [
        (8, "VLM105", "safe"), (9, "VLM106", "unsafe"), (10, "VLM104", "unsafe"), (11, "VLM102", "unsafe"),
    ]
    main(["check", "--fix", "--unsafe-fixes", "--target-version", "0.30", str(config)])
    assert config.read_text().splitlines()[7:12] == [
        '      logprobs_mode: "processed_logprobs"',
        "      enable_batch_sharded_sampling: false",
        "      logits_processors: []",
        "      speculative_config: null",
        "      max_num_seqs: 64",
    ]
    assert codes(lint(config, Version.parse("0.30"))) == []


# ------------------------------------------------------------ Hydra groups


def test_a_group_option_with_its_own_package_header_leaves_the_config_open(tmp_path):
    write(
        tmp_path / "rollout/global_rollout.yaml",
        """\
        # @package _global_
        actor_rollout_ref:
          rollout:
            top_k: -1
        """,
    )
    config = write(
        tmp_path / "exp.yaml",
        """\
        defaults:
          - ppo_trainer
          - /rollout@actor_rollout_ref.rollout: global_rollout
          - _self_
        actor_rollout_ref:
          rollout:
            engine_kwargs:
              vllm:
                return_sampling_mask: true
        trainer:
          val_before_train: false
        """,
    )
    assert codes(lint(config)) == []


def test_an_override_entry_replaces_the_groups_earlier_choice(tmp_path):
    write(tmp_path / "rollout/unbounded.yaml", "top_k: -1\nengine_kwargs:\n  vllm:\n    return_sampling_mask: true\n")
    write(tmp_path / "rollout/bounded.yaml", "top_k: 40\nengine_kwargs:\n  vllm:\n    return_sampling_mask: true\n")
    text = """\
        defaults:
          - ppo_trainer
          - /rollout@actor_rollout_ref.rollout: bounded
          - override /rollout@actor_rollout_ref.rollout: {option}
          - _self_
        trainer:
          val_before_train: false
        """
    assert codes(lint(write(tmp_path / "a.yaml", text.format(option="unbounded")))) == [(4, "VLM202")]
    assert codes(lint(write(tmp_path / "b.yaml", text.format(option="bounded")))) == []


def test_the_frameworks_own_group_option_stands_for_its_recorded_defaults(tmp_path):
    # verl's own rollout option, not in the linted tree: the pack's record of it applies.
    config = write(
        tmp_path / "exp.yaml",
        """\
        defaults:
          - /rollout@actor_rollout_ref.rollout: rollout
          - _self_
        actor_rollout_ref:
          rollout:
            engine_kwargs:
              vllm:
                return_sampling_mask: true
        trainer:
          val_before_train: false
        """,
    )
    assert codes(lint(config)) == [(8, "VLM202")]  # verl's top_k: -1


def test_a_declared_pack_can_say_what_its_entry_point_switches_on_itself(tmp_path):
    write(
        tmp_path / "pyproject.toml",
        """\
        [tool.vllm-lint.frameworks.acme]
        globs = ["runs/*.toml"]
        engine = [{ key = "serving.capture", arg = "return_sampling_mask" }, { prefix = "serving.vllm" }]
        sets = [{ args = { logprobs_mode = "processed_logprobs" }, unless-set = true }]
        switches = [{ key = "serving.capture", requires = "serving", when-any = [{ key = "sampling.top_p", below = 1.0 }] }]
        request = [{ key = "eval.temperature", param = "temperature", group = "eval" }]
        """,
    )
    truncated = write(tmp_path / "runs/a.toml", "[sampling]\ntop_p = 0.9\n[eval]\ntemperature = 0.0\n[serving]\n")
    full = write(tmp_path / "runs/b.toml", "[sampling]\ntop_p = 1.0\n[eval]\ntemperature = 0.0\n[serving]\n")
    assert codes(lint(truncated)) == [(4, "VLM201")]
    assert codes(lint(full)) == []


# ------------------------------------------------------ prime-rl command lines


def test_prime_rl_launches_mount_section_files_and_read_flags(tmp_path):
    write(tmp_path / "configs/orch.toml", "[train.sampling]\ntop_p = 0.9\n\n[[train.source]]\nname = 'math'\n\n[eval.sampling]\ntemperature = 0.0\n")
    write(tmp_path / "configs/infer.toml", "[vllm]\nmax_model_len = 4096\n")
    script = write(
        tmp_path / "run.sh",
        """\
        uv run rl --orchestrator @ configs/orch.toml --inference @ configs/infer.toml \\
          --max-steps 10
        uv run rl --orchestrator @ configs/orch.toml --inference @ configs/infer.toml \\
          --orchestrator.eval.sampling.temperature=0.0
        uv run rl --orchestrator @ configs/orch.toml --inference @ configs/infer.toml $EXTRA_ARGS \\
          --orchestrator.eval.sampling.temperature=0.0
        uv run rl --orchestrator @ configs/orch.toml \\
          --orchestrator.eval.sampling.temperature=0.0
        uv run rl --orchestrator @ configs/orch.toml --no-inference.enable-return-sampling-mask \\
          --orchestrator.eval.sampling.temperature=0.0
        """,
    )
    # 1: the files decide (reported where they are linted); 2: the override decides, replay
    # from the mounted files' truncated sampling; 3: $EXTRA_ARGS may change the sampling:
    # unknown; 4: no inference settings: no managed server, nothing switched on; 5: turning
    # the switch off by hand does not stop `rl` from turning it on for truncated sampling.
    assert codes(lint(script)) == [(4, "VLM201"), (10, "VLM201")]


def test_a_prime_rl_inference_table_alone_is_not_an_rl_config(tmp_path):
    # Another tool's TOML with an [inference] table and an [orchestrator] one of its own shape.
    config = write(tmp_path / "service.toml", "[inference]\nbackend = 'tgi'\n\n[orchestrator]\nreplicas = 2\n")
    assert codes(lint(config)) == []


def test_a_finding_says_when_the_entry_point_turned_replay_on(tmp_path):
    config = write(
        tmp_path / "rl.toml",
        """\
        [orchestrator.train.sampling]
        top_k = 40

        [[orchestrator.train.source]]
        name = "math"

        [orchestrator.eval.sampling]
        temperature = 0.0

        [inference]
        """,
    )
    result = lint(config)
    assert codes(result) == [(8, "VLM201")]
    assert "prime-rl turns it on because orchestrator.train.sampling.top_k = 40" in result.findings[0].message


def test_cyclic_and_broken_group_options_leave_the_config_open_without_a_traceback(tmp_path):
    write(tmp_path / "rollout/loop.yaml", "defaults:\n  - loop\n  - _self_\nname: vllm\n")
    write(tmp_path / "rollout/broken.yaml", "top_k: [\n")
    write(tmp_path / "rollout/binary.yaml", "")
    (tmp_path / "rollout/binary.yaml").write_bytes(b"\xff\xfe\x00top_k: -1\n")
    for option in ("loop", "broken", "binary"):
        config = write(
            tmp_path / f"exp_{option}.yaml",
            f"""\
            defaults:
              - ppo_trainer
              - /rollout@actor_rollout_ref.rollout: {option}
              - _self_
            actor_rollout_ref:
              rollout:
                engine_kwargs:
                  vllm:
                    return_sampling_mask: true
            trainer:
              val_before_train: false
            """,
        )
        assert codes(lint(config)) == [], option


def test_the_standalone_prime_rl_inference_server_reads_the_inference_table(tmp_path):
    write(tmp_path / "infer.toml", "enable_return_sampling_mask = true\n\n[vllm]\nmax_model_len = 8192\n")
    script = write(
        tmp_path / "serve.sh",
        """\
        uv run inference @ infer.toml --vllm.logprobs-mode raw_logprobs
        uv run inference @ infer.toml --vllm.max-num-seqs 64
        uv run inference --enable-return-sampling-mask --vllm.enable-batch-sharded-sampling
        """,
    )
    assert codes(lint(script)) == [(1, "VLM105"), (3, "VLM106")]
    main(["check", "--fix", "--unsafe-fixes", str(script)])
    lines = script.read_text().splitlines()
    assert lines[0] == "uv run inference @ infer.toml --vllm.logprobs-mode processed_logprobs"
    assert lines[2] == "uv run inference --enable-return-sampling-mask"
    assert codes(lint(script)) == []


@pytest.mark.parametrize("final_newline", ["\n", "\r\n", ""], ids=["newline", "crlf", "no final newline"])
def test_the_added_key_is_offered_whether_or_not_the_file_ends_with_a_line_break(tmp_path, final_newline):
    from vllm_lint.fix.text import apply_edits

    # The replay key is the file's last line: the added key goes after it.
    name, text = "replay.yaml", VERL_REPLAY.replace("    trainer:\n      val_before_train: false\n", "")
    added = "        logprobs_mode: processed_logprobs"
    (tmp_path / ".git").mkdir()
    write(tmp_path / "requirements.txt", "verl==0.4.2\n")
    body = textwrap.dedent(text).rstrip("\n").replace("\n", final_newline or "\n") + final_newline
    config = tmp_path / name
    config.write_bytes(body.encode())
    result = lint(config)
    [finding] = [f for f in result.findings if f.code == "VLM105"]
    assert finding.fix is not None and finding.fix.applicability == "unsafe"
    fixed = apply_edits(result.source, finding.fix.edits, final_newline or "\n")
    newline = final_newline or "\n"
    assert fixed.split(newline)[-2 if final_newline else -1] == added
    assert fixed.startswith(body.rstrip("\r\n"))
    assert not [f for f in lint_text_result(tmp_path, name, fixed) if f.code == "VLM105"]


def lint_text_result(tmp_path, name, text):
    path = tmp_path / f"fixed-{name}"
    path.write_bytes(text.encode())
    return lint(path).findings


def test_entry_scripts_are_derived_from_the_frameworks_own_source(tmp_path):
    """ROLL's entry scripts compose a Hydra config; those whose pipeline has an ``actor_infer``
    worker are launches of the pack's config, the fine-tuning one is not."""
    from vllm_lint.frameworks import packs
    from vllm_lint.frameworks.entry_points import script_composes

    (tmp_path / ".git").mkdir()
    write(tmp_path / "roll/pipeline/rlvr/rlvr_vlm_pipeline.py", """\
        class RLVRVLMPipeline:
            def __init__(self, config):
                self.actor_infer = config.actor_infer
        """)
    write(tmp_path / "roll/pipeline/sft/sft_pipeline.py", """\
        class SFTPipeline:
            def __init__(self, config):
                self.actor_train = config.actor_train
        """)
    for name, module, cls in (("start_rlvr_vl_pipeline", "rlvr.rlvr_vlm_pipeline", "RLVRVLMPipeline"), ("start_sft_pipeline", "sft.sft_pipeline", "SFTPipeline")):
        write(tmp_path / f"examples/{name}.py", f"""\
            from hydra.experimental import compose, initialize
            from roll.pipeline.{module} import {cls}

            def main():
                initialize(config_path="config", job_name="app")
                {cls}(compose(config_name="rlvr_config"))
            """)
    script = write(tmp_path / "examples/run.sh", "python examples/start_rlvr_vl_pipeline.py --config_path config --config_name c\n")
    roll = packs.load_pack("roll")
    assert script_composes(roll, "examples/start_rlvr_vl_pipeline.py", str(script))
    assert not script_composes(roll, "examples/start_sft_pipeline.py", str(script))
    assert not script_composes(roll, "examples/start_missing_pipeline.py", str(script))
    assert not script_composes(roll, "../outside/start_rlvr_vl_pipeline.py", str(script))


def test_imports_read_for_the_modules_an_entry_point_reaches():
    from vllm_lint.frameworks.entry_points import _imported

    source = b"from a.b import (\n    c,  # the setup\n    d as e,\n)\nimport f.g\nfrom h import i, j\nfrom .k import m\n"
    assert _imported(source) == ["a.b", "a.b.c", "a.b.d", "f.g", "h", "h.i", "h.j"]
    init = b"from .setup import (x,\n  y)\nfrom p.q.config import Config\nfrom other import z\n"
    assert _imported(init, package="p.q") == ["p.q.setup", "p.q.setup.x", "p.q.setup.y", "p.q.config", "p.q.config.Config"]


def test_hydra_pkg_config_paths_are_the_packages_folder(tmp_path):
    """``pkg://a.b`` and ``pkg://a/b`` name the package's folder, as Hydra reads them: in the
    module's tree (or its ``src``), up to the repository's root; else nowhere readable."""
    from vllm_lint.frameworks.entry_points import hydra_config_file, package_folder

    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    conf = repo / "src" / "myproj" / "conf"
    conf.mkdir(parents=True)
    (repo / "src" / "myproj" / "__init__.py").write_text("")
    (conf / "grpo.yaml").write_text("defaults:\n  - ppo_trainer\n")
    module = repo / "src" / "myproj" / "entrypoints" / "grpo.py"
    module.parent.mkdir()
    module.write_text("")
    assert package_folder(str(module), "myproj.conf") == conf
    assert package_folder(str(module), "myproj/conf") == conf
    assert hydra_config_file(str(module), "pkg://myproj.conf", "grpo") == str(conf / "grpo.yaml")
    assert hydra_config_file(str(module), "pkg://myproj/conf/", "grpo.yaml") == str(conf / "grpo.yaml")
    # Not a package of the tree nor an installed one; not a package name; another scheme.
    assert package_folder(str(module), "evalkit_not_installed.conf") is None
    assert package_folder(str(module), "myproj..conf-x") is None
    assert hydra_config_file(str(module), "file:///etc/conf", "grpo") is None
    # A folder of that name without the package's __init__.py is not what Python imports.
    (repo / "src" / "myproj" / "__init__.py").unlink()
    assert package_folder(str(module), "myproj.conf") is None
    # The search stops at the repository's root.
    outer = tmp_path / "outer_pkg_for_hydra_test"
    (outer / "conf").mkdir(parents=True, exist_ok=True)
    (outer / "__init__.py").write_text("")
    assert package_folder(str(module), "outer_pkg_for_hydra_test.conf") is None


def test_an_entry_point_whose_config_is_package_data_is_a_verl_launch():
    """The launch script mentions a pack marker, so the prefilter reads it; the entry module
    names its config only through pkg://."""
    from fixtures import TESTDATA
    from vllm_lint.commandline import needs_analysis
    from vllm_lint.frameworks import packs
    from vllm_lint.frameworks.entry_points import composes_config

    project = TESTDATA / "frameworks" / "verl-project"
    script = project / "scripts" / "run_grpo_package_config.sh"
    assert needs_analysis(script.read_bytes(), "shell", str(script))
    verl = packs.load_pack("verl")
    assert composes_config(verl, "myproj.entrypoints.grpo", str(script)) is not None
    assert composes_config(verl, "myproj.entrypoints.eval_suite", str(script)) is None


def test_the_launch_prefilter_admits_the_packs_whose_entry_points_are_derived():
    """Every pack that derives entry points from the framework's source has a byte marker that
    admits a launch of a project's own module, and no other pack has one."""
    from vllm_lint.frameworks import packs

    derived = {name for name in packs.BUILTIN if packs.load_pack(name).launchers.get("composes")}
    assert derived == set(packs.DERIVED_ENTRY_POINTS)
    assert packs.launch_candidates(b"python3 -m myproj.train actor_rollout_ref.rollout.n=4") == ["verl"]
    assert packs.launch_candidates(b"python3 -m myproj.train trainer.epochs=3") == []


# ------------------------------------------------------ start-up checks (VLM4xx)

V034 = Version.parse("0.34")


def test_start_up_checks_read_what_a_declared_pack_passes_and_nothing_else(tmp_path):
    """Without ``passes`` the framework may pass anything: only the written arguments decide."""
    write(
        tmp_path / "pyproject.toml",
        """\
        [tool.vllm-lint.frameworks.acme]
        globs = ["runs/*.yaml"]
        engine = [{ prefix = "serving.vllm" }]

        [tool.vllm-lint.frameworks.told]
        globs = ["told/*.yaml"]
        engine = [{ prefix = "serving.vllm" }]
        passes = [{ arg = "enable_sleep_mode", key = "serving.sleep" }, { arg = "data_parallel_size" }]
        defaults = { "serving.sleep" = true }
        """,
    )
    text = "serving:\n  vllm:\n    checkpoint_prepare_on_startup: true\n    enable_elastic_ep: true\n"
    unknown = write(tmp_path / "runs/a.yaml", text)
    told = write(tmp_path / "told/a.yaml", text)
    asleep_off = write(tmp_path / "told/b.yaml", "serving:\n  sleep: false\n  vllm:\n    checkpoint_prepare_on_startup: true\n")
    assert codes(lint(unknown, V034)) == []
    # The pack passes sleep mode (on by default) and leaves EPLB alone: only elastic EP is rejected.
    assert codes(lint(told, V034)) == [(4, "VLM401")]
    result = lint(asleep_off, V034)
    assert codes(result) == [(4, "VLM404")]
    assert "serving.sleep = false" in result.findings[0].message


def test_every_builtin_pack_records_what_its_framework_passes():
    """Each built-in pack records what its framework passes to vLLM on its own."""
    from vllm_lint.frameworks.packs import BUILTIN, load_pack

    assert all(load_pack(name).passes is not None for name in BUILTIN)


def test_explain_names_why_a_default_is_unknown(tmp_path, capsys):
    (tmp_path / ".git").mkdir()
    config = write(tmp_path / "replay.yaml", VERL_REPLAY)
    main(["explain", str(config)])
    out = capsys.readouterr().out
    assert "default for actor_rollout_ref.rollout.logprobs_mode changed across releases" in out
    assert "the project pins none of them" in out


def test_explain_says_an_unreadable_base_config_may_set_a_default(tmp_path, capsys):
    config = write(
        tmp_path / "replay.yaml",
        UNREADABLE_BASE,
    )
    main(["explain", str(config)])
    out = capsys.readouterr().out
    assert "a base config that could not be read may set" in out


NEMO_RL_BACKEND = """\
    policy:
      generation:
        backend: {backend}
        top_k: 20
        vllm_cfg:
          precision: bfloat16
          kv_cache_dtype: auto
        vllm_kwargs:
          max_num_sequences: 8
          engine_request_limit: 64
    """


@pytest.mark.parametrize(("backend", "release", "kind"), [("vllm", "0.25", "EngineArgs"), ("dynamo", "0.23", "AsyncEngineArgs")])
def test_nemo_rl_backends_run_the_vllm_of_their_own_environment(tmp_path, backend, release, kind):
    # NeMo-RL 0.6's vllm extra pins vLLM 0.25.1; its Dynamo environment (ai-dynamo 1.3.0.post1) 0.23.0.
    (tmp_path / ".git").mkdir()
    write(tmp_path / "requirements.txt", "nemo-rl[vllm]==0.6.0\n")
    config = write(tmp_path / "grpo.yaml", NEMO_RL_BACKEND.format(backend=backend))
    result = lint_file(str(config), lambda _path: (Version(0, 34), "the newest vLLM release the rules know: no pin found"))
    messages = [f.message for f in result.findings]
    assert [f.code for f in result.findings] == (["VLM301"] * (2 if backend == "vllm" else 1)), messages
    assert f"max_num_sequences is not an argument of {kind} in vLLM {release}" in messages[0]
    # engine_request_limit is an option of Dynamo's own parser, not vLLM's.
    assert any("engine_request_limit" in m for m in messages) == (backend == "vllm")


def test_a_backend_variant_may_change_only_the_engine_side(tmp_path):
    from vllm_lint.frameworks.pack import PackError, pack_from_data

    pack = pack_from_data({"name": "acme", "backend": {"key": "gen.backend", "values": ["vllm"]},
                           "backends": {"managed": {"engine": [{"prefix": "gen.kwargs", "reaches": "engine-argv"}]}}})
    assert pack.for_backend("managed").backend_of == "managed" and pack.for_backend("vllm") is pack
    with pytest.raises(PackError, match="backends.managed may set"):
        pack_from_data({"name": "acme", "backends": {"managed": {"detect": ["x"]}}})
