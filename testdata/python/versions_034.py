# target-version: 0.34
"""vLLM 0.34 removed Model Runner V1: the variable no longer selects it."""
import os

from vllm import LLM

os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"
llm = LLM(
    "Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config={"method": "suffix", "num_speculative_tokens": 8},
)
trace = LLM("Qwen/Qwen3-8B", enable_trace_replay=True)
