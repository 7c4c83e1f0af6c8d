from vllm import LLM

base = {"return_sampling_mask": True}
extra = {"seed": 1}
extra.update(base)
kwargs = {**extra, "enforce_eager": True}
llm = LLM("Qwen/Qwen3-4B", **kwargs)
