from vllm import LLM

# Run by the image's ENTRYPOINT: vLLM 0.10 from FROM vllm/vllm-openai:v0.10.2.
llm = LLM(model="Qwen/Qwen2.5-7B-Instruct", task="generate")
legacy = LLM(model="Qwen/Qwen2.5-7B-Instruct", num_scheduler_steps=4)  # expect: VLM301
