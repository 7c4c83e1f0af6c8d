"""vLLM's argument schema (launch/vllm_schema.json) and the rules that read it: VLM301, VLM303, VLM304."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap

from vllm_lint import cli
from vllm_lint.launch import schema
from vllm_lint.versions import Version


def test_every_minor_release_from_0_8_to_0_34_and_where_it_came_from():
    assert schema.releases() == tuple((0, minor) for minor in range(8, 35))
    data = schema._data()
    assert data["generated_by"].startswith("python tools/vllm_schema.py")
    assert len(data["from"]) == len(data["releases"]) and all(entry.startswith("vllm==") for entry in data["from"])


def test_release_facts_that_vllms_history_documents():
    v034, v012 = schema.schema_for(Version(0, 34)), schema.schema_for(Version(0, 12))
    assert v034.exact and v034.has_option("--max-model-len") and v034.has_option("-tp")
    assert v034.has_option("--no-enable-prefix-caching") and v034.has_option("--disable-log-requests")
    assert not v034.has_option("--enable-reasoning") and not v034.has_option("--task")
    assert v012.has_option("--task") and not v012.has_option("--enable-trace-replay")
    assert v034.has_option("--max-model")  # argparse accepts a unique prefix of a long option
    assert "return_sampling_mask" in v034.keywords["LLM"] and "return_sampling_mask" not in schema.schema_for(Version(0, 27)).keywords["LLM"]
    assert v034.bounds["gpu_memory_utilization"] == {"gt": 0, "le": 1}
    assert v034.choices["logprobs_mode"]["python"] == ["processed_logits", "processed_logprobs", "raw_logits", "raw_logprobs"]
    # A type that also accepts any string has no closed set of choices.
    assert "quantization" not in v034.choices and "tokenizer_mode" not in v034.choices


def test_history_and_near_miss():
    assert schema.history(schema.option_releases("--task"), (0, 34)) == " (removed in 0.13)"
    assert schema.history(schema.option_releases("--enable-trace-replay"), (0, 12)) == " (added in 0.29)"
    # Removed, then back: both are said.
    assert schema.history([(0, 15), (0, 16), (0, 33), (0, 34)], (0, 20)) == " (removed in 0.17, back in 0.33)"
    assert schema.history([], (0, 34)) == ""
    assert schema.near_miss("--max-model-length", ["--max-model-len", "--max-num-seqs"]) == "--max-model-len"
    assert schema.near_miss("--port", ["--max-model-len"]) is None


def test_an_unknown_release_borrows_the_newest_schema_marked_not_exact():
    found = schema.schema_for(Version(0, 99))
    assert not found.exact and found.options == schema.schema_for(Version(0, 34)).options


def _lint(tmp_path, files: dict[str, str], *args: str) -> str:
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "vllm_lint", "check", "--output-format", "concise", *args, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def test_extra_arguments_declared_by_the_project_are_never_reported(tmp_path):
    files = {
        "serve.sh": "vllm serve Qwen/Qwen3-8B --my-plugin-flag 1 --max-model-length 4096\n",
        "run.py": "from vllm import LLM\nLLM('m', my_plugin_option=1, max_model_length=4096)\n",
    }
    before = _lint(tmp_path, files, "--target-version", "0.34")
    assert before.count("VLM301") == 4
    (tmp_path / "pyproject.toml").write_text(
        '[tool.vllm-lint]\nextra-arguments = ["--my-plugin-flag", "my_plugin_option"]\n', encoding="utf-8"
    )
    after = _lint(tmp_path, files, "--target-version", "0.34")
    assert after.count("VLM301") == 2 and "my-plugin" not in after and "my_plugin" not in after
    assert "did you mean max_model_len?" in after and "did you mean --max-model-len?" in after


def test_unknown_values_and_unresolved_mappings_are_silent(tmp_path):
    out = _lint(
        tmp_path,
        {
            "run.py": """
                from vllm import LLM
                def build(extra, mode, util):
                    return LLM("m", logprobs_mode=mode, gpu_memory_utilization=util, **extra)
            """,
            "serve.sh": 'vllm serve m --logprobs-mode "$MODE" --gpu-memory-utilization "$UTIL" $EXTRA\n',
        },
        "--target-version",
        "0.34",
    )
    assert "VLM30" not in out


def test_a_flag_written_for_certain_is_reported_even_next_to_unknown_words(tmp_path):
    out = _lint(tmp_path, {"serve.sh": "vllm serve m $EXTRA --enable-reasoning\n"}, "--target-version", "0.34")
    assert "VLM301 --enable-reasoning is not an argument in vLLM 0.34 (removed in 0.10)" in out


def test_rule_command_prints_the_new_rules():
    for code, name in (("VLM301", "flag-unavailable"), ("VLM303", "invalid-choice"), ("VLM304", "out-of-range")):
        out = io.StringIO()
        cli.run_rule(cli.build_parser().parse_args(["rule", code]), out)
        text = out.getvalue()
        assert f"{code} ({name})" in text or (code in text and name in text)
        assert "Example" in text and "Use instead" in text


def test_the_schema_loads_only_when_an_engine_is_checked(tmp_path):
    code = textwrap.dedent(
        f"""
        import json, sys
        from vllm_lint import cli
        from vllm_lint.launch import schema
        cli.main(["check", "-q", "--exit-zero", {str(tmp_path / "plain.py")!r}])
        print(json.dumps(schema._data.cache_info().currsize))
        """
    )
    (tmp_path / "plain.py").write_text("import os\nprint(os.sep)\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert json.loads(result.stdout.strip().splitlines()[-1]) == 0, result.stderr


def test_serve_options_and_schema_agree_on_which_options_each_release_has():
    from vllm_lint.launch.options import serve_options

    for minor in range(28, 35):
        version = Version(0, minor)
        kinds = serve_options(version)
        release = schema.schema_for(version)
        assert set(kinds) <= set(release.options), minor
        for option, kind in kinds.items():
            if kind == "bool" and option.startswith("--"):
                assert "--no-" + option[2:] in release.options, option


def test_editor_plugins_honour_extra_arguments(tmp_path):
    (tmp_path / "run.py").write_text('from vllm import LLM\nLLM("m", my_plugin_option=1, max_model_length=3)\n', encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.vllm-lint]\nextra-arguments = ["my-plugin-option"]\n', encoding="utf-8")
    flake8 = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "VLM", "run.py"], capture_output=True, text=True, cwd=tmp_path
    )
    assert "Traceback" not in flake8.stderr
    assert "max_model_length" in flake8.stdout and "my_plugin_option" not in flake8.stdout
    pylint = subprocess.run(
        [sys.executable, "-m", "pylint", "--load-plugins=vllm_lint.pylint", "--disable=all", "--enable=vllm-lint",
         "--persistent=n", "--score=n", "run.py"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert "Traceback" not in pylint.stderr
    assert "max_model_length" in pylint.stdout and "my_plugin_option" not in pylint.stdout


def test_a_template_expression_split_over_lines_keeps_the_yaml_readable(tmp_path):
    manifest = """\
        apiVersion: v1
        kind: Pod
        spec:
          containers:
            - name: vllm
              image: vllm/vllm-openai:v0.34.0
              command: ["vllm", "serve"]
              args: ["{{ .Values.model }}", "--enable-reasoning"]
              env:
                - name: ROUTE
                  value: publishers/{{ .ObjectMeta.Namespace }}/models/{{ .Spec.Model.Name
                    }}
        """
    out = _lint(tmp_path, {"pod.yaml": manifest}, "--target-version", "0.34")
    assert "cannot parse" not in out
    assert "VLM301 --enable-reasoning" in out


# ------------------------------------------------------------------ documented renames


def test_renames_come_from_vllms_own_deprecation_texts():
    renames = schema._data()["renames"]
    cache = renames["disable_mm_preprocessor_cache"]
    assert (cache["to"], cache["value"], cache["fix"]) == ("mm_processor_cache_gb", "0", "value")
    assert cache["documented"] == ["0.10", "0.12"] and "Please use `--mm-processor-cache-gb 0` instead" in cache["message"]
    assert renames["enable_multimodal_encoder_data_parallel"]["value"] == "data"
    assert (renames["cuda_graph_sizes"]["to"], renames["cuda_graph_sizes"]["fix"]) == ("cudagraph_capture_sizes", "rename")
    # The opposite meaning, a value vLLM picks per model, a field of another flag's value: no fix.
    assert renames["disable_log_requests"]["to"] == "enable_log_requests" and renames["disable_log_requests"]["fix"] is None
    assert renames["task"]["to"] == ["convert", "runner"] and renames["task"]["fix"] is None
    assert renames["eplb_window_size"]["to"] == "eplb_config.window_size" and renames["eplb_window_size"]["fix"] is None
    assert renames["enable_reasoning"]["fix"] is None  # --reasoning-parser needs a parser name vLLM's text does not give


def test_the_generator_reads_subjects_and_successors_from_message_shapes():
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1] / "tools"))
    import vllm_schema

    subjects = lambda text: [m.group(1) or m.group(2) for m in vllm_schema._SUBJECT.finditer(text)]  # noqa: E731
    assert subjects("`--old-flag` is deprecated and will be removed in v0.13.") == ["--old-flag"]
    assert subjects("The `--enable-x` flag is deprecated as of v0.9.0.") == ["--enable-x"]
    assert subjects("The 'task' option has been deprecated") == ["task"]
    assert subjects("old_name has been renamed to new_name") == ["old_name"]
    assert subjects("`--convert reward` is deprecated") == []  # a value, not a flag, is deprecated
    assert vllm_schema._successors("Please use `--new-flag 0` instead.") == [("--new-flag", "0")]
    assert vllm_schema._successors("Please use --new-flag instead.") == [("--new-flag", None)]
    assert vllm_schema._successors("has been replaced with `new_name`.") == [("new_name", None)]
    assert vllm_schema._successors("Please use `--new-flag %d` instead.") == [("--new-flag", "?")]
    kinds = {"--a": "flag", "--b": "one", "--c": "many", "--d": "many", "--enable-e": "bool", "--disable-f": "bool"}
    assert vllm_schema._rename_fix("a", "b", "--a", {"flag": "--b", "value": "0"}, kinds) == "value"
    assert vllm_schema._rename_fix("a", "b", "--a", {"flag": "--b", "value": None}, kinds) is None
    assert vllm_schema._rename_fix("c", "d", "--c", {"flag": "--d", "value": None}, kinds) == "rename"
    assert vllm_schema._rename_fix("c", "b", "--c", {"flag": "--b", "value": None}, kinds) is None  # a list vs one value
    assert vllm_schema._rename_fix("disable_f", "enable_e", "--disable-f", {"flag": "--enable-e", "value": None}, kinds) is None


def test_a_rename_is_named_only_where_the_release_has_the_successor():
    v013, v010 = schema.schema_for(Version(0, 13)), schema.schema_for(Version(0, 10))
    found = schema.documented_rename("disable_mm_preprocessor_cache", v013)
    assert found.spelled(True) == "--mm-processor-cache-gb 0" and found.spelled(False) == "mm_processor_cache_gb=0"
    assert found.release == (0, 12) and found.fix == "value"
    assert schema.documented_rename("enable_multimodal_encoder_data_parallel", v013, "LLM").spelled(False) == 'mm_encoder_tp_mode="data"'
    # vLLM 0.10 has no --cudagraph-capture-sizes (0.11+): nothing to rename to.
    assert schema.documented_rename("cuda_graph_sizes", v010) is None
    assert schema.documented_rename("max_model_len", v013) is None


def test_rename_messages_and_fix_safety(tmp_path):
    out = _lint(
        tmp_path,
        {
            "serve.sh": """\
                vllm serve m --disable-mm-preprocessor-cache
                vllm serve m --disable-log-requests
            """
        },
        "--target-version",
        "0.20",
    )
    assert "--disable-mm-preprocessor-cache is not an argument in vLLM 0.20 (removed in 0.13); renamed to --mm-processor-cache-gb 0 (vLLM 0.12)" in out
    assert "--disable-log-requests is not an argument in vLLM 0.20 (removed in 0.17, back in 0.33); replaced by --enable-log-requests (vLLM 0.11)" in out
    code = subprocess.run(
        [sys.executable, "-m", "vllm_lint", "check", "--output-format", "json", "--target-version", "0.20", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    records = {r["location"]["row"]: r for r in json.loads(code.stdout)}
    assert records[1]["fix"]["applicability"] == "unsafe"
    assert records[1]["fix"]["edits"][0]["content"] == "--mm-processor-cache-gb 0"
    assert records[2]["fix"] is None  # the opposite meaning: no rewrite


def test_a_value_in_a_launched_config_file_is_reported_once_where_it_is_written(tmp_path):
    (tmp_path / "serving").mkdir()
    files = {
        "serve.sh": "vllm serve Qwen/Qwen3-8B --config serving/replay.yaml --port 8000\n",
        "serving/replay.yaml": "tensor-parallel-size: 2\ndisable-log-requests: true\ngpu-memory-utilization: 1.5\n",
    }
    both = _lint(tmp_path, files, "--target-version", "0.20")
    assert "serving/replay.yaml:2:1: VLM301 --disable-log-requests" in both
    assert "serving/replay.yaml:3:1: VLM304 --gpu-memory-utilization=1.5" in both
    assert "serve.sh" not in both and "Found 2 errors" in both
    # The script alone: the launch says where the value is set.
    script = subprocess.run(
        [sys.executable, "-m", "vllm_lint", "check", "--output-format", "concise", "--target-version", "0.20", "serve.sh"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    ).stdout
    assert "serve.sh:1:1: VLM301 --disable-log-requests" in script and "(set in serving/replay.yaml, line 2)" in script
    assert "(set in serving/replay.yaml, line 3)" in script and "Found 2 errors" in script
    # A config value the file itself does not report (another code) stays at the launch.
    files["serving/replay.yaml"] = "# vllm-lint: noqa: VLM304\ntensor-parallel-size: 2\ngpu-memory-utilization: 1.5\n"
    kept = _lint(tmp_path, files, "--target-version", "0.20")
    assert "serve.sh:1:1: VLM304" in kept and "serving/replay.yaml:" not in kept


def _synthetic_tree(tmp_path, files: dict[str, str]):
    """A wheel-like zip with the given vllm modules, read by the generator's Tree."""
    import zipfile

    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1] / "tools"))
    import vllm_schema

    path = tmp_path / "vllm-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, textwrap.dedent(text))
    return vllm_schema, vllm_schema.Tree(zipfile.ZipFile(path))


def test_the_generator_reads_what_a_config_validates_at_start_up(tmp_path):
    vllm_schema, tree = _synthetic_tree(
        tmp_path,
        {
            "vllm/__init__.py": "",
            "vllm/config/__init__.py": "",
            "vllm/config/utils.py": 'def config(cls):\n    merged_config = ConfigDict(extra="forbid")\n',
            "vllm/config/cache.py": '''
                import enum
                from typing import Literal, get_args
                import torch
                from pydantic import Field, field_validator
                from vllm.config.utils import config

                CacheDType = Literal["auto", "fp8", "bfloat16"]
                KV_CACHE_DTYPES: list[str] = list(get_args(CacheDType))

                def is_known(name: str) -> bool:
                    return name in KV_CACHE_DTYPES

                class Level(enum.IntEnum):
                    O0 = 0
                    O3 = 3

                @config
                class Inner:
                    mode: int = 0
                    backend: str = ""

                @config
                class CacheConfig:
                    cache_dtype: CacheDType | str = "auto"
                    lora_dtype: torch.dtype | Literal["auto", "float16"] = "auto"
                    level: Level = Level.O0
                    seed: int = Field(default=0, ge=0, le=2**32 - 1)
                    inner: Inner = Field(default_factory=Inner)
                    free: str | Literal["a"] = "a"

                    @field_validator("cache_dtype", mode="after")
                    @classmethod
                    def _check(cls, value):
                        if not is_known(value):
                            raise ValueError(f"Invalid kv_cache_dtype: {value!r}. Valid values are: {KV_CACHE_DTYPES}")
                        return value
            ''',
        },
    )
    cls = tree.lookup("vllm.config.cache", "CacheConfig")[2]
    fields = vllm_schema.dataclass_fields(tree, "vllm.config.cache", cls)
    values = lambda name, others: vllm_schema.literal_values(tree, *fields[name], others=others)  # noqa: E731
    # torch.dtype takes no string: argparse gets the Literal's choices, and so does the config's check.
    assert values("lora_dtype", vllm_schema.NOT_STRINGS) == ["auto", "float16"]
    assert values("lora_dtype", frozenset()) is None
    assert values("free", vllm_schema.VALIDATED) is None  # any string
    assert values("cache_dtype", vllm_schema.VALIDATED) is None  # | str ...
    # ... but the field validator admits only the alias's members, with its own message.
    assert vllm_schema.validated_choices(tree, "vllm.config.cache", cls, "cache_dtype") == (["auto", "fp8", "bfloat16"], "Invalid kv_cache_dtype: ")
    assert values("level", vllm_schema.VALIDATED) == [0, 3] and values("level", vllm_schema.NOT_STRINGS) is None
    assert vllm_schema.field_bounds(cls, tree, "vllm.config.cache", "seed") == {"ge": 0, "le": 4294967295}
    assert vllm_schema.config_keys(tree, "vllm.config.cache", cls, "inner", vllm_schema.ConfigClasses(tree)) == {"class": "Inner", "fields": ["backend", "mode"]}
    assert vllm_schema.config_keys(tree, "vllm.config.cache", cls, "seed", vllm_schema.ConfigClasses(tree)) is None


def test_the_generator_follows_star_imports_and_re_exports_to_a_literal_alias(tmp_path):
    # vLLM 0.33+: FrontendArgs imports ChatTemplateContentFormatOption from a package whose
    # __init__ star-imports the module that defines it.
    vllm_schema, tree = _synthetic_tree(
        tmp_path,
        {
            "vllm/__init__.py": "",
            "vllm/renderers/__init__.py": "",
            "vllm/renderers/chat_utils/__init__.py": '''
                from .chat_template import load_chat_template
                from .types import *
                from .types import __all__ as all_types
                from .private import *
            ''',
            "vllm/renderers/chat_utils/types.py": '''
                from typing import Literal
                __all__ = ["ContentFormatOption"]
                ContentFormatOption = Literal["auto", "string", "openai"]
                Hidden = Literal["a", "b"]
            ''',
            "vllm/renderers/chat_utils/private.py": '''
                from typing import Literal
                Public = Literal["x"]
                _Private = Literal["y"]
            ''',
            "vllm/renderers/chat_utils/chat_template.py": '''
                from .types import ContentFormatOption
                def load_chat_template(): ...
            ''',
            "vllm/entrypoints/__init__.py": "",
            "vllm/entrypoints/cli_args.py": '''
                from vllm.renderers.chat_utils import ContentFormatOption, Hidden, Public, _Private
                from vllm.renderers.chat_utils.chat_template import ContentFormatOption as ReExported
            ''',
        },
    )
    values = lambda name: vllm_schema.literal_values(tree, "vllm.entrypoints.cli_args", __import__("ast").Name(name))  # noqa: E731
    assert values("ContentFormatOption") == ["auto", "string", "openai"]
    assert values("ReExported") == ["auto", "string", "openai"]
    assert values("Public") == ["x"]  # a module without __all__ exports its public names
    # Not exported by the star import: __all__ leaves it out, or its name is private.
    assert values("Hidden") is None and values("_Private") is None


def test_the_servers_literal_options_have_choices_in_every_release_that_types_them():
    for minor in range(8, 35):
        release = schema.schema_for(Version(0, minor))
        assert release.choices["chat_template_content_format"]["cli"] == ["auto", "openai", "string"], minor
        assert release.choices["uvicorn_log_level"]["cli"] == ["critical", "debug", "error", "info", "trace", "warning"]
    for minor in (33, 34):
        release = schema.schema_for(Version(0, minor))
        assert release.choices["tool_strict_level"]["cli"] == ["auto", "function", "parameter"]
        assert "none" in release.choices["fingerprint_mode"]["cli"] and "xhigh" in release.choices["anthropic_disabled_thinking_effort"]["cli"]
        assert not release.has_option("--no-chat-template-content-format")  # one value, no custom action


def test_the_generator_reads_options_registered_in_a_loop_over_a_literal_list(tmp_path):
    # vLLM 0.11 registers its deprecated guided-decoding options in a loop.
    import ast

    vllm_schema, tree = _synthetic_tree(
        tmp_path,
        {
            "vllm/__init__.py": "",
            "vllm/engine/__init__.py": "",
            "vllm/engine/arg_utils.py": '''
                def add_cli_args(parser, names):
                    for arg, type in [
                        ("--old-backend", str),
                        ("--old-disable-fallback", bool),
                    ]:
                        parser.add_argument(arg, type=type, help=f"[DEPRECATED] {arg}", deprecated=True)
                    for flag in ("--old-flag-a", "--old-flag-b"):
                        parser.add_argument(flag, action="store_true")
                    for name in names:  # not a literal list: not read
                        parser.add_argument(name)
            ''',
        },
    )
    func = next(node for node in tree.module("vllm.engine.arg_utils").body if isinstance(node, ast.FunctionDef))
    reader = vllm_schema.Reader(tree, "vllm.engine.arg_utils")
    reader.function(func)
    assert reader.options == {"--old-backend": "one", "--old-disable-fallback": "one", "--old-flag-a": "flag", "--old-flag-b": "flag"}
    assert reader.dests["--old-backend"] == "old_backend" and "old_backend" in reader.doubtful  # type= and no choices


def test_vllm_0_11_still_accepts_the_deprecated_guided_decoding_options():
    v011, v012 = schema.schema_for(Version(0, 11)), schema.schema_for(Version(0, 12))
    for option in ("--guided-decoding-backend", "--guided-decoding-disable-fallback", "--guided-decoding-disable-any-whitespace"):
        assert v011.has_option(option) and not v012.has_option(option)
    assert "guided_decoding_backend" not in v011.choices  # type=str: any string


def test_the_generator_reads_the_closed_choices_of_a_config_values_keys(tmp_path):
    vllm_schema, tree = _synthetic_tree(
        tmp_path,
        {
            "vllm/__init__.py": "",
            "vllm/config/__init__.py": "",
            "vllm/config/utils.py": 'def config(cls):\n    merged_config = ConfigDict(extra="forbid")\n',
            "vllm/config/speculative.py": '''
                from typing import Literal
                from pydantic import Field, field_validator, model_validator
                from vllm.config.utils import config

                MTPTypes = Literal["deepseek_mtp", "mtp"]
                Method = Literal["ngram", "eagle3", MTPTypes, "mtp"]

                @config
                class Spec:
                    method: Method | None = None
                    open_method: Method | str | None = None
                    sampling: Literal["greedy", "probabilistic"] = "greedy"
                    backend: Literal["a", "b"] = "a"
                    count: int = 1

                    @field_validator("backend", mode="before")
                    @classmethod
                    def _lower(cls, value):
                        return value.lower()

                    @field_validator("sampling")
                    @classmethod
                    def _after(cls, value):
                        return value

                @config
                class Rewritten:
                    kind: Literal["x", "y"] = "x"

                    @model_validator(mode="before")
                    @classmethod
                    def _legacy(cls, data):
                        return data

                @config
                class Engine:
                    spec: Spec | None = None
                    rewritten: Rewritten | None = None
            ''',
        },
    )
    engine = tree.lookup("vllm.config.speculative", "Engine")[2]
    found = vllm_schema.config_keys(tree, "vllm.config.speculative", engine, "spec", vllm_schema.ConfigClasses(tree))
    # A before-validator may turn any value into a member; an after-validator sees a member; | str is open.
    assert found["choices"] == {"method": ["deepseek_mtp", "eagle3", "mtp", "ngram"], "sampling": ["greedy", "probabilistic"]}
    assert "choices" not in vllm_schema.config_keys(tree, "vllm.config.speculative", engine, "rewritten", vllm_schema.ConfigClasses(tree))


def test_the_speculative_method_is_closed_in_0_33_and_open_from_0_34():
    v033, v034 = schema.schema_for(Version(0, 33)), schema.schema_for(Version(0, 34))
    methods = v033.keys["speculative_config"]["choices"]["method"]
    assert {"ngram", "eagle3", "draft_model", "mtp", "deepseek_mtp"} <= set(methods) and "medusa" not in methods
    assert "method" not in v034.keys["speculative_config"]["choices"]  # Literal[...] | str: plugins add methods
    assert v034.keys["speculative_config"]["choices"]["rejection_sample_method"] == ["block", "fly", "standard", "synthetic"]
    assert "medusa" in schema.schema_for(Version(0, 30)).keys["speculative_config"]["choices"]["method"]


def test_the_generator_reads_an_option_spread_from_one_get_kwargs_entry_taken_at_once(tmp_path):
    # vLLM 0.31+: logging_config_kwargs = get_kwargs(VllmConfig)["logging_config"]
    import ast

    vllm_schema, tree = _synthetic_tree(
        tmp_path,
        {
            "vllm/__init__.py": "",
            "vllm/engine/__init__.py": "",
            "vllm/config/utils.py": 'def config(cls):\n    merged_config = ConfigDict(extra="forbid")\n',
            "vllm/engine/arg_utils.py": '''
                import argparse
                from typing import Literal
                from vllm.config.utils import config

                @config
                class LoggingConfig:
                    log_level: Literal["DEBUG", "INFO"] = "INFO"

                @config
                class VllmConfig:
                    logging_config: LoggingConfig | None = None

                def add_cli_args(parser):
                    logging_config_kwargs = get_kwargs(VllmConfig)["logging_config"]
                    logging_config_kwargs["default"] = argparse.SUPPRESS
                    parser.add_argument("--logging-config", **logging_config_kwargs)
            ''',
        },
    )
    func = next(n for n in tree.module("vllm.engine.arg_utils").body if isinstance(n, ast.FunctionDef))
    reader = vllm_schema.Reader(tree, "vllm.engine.arg_utils")
    reader.function(func)
    assert reader.options == {"--logging-config": "one"}
    module, cls, field = reader.targets["logging_config"]
    assert vllm_schema.config_keys(tree, module, cls, field, vllm_schema.ConfigClasses(tree)) == {
        "class": "LoggingConfig", "fields": ["log_level"], "choices": {"log_level": ["DEBUG", "INFO"]}
    }


def test_the_generator_reads_choices_added_to_a_list_of_literals_and_what_the_word_none_does(tmp_path):
    # vLLM 0.9-0.30: --collect-detailed-traces' choices get the comma-joined pairs added, and
    # get_kwargs appends the string "None" to an optional Literal's choices (0.31+: None itself).
    import ast

    vllm_schema, tree = _synthetic_tree(
        tmp_path,
        {
            "vllm/__init__.py": "",
            "vllm/engine/__init__.py": "",
            "vllm/engine/arg_utils.py": '''
                from itertools import permutations
                from typing import Final, Literal, get_args
                from vllm.config.utils import config

                Modules = Literal["model", "worker", "all"]
                PASSTHROUGH: Final = "b"

                @config
                class ObservabilityConfig:
                    traces: list[Modules] | None = None
                    other: list[Modules] | None = None
                    mode: Literal["a", "b"] | None = None

                def _compute_kwargs(kwargs, name):
                    kwargs[name]["choices"].append("None")

                def add_cli_args(parser):
                    observability_kwargs = get_kwargs(ObservabilityConfig)
                    choices = observability_kwargs["traces"]["choices"]
                    observability_kwargs["traces"]["metavar"] = ",".join(choices)
                    observability_kwargs["traces"]["choices"] += [",".join(p) for p in permutations(get_args(Modules), r=2)]
                    observability_kwargs["other"]["choices"] += sorted(get_args(Modules))  # not listed: unknown
                    observability_kwargs["mode"]["choices"].remove(PASSTHROUGH)
                    parser.add_argument("--traces", **observability_kwargs["traces"])
                    parser.add_argument("--other", **observability_kwargs["other"])
                    parser.add_argument("--mode", **observability_kwargs["mode"])
            ''',
        },
    )
    module = tree.module("vllm.engine.arg_utils")
    func = next(n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == "add_cli_args")
    reader = vllm_schema.Reader(tree, "vllm.engine.arg_utils")
    reader.function(func)
    assert reader.extra == {"traces": ["model,worker", "model,all", "worker,model", "worker,all", "all,model", "all,worker"], "mode": []}
    assert reader.fewer == {"traces": [], "mode": ["b"]}
    assert "traces" in reader.sources and "other" not in reader.sources and "mode" in reader.sources
    cls = next(n for n in module.body if isinstance(n, ast.ClassDef))
    fields = vllm_schema.dataclass_fields(tree, "vllm.engine.arg_utils", cls)
    assert vllm_schema.element_literals(tree, *fields["traces"]) == ["model", "worker", "all"]
    assert vllm_schema.element_literals(tree, *fields["mode"]) is None  # not a list
    assert vllm_schema.optional(tree, *fields["mode"])
    assert vllm_schema.none_choice(module) == "string"
    assert vllm_schema.none_choice(ast.parse('kwargs[name]["choices"].append(None)')) == "value"
    assert vllm_schema.none_choice(ast.parse("values.append('None')")) is None


def test_the_word_none_and_comma_joined_traces_per_release():
    data = schema.schema_for(Version(0, 30)).choices
    assert data["safetensors_load_strategy"]["none"] == "cli" and data["collect_detailed_traces"]["none"] == "cli"
    assert "model,worker" in data["collect_detailed_traces"]["cli"] and "model,worker" not in data["collect_detailed_traces"]["config"]
    newer = schema.schema_for(Version(0, 31)).choices
    assert "none" not in newer["safetensors_load_strategy"] and newer["collect_detailed_traces"]["none"] == "config"
    assert newer["collect_detailed_traces"]["cli"] == ["all", "model", "worker"]
    # 0.32+ removes "passthrough" from --all2all-backend's choices; the config still takes it.
    a2a = schema.schema_for(Version(0, 34)).choices["all2all_backend"]
    assert "passthrough" not in a2a["cli"] and "passthrough" in a2a["config"]
    # 0.10's ObservabilityConfig is a pydantic dataclass too: the pairs pass argparse and fail
    # its validation, before __post_init__ could split them (vLLM 0.10.2's own parser and config).
    assert schema.schema_for(Version(0, 10)).choices["collect_detailed_traces"]["config"] == ["all", "model", "worker"]


def test_the_generator_reads_the_configs_of_releases_before_0_16(tmp_path):
    # Up to 0.15 @config only marks a class: pydantic checks it when it is a pydantic dataclass,
    # and forbids unknown keys only where the class's own ConfigDict says so.
    import ast

    vllm_schema, tree = _synthetic_tree(
        tmp_path,
        {
            "vllm/__init__.py": "",
            "vllm/config/__init__.py": "",
            "vllm/config/utils.py": "def config(cls):\n    return cls\n",
            "vllm/config/kv.py": '''
                import dataclasses
                import enum
                from typing import TYPE_CHECKING, Any, Literal, Optional
                from pydantic import ConfigDict, SkipValidation
                from pydantic.dataclasses import dataclass
                from vllm.config.utils import config
                from vllm.quant import Methods

                if TYPE_CHECKING:
                    from vllm.quant import Methods
                else:
                    Methods = Any

                BlockSize = Literal[8, 16]

                class Mode(enum.Enum):
                    RAW = "raw"
                    PROCESSED = "processed"

                @config
                @dataclass
                class KV:
                    role: Literal["producer", "consumer"] = "producer"

                @config
                @dataclass(config=ConfigDict(extra="forbid"))
                class Compile:
                    save_format: Literal["binary", "unpacked"] = "binary"

                @config
                @dataclasses.dataclass
                class Plain:
                    kind: Literal["a", "b"] = "a"

                @config
                @dataclass
                class Engine:
                    kv: Optional[KV] = None
                    compile: Optional[Compile] = None
                    plain: Optional[Plain] = None
                    block_size: SkipValidation[BlockSize] = None
                    quantization: SkipValidation[Optional[Methods]] = None

                def add_cli_args(parser):
                    parser.add_argument("--mode", choices=[f.value for f in Mode])
            ''',
            "vllm/quant.py": 'from typing import Literal\nMethods = Literal["fp8", "awq"]\n',
        },
    )
    classes = vllm_schema.ConfigClasses(tree)
    engine = tree.lookup("vllm.config.kv", "Engine")[2]
    keys = lambda field: vllm_schema.config_keys(tree, "vllm.config.kv", engine, field, classes)  # noqa: E731
    assert keys("kv") == {"class": "KV", "choices": {"role": ["consumer", "producer"]}}  # unknown keys pass
    assert keys("compile") == {"class": "Compile", "fields": ["save_format"], "choices": {"save_format": ["binary", "unpacked"]}}
    assert keys("plain") is None  # a standard dataclass: nothing checks it
    fields = vllm_schema.dataclass_fields(tree, "vllm.config.kv", engine)
    # argparse sees through SkipValidation (get_kwargs unwraps Annotated); pydantic does not check it.
    assert vllm_schema.literal_values(tree, *fields["block_size"], others=vllm_schema.NOT_STRINGS) == [8, 16]
    assert not classes.of_field("vllm.config.kv", engine, "block_size") and classes.of_field("vllm.config.kv", engine, "kv")
    assert vllm_schema.kind_of_field(tree, *fields["block_size"]) == "one"
    # The module binds Methods to Any at run time, after importing the Literal.
    assert vllm_schema.literal_values(tree, *fields["quantization"], others=vllm_schema.NOT_STRINGS) is None
    func = next(n for n in tree.module("vllm.config.kv").body if isinstance(n, ast.FunctionDef))
    reader = vllm_schema.Reader(tree, "vllm.config.kv")
    reader.function(func)
    assert reader.choices == {"mode": ["raw", "processed"]}


def test_releases_before_0_16_check_config_keys_as_their_pydantic_dataclasses_do():
    v014 = schema.schema_for(Version(0, 14))
    assert v014.keys["kv_transfer_config"]["choices"]["kv_role"] == ["kv_both", "kv_consumer", "kv_producer"]
    assert "fields" not in v014.keys["kv_transfer_config"] and "levle" not in v014.keys["compilation_config"]["fields"]
    assert v014.choices["block_size"] == {"cli": [1, 128, 16, 256, 32, 64, 8]}  # SkipValidation: no start-up check
    assert "--no-block-size" not in v014.options
    v010 = schema.schema_for(Version(0, 10))
    assert "cli" not in v010.choices.get("quantization", {})  # QuantizationMethods = Any at run time
    assert v010.choices["logprobs_mode"]["cli"] == ["processed_logits", "processed_logprobs", "raw_logits", "raw_logprobs"]


def test_a_successor_that_is_a_field_of_another_arguments_value_is_named():
    from vllm_lint.launch.schema import documented_rename, schema_for

    release = schema_for(Version.parse("0.34"))
    flag = documented_rename("num_redundant_experts", release)
    keyword = documented_rename("num_redundant_experts", release, "LLM")
    assert flag is not None and flag.fix is None
    assert flag.spelled(True) == """--eplb-config '{"num_redundant_experts": ...}'"""
    assert keyword is not None and keyword.spelled(False) == 'eplb_config={"num_redundant_experts": ...}'
    assert "eplb_config.num_redundant_experts" in flag.message
