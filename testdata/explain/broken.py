from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True
