# target-version: 0.33
"""VLLM_USE_V2_MODEL_RUNNER set in code (VLM101, VLM107)."""
import os

from vllm import LLM

os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")

v1 = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # expect: VLM101:6
trace = LLM("Qwen/Qwen3-4B", enable_trace_replay=True)  # expect: VLM107:9

os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1"
v2 = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")

os.environ.pop("VLLM_USE_V2_MODEL_RUNNER")
default = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")

os.environ.update({"VLLM_USE_V2_MODEL_RUNNER": "0"})
again = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # expect: VLM101

# putenv changes the C environment but not os.environ: unknowable.
os.putenv("VLLM_USE_V2_MODEL_RUNNER", "1")
unknown = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")


def runtime_choice(use_v2):
    os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1" if use_v2 else "0"
    return LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")


# Watermarking forces V2 over the variable.
os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"
watermarked = LLM(
    "Qwen/Qwen3-4B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    watermark_config={"key": 42},
)
