"""Rollout workers for a pinned torch 2.8 build and a nightly one: 0.10 and the newest release
are both admitted (the bare ``vllm`` of the nightly requirements installs the newest)."""
from vllm import LLM


def make_compiled_engine(model_path: str) -> LLM:
    # optimization_level arrived in 0.12: the nightly build accepts it, so no finding.
    return LLM(model=model_path, optimization_level=2)


def make_legacy_engine(model_path: str) -> LLM:
    # speculative_model left in 0.8's era: neither admitted release has it.
    return LLM(model=model_path, speculative_model="ngram")  # expect: VLM301
