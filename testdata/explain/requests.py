from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
greedy = SamplingParams(temperature=0.0, max_tokens=64)
outputs = llm.generate(["Write a haiku about GPUs."], greedy)
