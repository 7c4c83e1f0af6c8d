# target-version: 0.99
"""A release the schema does not have: the newest stands in, and only arguments no release had are reported."""
from vllm import LLM

removed_maybe_back = LLM("Qwen/Qwen3-4B", swap_space=4)
never = LLM("Qwen/Qwen3-4B", max_model_length=4096)  # expect: VLM301:30
value = LLM("Qwen/Qwen3-4B", gpu_memory_utilization=1.5)  # choices and bounds: silent for an unknown release
