from vllm import LLM

llm = LLM(model="Qwen/Qwen2.5-7B-Instruct", num_scheduler_steps=8, use_v2_block_manager=True)
pooled = LLM(model="BAAI/bge-m3", runner="pooling")  # expect: VLM301
