"""Runs in the image beside it, on vLLM built from the v0.10.2 tag."""

from vllm import LLM

llm = LLM(model="Qwen/Qwen2.5-7B-Instruct", num_scheduler_steps=8)  # expect: VLM301
