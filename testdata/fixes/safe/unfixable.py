# target-version: 0.30
"""Findings without an automatic fix stay as they are: VLM101, VLM103, VLM107, VLM2xx."""
import os

from vllm import LLM, SamplingParams

os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"
v1 = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
traced = LLM("Qwen/Qwen3-4B", enable_trace_replay=True)

diffusion = LLM(
    "google/diffusiongemma-2b",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

os.environ.pop("VLLM_USE_V2_MODEL_RUNNER")
engine = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
greedy = SamplingParams(temperature=0.0, top_k=20)
outputs = engine.generate(["Hello"], greedy)
