"""Fixes are re-checked: the renamed flag turns replay on, and VLM105's fix follows in the next pass."""
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", enable_return_sampling_mask=True)
