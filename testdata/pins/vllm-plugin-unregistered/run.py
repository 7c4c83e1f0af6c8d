from vllm import LLM

llm = LLM(model="Qwen/Qwen3-8B", sequence_shards=4)  # expect: VLM301
