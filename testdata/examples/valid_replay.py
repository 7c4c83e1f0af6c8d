"""The configuration vLLM accepts: nothing to report here."""
from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
params = SamplingParams(temperature=1.0, top_k=50, top_p=0.95, logprobs=1)
outputs = llm.generate(["The capital of France is"], params)
