from vllm import LLM

llm = LLM(model="m", task="generate", runner="generate")
old = LLM(model="m", use_v2_block_manager=True)  # expect: VLM301
