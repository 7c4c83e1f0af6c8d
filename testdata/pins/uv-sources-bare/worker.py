from vllm import LLM

# The bare dependency is installed from the source's tag: 0.10 only, not also the newest release.
llm = LLM(model="Qwen/Qwen3-4B", task="generate")
legacy = LLM(model="Qwen/Qwen3-4B", use_v2_block_manager=True)  # expect: VLM301
# optimization_level came in 0.12: were the newest release admitted too, this would not be reported.
tuned = LLM(model="Qwen/Qwen3-4B", optimization_level=2)  # expect: VLM301
