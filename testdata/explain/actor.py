from dataclasses import dataclass

import ray
from vllm import LLM


@dataclass
class RolloutConfig:
    model: str = "Qwen/Qwen3-4B"
    return_sampling_mask: bool = False
    logprobs_mode: str = "raw_logprobs"


@ray.remote(num_gpus=1)
class RolloutWorker:
    def __init__(self, config: RolloutConfig):
        self.llm = LLM(
            config.model,
            return_sampling_mask=config.return_sampling_mask,
            logprobs_mode=config.logprobs_mode,
        )


config = RolloutConfig(return_sampling_mask=True)
worker = RolloutWorker.remote(config)
