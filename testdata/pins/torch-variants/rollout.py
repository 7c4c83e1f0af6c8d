"""Rollout workers for either torch build: 0.8 and 0.10 are both admitted."""
from vllm import LLM


def make_engine(model_path: str) -> LLM:
    # Both releases have task: no finding.
    return LLM(model=model_path, task="generate", enforce_eager=True)


def make_legacy_engine(model_path: str) -> LLM:
    # 0.8 has use_v2_block_manager, 0.10 does not: one admitted release accepts it.
    return LLM(model=model_path, use_v2_block_manager=True)


def make_new_engine(model_path: str) -> LLM:
    # 0.10 has kv_cache_memory_bytes, 0.8 does not: one admitted release accepts it.
    return LLM(model=model_path, kv_cache_memory_bytes=8 << 30)


def make_typo_engine(model_path: str) -> LLM:
    return LLM(model=model_path, gpu_memory_utilisation=0.8)  # expect: VLM301
