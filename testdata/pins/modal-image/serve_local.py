"""The same engine run on the project's own vLLM (requirements.txt: 0.34)."""

from vllm import LLM

llm = LLM(model="Qwen/Qwen2.5-7B-Instruct", num_scheduler_steps=8)  # expect: VLM301
cached = LLM(model="Qwen/Qwen2.5-VL-7B-Instruct", mm_processor_cache_gb=4)
