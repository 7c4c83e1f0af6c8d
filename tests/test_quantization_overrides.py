"""The quantization classes' override hooks, as each release's data writes them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vllm_lint.quantization_overrides import claimed

DATA = json.loads((Path(__file__).resolve().parent.parent / "src/vllm_lint/rules/checkpoint_data.json").read_text())
AWQ = {"bits": 4, "group_size": 128, "quant_method": "awq", "version": "gemm", "zero_point": True}
GPTQ = {"bits": 4, "desc_act": False, "group_size": 128, "quant_method": "gptq", "sym": True}


@pytest.mark.parametrize("release", sorted(DATA))
@pytest.mark.parametrize(
    ("config", "user", "model_type", "expected"),
    [
        (AWQ, "awq_marlin", "qwen3", True),  # AutoAWQ's hook (whether the GPU is a CPU is not known)
        (AWQ, "gptq_marlin", "qwen3", False),
        (AWQ, "fp8", "qwen3", False),
        (GPTQ, "gptq_marlin", "qwen3", True),
        (GPTQ, "marlin", "qwen3", True),
        (GPTQ, "awq", "qwen3", False),
        (GPTQ, "moe_wna16", "qwen3", True),  # MoE WNA16 may take it: its check reads the GPU
        (GPTQ, "humming", "qwen3", True),
        ({"quant_method": "auto-round"}, "fp8", "llama", True),
        ({"quant_method": "mxfp4"}, "fp8", "gpt_oss", True),  # gpt-oss's own MXFP4 class
        ({"quant_method": "mxfp4"}, "fp8", "llama", False),
        ({"quant_method": "fp8"}, "gptq", "llama", False),
        ({"quant_method": "fp8"}, "deepseek_v4_fp8", "llama", True),
        ({"quant_method": "modelopt", "quantization": {"quant_algo": "FP8"}}, "fp8", "llama", True),
        ({"quant_method": "modelopt", "quantization": {"quant_algo": "NVFP4"}}, "fp8", "llama", True),
        ({"quant_method": "modelopt", "quant_algo": "W8A8"}, "fp8", "llama", False),
    ],
)
def test_overrides_of_each_release(release, config, user, model_type, expected):
    assert claimed(DATA[release]["quantization_overrides"], dict(config), user, model_type) is expected


def test_every_release_finds_its_methods_classes():
    for release, data in DATA.items():
        overrides = data["quantization_overrides"]
        assert overrides["unresolved"] == [], release
        assert {"awq_marlin", "gptq_marlin", "moe_wna16", "inc"} <= set(overrides["methods"]), release
        assert "GptOssForCausalLM" in overrides["rewriting_architectures"], release


def test_a_release_with_an_unresolved_class_decides_nothing():
    data = {**DATA["0.34"]["quantization_overrides"], "unresolved": ["my_method"]}
    assert claimed(data, dict(GPTQ), "fp8", "llama") is None


def test_statements_not_written_out_may_return_anything():
    unknown = {"classes": {"x.Hook": [["unknown"], ["return", ["const", None]]]}, "methods": {"x": ["x.Hook"]}, "unresolved": []}
    assert claimed(unknown, {"quant_method": "gptq"}, "fp8", None) is True
    guarded = {
        "classes": {
            "x.Hook": [
                ["if", ["and", [["unknown", "platform"], ["compare", "==", ["param", "user"], ["const", "x"]]]], [["return", ["const", "x"]]], []],
                ["return", ["const", None]],
            ]
        },
        "methods": {"x": ["x.Hook"]},
        "unresolved": [],
    }
    assert claimed(guarded, {"quant_method": "gptq"}, "fp8", None) is False
    assert claimed(guarded, {"quant_method": "gptq"}, "x", None) is True
