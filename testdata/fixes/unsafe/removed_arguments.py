# target-version: 0.33
"""Engines configured for vLLM 0.6, on 0.33: arguments no release since 0.10 accepts."""
from vllm import LLM, EngineArgs

llm = LLM(
    "Qwen/Qwen2.5-7B-Instruct",
    use_v2_block_manager=True,
    max_num_seqs=64,
)
engine_kwargs = dict(model="Qwen/Qwen2.5-7B-Instruct", tokenizer_pool_size=2, enforce_eager=True)
engine_args = EngineArgs(**engine_kwargs)
