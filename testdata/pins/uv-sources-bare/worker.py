from vllm import LLM

# The bare dependency is installed from the source's tag: 0.10 only, not also the newest release.
llm = LLM(model="Qwen/Qwen3-4B", task="generate")
legacy = LLM(model="Qwen/Qwen3-4B", use_v2_block_manager=True)  # expect: VLM301
