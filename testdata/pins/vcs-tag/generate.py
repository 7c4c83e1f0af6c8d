from vllm import LLM

llm = LLM(model="meta-llama/Llama-3.1-8B-Instruct", task="generate", guided_decoding_backend="xgrammar")
old = LLM(model="meta-llama/Llama-3.1-8B-Instruct", num_scheduler_steps=8)  # expect: VLM301
