"""Runs with the project's own plugin loaded: its arguments are the engine's."""

from vllm import LLM

llm = LLM(model="Qwen/Qwen3-8B", sequence_shards=4, enable_shift_parallel=True, shift_parallel_threshold=256)
typo = LLM(model="Qwen/Qwen3-8B", sequence_shard=4)  # expect: VLM301
