"""A GRPO rollout worker that asks vLLM for sampling masks.

Run `vllm-lint check testdata/examples` to see what vLLM would refuse.
"""
from __future__ import annotations

import os

from vllm import LLM, SamplingParams

# Pinned here so the example behaves the same on every machine.
os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")


class RolloutWorker:
    def __init__(self, model: str, tensor_parallel_size: int = 1):
        engine_kwargs = {
            "model": model,
            "tensor_parallel_size": tensor_parallel_size,
            "gpu_memory_utilization": 0.85,
            "enable_prefix_caching": True,
        }
        # Sampling distribution replay: the trainer normalises over the sampled support.
        engine_kwargs["return_sampling_mask"] = True
        engine_kwargs["logprobs_mode"] = "raw_logprobs"
        self.llm = LLM(**engine_kwargs)
        self.sampling = SamplingParams(temperature=1.0, top_p=0.95, max_tokens=1024, logprobs=0)

    def rollout(self, prompts: list[str]):
        return self.llm.generate(prompts, self.sampling)

    def evaluate(self, prompts: list[str]):
        greedy = SamplingParams(temperature=0.0, max_tokens=1024)
        return self.llm.generate(prompts, greedy)
