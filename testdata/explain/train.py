from vllm import LLM

engine_kwargs = {"return_sampling_mask": True, "tensor_parallel_size": 2}
llm = LLM("Qwen/Qwen3-4B", **engine_kwargs)
