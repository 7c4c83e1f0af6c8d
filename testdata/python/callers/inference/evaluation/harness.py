"""An evaluation harness model, built by the harness's registry from the command line's model
arguments; data-parallel replicas run as Ray tasks when asked for."""
import ray
from vllm import LLM, SamplingParams

MODEL_REGISTRY = {}


def register_model(name):
    def register(cls):
        MODEL_REGISTRY[name] = cls
        return cls

    return register


@register_model("replay-vllm")
class ReplayLM:
    def __init__(self, pretrained: str, data_parallel_size: int = 1, **kwargs):
        self.data_parallel_size = int(data_parallel_size)
        if self.data_parallel_size > 1 and kwargs.get("enable_expert_parallel", False):
            raise ValueError("data parallel replicas cannot share experts")
        self.model_args = {"model": pretrained, "seed": 1234, **kwargs}
        if self.data_parallel_size <= 1:
            self.model = LLM(**self.model_args)

    def generate(self, requests: list, sampling_params: SamplingParams):
        if self.data_parallel_size > 1:

            @ray.remote(num_gpus=1)
            def replica(model_args: dict, sampling_params: SamplingParams, shard: list):
                llm = LLM(**model_args, return_sampling_mask=True)
                return llm.generate(shard, sampling_params=sampling_params)

            shards = [requests[i :: self.data_parallel_size] for i in range(self.data_parallel_size)]
            return ray.get([replica.remote(self.model_args, sampling_params, shard) for shard in shards])
        return self.model.generate(requests, sampling_params)
