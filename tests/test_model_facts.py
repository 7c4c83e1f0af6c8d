"""The model's config where it really is: a local checkpoint folder, the Hugging Face cache,
the project's [tool.vllm-lint.models], the table of known models; and the checks that read it."""

from __future__ import annotations

import json

import pytest

from vllm_lint.cli import main
from vllm_lint.model_facts import known_models, lookup, model_facts
from vllm_lint.rules.startup_checkpoint import derived_length, human_readable_int

LLAMA_CONFIG = {
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "max_position_embeddings": 8192,
    "rope_scaling": None,
}


def checkpoint(folder, config=LLAMA_CONFIG, **files):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config))
    for name, content in files.items():
        (folder / name.replace("__", ".")).write_text(json.dumps(content))
    return folder


def check(tmp_path, capsys, source: str, *options: str) -> tuple[int, str]:
    path = tmp_path / "launch.py"
    path.write_text(source)
    lookup.cache_clear()
    code = main(["check", str(path), "--target-version", "0.34", "--output-format", "concise", *options])
    return code, capsys.readouterr().out


def test_local_folder_facts_name_the_file(tmp_path, capsys):
    folder = checkpoint(tmp_path / "models" / "llama")
    code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{folder}", max_model_len=16384, tensor_parallel_size=3)\n')
    assert code == 1
    # The folder's path where the message has room for it, else its name.
    assert "max_position_embeddings=8192 in " in out and "llama/config.json" in out
    assert "num_attention_heads=32 in " in out
    assert out.count("VLM407") == 2


def test_local_folder_clean_values(tmp_path, capsys):
    folder = checkpoint(tmp_path / "llama")
    code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{folder}", max_model_len=8192, tensor_parallel_size=4)\n')
    assert code == 0, out


def test_rope_scaling_factor_lengthens_the_model(tmp_path, capsys):
    config = dict(LLAMA_CONFIG, rope_scaling={"rope_type": "linear", "factor": 4.0})
    folder = checkpoint(tmp_path / "long", config)
    code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{folder}", max_model_len=32768)\n')
    assert code == 0, out
    code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{folder}", max_model_len=32769)\n')
    assert "RoPE scaling factor 4" in out


def test_tokenizer_config_shortens_the_model(tmp_path, capsys):
    folder = checkpoint(tmp_path / "short", tokenizer_config__json={"model_max_length": 4096})
    code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{folder}", max_model_len=6000)\n')
    assert "model_max_length=4096 in tokenizer_config.json" in out


def test_quantization_file_of_the_folder(tmp_path, capsys):
    plain = checkpoint(tmp_path / "plain")
    code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{plain}", quantization="gptq_marlin")\n')
    assert "none of quantize_config.json" in out
    quantized = checkpoint(tmp_path / "gptq", quantize_config__json={"bits": 4, "group_size": 128})
    code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{quantized}", quantization="gptq_marlin")\n')
    assert code == 0, out
    with_config = checkpoint(tmp_path / "awq", dict(LLAMA_CONFIG, quantization_config={"quant_method": "awq", "bits": 4}))
    code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{with_config}", quantization="awq")\n')
    assert code == 0, out


def test_hugging_face_cache_layout(tmp_path, capsys, monkeypatch):
    cache = tmp_path / "hub"
    repo = cache / "models--acme--llama-8k"
    commit = "0" * 40
    checkpoint(repo / "snapshots" / commit)
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(commit)
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    code, out = check(tmp_path, capsys, 'from vllm import LLM\nllm = LLM("acme/llama-8k", tensor_parallel_size=6)\n')
    assert f"{commit}/config.json" in out
    # Another revision is not in the cache: not known.
    code, out = check(tmp_path, capsys, 'from vllm import LLM\nllm = LLM("acme/llama-8k", revision="v2", tensor_parallel_size=6)\n')
    assert code == 0, out
    # HF_HOME's hub folder when HF_HUB_CACHE is not set.
    monkeypatch.delenv("HF_HUB_CACHE")
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    code, out = check(tmp_path, capsys, 'from vllm import LLM\nllm = LLM("acme/llama-8k", tensor_parallel_size=6)\n')
    assert "VLM407" in out


def test_project_models(tmp_path, capsys):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.vllm-lint.models."acme/moe-70b"]\nnum_attention_heads = 64\narchitectures = ["MixtralForCausalLM"]\n'
        '[tool.vllm-lint.models."acme/dense"]\nconfig = "configs/dense.json"\n'
    )
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "dense.json").write_text(json.dumps(LLAMA_CONFIG))
    code, out = check(tmp_path, capsys, 'from vllm import LLM\nllm = LLM("acme/moe-70b", tensor_parallel_size=3)\n', "--config", str(tmp_path / "pyproject.toml"))
    assert "num_attention_heads=64 in [tool.vllm-lint.models]" in out
    code, out = check(tmp_path, capsys, 'from vllm import LLM\nllm = LLM("acme/dense", max_model_len=9000)\n', "--config", str(tmp_path / "pyproject.toml"))
    assert "max_position_embeddings=8192 in configs/dense.json" in out


def test_project_models_bad_table(tmp_path, capsys):
    (tmp_path / "pyproject.toml").write_text('[tool.vllm-lint]\nmodels = 3\n')
    code, out = check(tmp_path, capsys, "x = 1\n", "--config", str(tmp_path / "pyproject.toml"))
    assert code == 2


def test_broken_config_json_is_unknown(tmp_path, capsys):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "config.json").write_bytes(b"\xff{not json")
    code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{folder}", tensor_parallel_size=3)\n')
    assert code == 0, out


def test_diffusion_model_from_its_config(tmp_path, capsys):
    folder = checkpoint(tmp_path / "dllm", dict(LLAMA_CONFIG, canvas_length=256))
    code, out = check(
        tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{folder}", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
    )
    assert "VLM103" in out and "canvas_length=256" in out
    plain = checkpoint(tmp_path / "ar")
    code, out = check(
        tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{plain}", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
    )
    assert "VLM103" not in out


def test_explain_says_where_the_config_is_or_that_it_is_unknown(tmp_path, capsys):
    folder = checkpoint(tmp_path / "llama")
    path = tmp_path / "launch.py"
    path.write_text(f'from vllm import LLM\nllm = LLM("{folder}")\nother = LLM("acme/unknown-model")\n')
    lookup.cache_clear()
    main(["explain", str(path), "--target-version", "0.34", "--output-format", "json"])
    engines = json.loads(capsys.readouterr().out)["engines"]
    assert engines[0]["model"] == {"state": "known", "from": f"{folder}/config.json"}
    assert engines[1]["model"]["state"] == "unknown"
    assert "does not know the model 'acme/unknown-model'" in engines[1]["model"]["reason"]


def test_table_entries_record_their_source():
    table = known_models()
    assert len(table) >= 10
    for model, entry in table.items():
        assert entry["source"] and "@" not in entry["source"], model
        assert entry["config"].get("architectures"), model


def test_derived_length_reads_the_release_data():
    from vllm_lint.rules.startup_checkpoint import _data

    data = _data()["0.34"]
    facts = lookup("meta-llama/Llama-3.1-8B-Instruct", None, None, "/nonexistent")
    assert derived_length(facts, data)[0] == 131072  # llama3 RoPE leaves the length as it is
    facts = lookup("deepseek-ai/DeepSeek-V2-Lite", None, None, "/nonexistent")
    assert derived_length(facts, data)[0] == 163840  # so does yarn
    # 0.29 still scaled yarn's length by its factor.
    assert derived_length(facts, _data()["0.29"])[0] == 163840 * 40


@pytest.mark.parametrize(("text", "value"), [("8192", 8192), ("128k", 128000), ("32K", 32768), ("25.6k", 25600), ("1.5K", None), ("x", None)])
def test_human_readable_int(text, value):
    assert human_readable_int(text) == value


def test_unknown_model_engine_facts():
    from vllm_lint.facts import EngineFacts, Known, Span

    engine = EngineFacts("LLM", Span(1, 0), fields={"model": Known("acme/none")})
    assert model_facts(engine) is None


AWQ = {"bits": 4, "group_size": 128, "quant_method": "awq", "version": "gemm", "zero_point": True}
GPTQ = {"bits": 4, "desc_act": False, "group_size": 128, "quant_method": "gptq", "sym": True}


@pytest.mark.parametrize(
    ("quantization", "method", "reported"),
    [
        (AWQ, "awq", False),
        (AWQ, "awq_marlin", False),  # AWQ's override takes it (on a GPU)
        (AWQ, "AWQ", False),  # vLLM lowers the argument
        (AWQ, "moe_wna16", False),  # MoE WNA16 takes it where the GPU is recent enough: not known here
        (AWQ, "gptq_marlin", True),
        (AWQ, "fp8", True),
        (GPTQ, "gptq_marlin", False),
        (GPTQ, "gptq", False),
        (GPTQ, "fp8", True),
        (GPTQ, "fp8_per_tensor", True),  # an online shorthand
        (GPTQ, "awq_marlin", True),
        (GPTQ, "compressed-tensors", True),
        (GPTQ, "humming", False),  # Humming takes every checkpoint it is asked for
        ({"quant_method": "compressed_tensors", "format": "pack-quantized"}, "compressed-tensors", False),
        ({"quant_method": "auto-round", "bits": 4}, "fp8", False),  # INC takes every AutoRound checkpoint
        ({"quant_method": "fp8", "weight_block_size": [128, 128]}, "fp8", False),
        ({"quant_method": "fp8", "weight_block_size": [128, 128]}, "gptq", True),
    ],
)
def test_quantization_method_against_the_checkpoints(tmp_path, capsys, quantization, method, reported):
    folder = checkpoint(tmp_path / "quantized", dict(LLAMA_CONFIG, quantization_config=quantization))
    code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{folder}", quantization={method!r})\n')
    assert ("does not match" in out or "no quantization method of vLLM takes it" in out) is reported, out


def test_quantization_mismatch_names_the_checkpoints_method(tmp_path, capsys):
    folder = checkpoint(tmp_path / "qwen3-gptq", dict(LLAMA_CONFIG, quantization_config=GPTQ))
    code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{folder}", quantization="fp8")\n')
    assert 'quantized with gptq (quantization_config.quant_method="gptq"' in out
    assert "no quantization method of vLLM takes it for fp8" in out
    serve = tmp_path / "serve.sh"
    serve.write_text(
        f"vllm serve {folder} --quantization awq_marlin\n"
        f"vllm serve {folder} -q fp8\n"
        f"vllm serve {folder} --quantization fp8 --quantization gptq_marlin\n"  # the last one counts
        f"python -m sglang.launch_server --model-path {folder} --quantization fp8\n"
    )
    lookup.cache_clear()
    code = main(["check", str(serve), "--target-version", "0.34", "--output-format", "concise"])
    out = capsys.readouterr().out
    assert "--quantization awq_marlin: rejected at start-up" in out
    assert ":2:" in out and ":3:" not in out and ":4:" not in out, out


def test_quantization_mismatch_silent_where_vllm_may_read_otherwise(tmp_path, capsys):
    # gpt-oss's hook rewrites its checkpoint's method before vLLM compares them.
    gpt_oss = checkpoint(
        tmp_path / "gpt-oss",
        {"architectures": ["GptOssForCausalLM"], "model_type": "gpt_oss", "quantization_config": {"quant_method": "mxfp4"}},
    )
    # ModelOpt's hf_quant_config.json is read where config.json writes no quantization_config.
    modelopt = checkpoint(
        tmp_path / "modelopt",
        dict(LLAMA_CONFIG, text_config={"quantization_config": GPTQ}),
        hf_quant_config__json={"producer": {"name": "modelopt"}, "quantization": {"quant_algo": "FP8"}},
    )
    # A ModelOpt config takes its method from its algorithm.
    producer = checkpoint(
        tmp_path / "producer",
        dict(LLAMA_CONFIG, quantization_config={"producer": {"name": "modelopt"}, "quantization": {"quant_algo": "FP8"}}),
    )
    no_architecture = checkpoint(tmp_path / "bare", {"model_type": "llama", "quantization_config": GPTQ})
    for folder, method in ((gpt_oss, "fp8"), (modelopt, "fp8"), (producer, "gptq"), (no_architecture, "fp8")):
        code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{folder}", quantization={method!r})\n')
        assert code == 0, (folder, out)


def test_quantization_mismatch_of_a_multimodal_checkpoints_text_config(tmp_path, capsys):
    config = {"architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3", "text_config": {"quantization_config": AWQ}}
    folder = checkpoint(tmp_path / "gemma-awq", config)
    code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{folder}", quantization="gptq")\n')
    assert "text_config.quantization_config.quant_method" in out


def test_quantization_mismatch_of_a_declared_model(tmp_path, capsys):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.vllm-lint.models."my-org/qwen3-8b-awq"]\narchitectures = ["Qwen3ForCausalLM"]\n'
        'quantization_config = {quant_method = "awq", bits = 4}\n'
    )
    code, out = check(tmp_path, capsys, 'from vllm import LLM\nllm = LLM("my-org/qwen3-8b-awq", quantization="gptq_marlin")\n')
    assert "quantized with awq" in out and "[tool.vllm-lint.models]" in out
    code, out = check(tmp_path, capsys, 'from vllm import LLM\nllm = LLM("my-org/qwen3-8b-awq", quantization="awq_marlin")\n')
    assert code == 0, out


def test_generated_conditions_cover_the_checks_they_replace():
    """Each release's checks over the model's config (startup_data/<release>.model.json) hold
    the raises VLM407 evaluates with them, and record the model's facts they read."""
    from vllm_lint.model_facts import MODEL_FACTS
    from vllm_lint.rules.startup_checkpoint import _data
    from vllm_lint.rules.startup_checks import _load_with_model

    for key, release in _data().items():
        generated = _load_with_model(key)
        places = {(c["file"], c["line"]): c for c in generated["checks"]}
        for name in ("attention_heads", "expert_parallel", "multimodal_loras", "dcp_kv_heads", "dcp_maximum", "dcp_query_heads"):
            raised = release["checks"][name]
            assert (raised["file"], raised["line"]) in places, (key, name)
        for check in generated["checks"]:
            assert check["model_facts"] and set(check["model_facts"]) <= set(MODEL_FACTS), check["model_facts"]


def test_a_fact_the_config_does_not_write_leaves_the_generated_check_silent(tmp_path, capsys):
    config = {k: v for k, v in LLAMA_CONFIG.items() if k != "num_attention_heads"}
    folder = checkpoint(tmp_path / "headless", config)
    code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{folder}", tensor_parallel_size=3)\n')
    assert code == 0, out
    # Expert parallelism on a dense model reads the heads too (vLLM checks them first).
    code, out = check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{folder}", enable_expert_parallel=True)\n')
    assert code == 0, out


def test_model_facts_as_vllm_reads_them():
    from vllm_lint.model_facts import ModelFacts, read_fact
    from vllm_lint.rules.startup_checkpoint import _data

    release = _data()["0.34"]
    llama = ModelFacts("m", LLAMA_CONFIG, "config.json")
    assert read_fact(llama, "total_num_attention_heads", release) == (32, "num_attention_heads")
    assert read_fact(llama, "total_num_kv_heads", release) == (8, "num_key_value_heads")
    assert read_fact(llama, "num_experts", release) == (0, None)
    assert read_fact(llama, "use_mla", release) == (False, None)
    assert read_fact(llama, "is_multimodal_model", release) == (False, None)
    assert read_fact(llama, "no_such_fact", release) is None
    moe = ModelFacts("m", dict(LLAMA_CONFIG, model_type="qwen3_moe", architectures=["Qwen3MoeForCausalLM"], num_experts=128), "config.json")
    assert read_fact(moe, "num_experts", release) == (128, "num_experts")
    # A key that names experts vLLM does not read: a config class may count them otherwise.
    other = ModelFacts("m", dict(LLAMA_CONFIG, moe_layer_freq=2), "config.json")
    assert read_fact(other, "num_experts", release) is None
    mla = ModelFacts("m", dict(LLAMA_CONFIG, model_type="deepseek_v2"), "config.json")
    assert read_fact(mla, "use_mla", release) is None


def test_no_model_reads_no_generated_conditions(tmp_path, capsys):
    from vllm_lint.rules.startup_checks import _load_with_model

    _load_with_model.cache_clear()
    check(tmp_path, capsys, 'from vllm import LLM\nllm = LLM("some-org/unknown-model", tensor_parallel_size=3, enable_expert_parallel=True)\n')
    assert _load_with_model.cache_info().currsize == 0
    folder = checkpoint(tmp_path / "llama")
    check(tmp_path, capsys, f'from vllm import LLM\nllm = LLM("{folder}", tensor_parallel_size=3)\n')
    assert _load_with_model.cache_info().currsize == 1
