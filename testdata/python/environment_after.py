# target-version: 0.33
"""A setting after the engine is built does not affect it."""
import os

from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"
