from vllm import LLM

# The lock installs 0.9.2, which still has these, though the range admits later releases.
llm = LLM(model="facebook/opt-125m", use_v2_block_manager=True, num_scheduler_steps=4)
embedder = LLM(model="BAAI/bge-m3", runner="pooling")  # expect: VLM301
