"""A Ray task defined inside a method (data-parallel evaluation): it runs, in a worker, with
the arguments of its ``.remote(...)`` calls, also when they are the tuples of a generator
(``[replica.remote(*x) for x in inputs]``)."""
import argparse

import ray
from vllm import LLM, SamplingParams


class ReplayEvaluator:
    def __init__(self, pretrained: str, data_parallel_size: int = 2):
        self.data_parallel_size = data_parallel_size
        self.model_args = {
            "model": pretrained,
            "gpu_memory_utilization": 0.85,
            "enforce_eager": True,
            "return_sampling_mask": True,
        }

    def generate(self, requests, sampling_params: SamplingParams):
        if self.data_parallel_size > 1:

            @ray.remote(num_gpus=1)
            def dp_replica(model_args: dict, sampling_params: SamplingParams, requests: list):
                llm = LLM(**model_args)  # expect: VLM105
                return llm.generate(requests, sampling_params=sampling_params)

            shards = [requests[i :: self.data_parallel_size] for i in range(self.data_parallel_size)]
            inputs = ((self.model_args, sampling_params, shard) for shard in shards)
            refs = [dp_replica.remote(*x) for x in inputs]
            return [out for outs in ray.get(refs) for out in outs]
        return None

    def generate_direct(self, requests):
        @ray.remote(num_gpus=1)
        def one_replica(model_args: dict, prompts: list):
            llm = LLM(**model_args, logprobs_mode="processed_logprobs")
            return llm.generate(prompts, SamplingParams(temperature=0.8, top_k=40))

        return ray.get([one_replica.remote(self.model_args, requests)])


class CommandLineEvaluator:
    """The engine's settings come from the command line: unknown, silent."""

    def __init__(self, model_args: dict):
        self.model_args = model_args

    def generate(self, requests, sampling_params: SamplingParams):
        @ray.remote(num_gpus=1)
        def dp_replica(model_args: dict, sampling_params: SamplingParams, requests: list):
            llm = LLM(**model_args, return_sampling_mask=True)
            return llm.generate(requests, sampling_params=sampling_params)

        inputs = ((self.model_args, sampling_params, shard) for shard in requests)
        return ray.get([dp_replica.remote(*x) for x in inputs])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-args", type=dict, default={})
    args = parser.parse_args()
    CommandLineEvaluator(args.model_args).generate([], SamplingParams(temperature=0.7, top_k=20))
