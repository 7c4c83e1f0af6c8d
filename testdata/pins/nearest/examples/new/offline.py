from vllm import LLM

# No pin here: the repository's vllm==0.31.0 applies.
pooled = LLM(model="BAAI/bge-m3", runner="pooling")
llm = LLM(model="facebook/opt-125m", use_v2_block_manager=True)  # expect: VLM301
