from vllm import LLM

llm = LLM(model="facebook/opt-125m", use_v2_block_manager=True)
pooled = LLM(model="BAAI/bge-m3", runner="pooling")  # expect: VLM301
