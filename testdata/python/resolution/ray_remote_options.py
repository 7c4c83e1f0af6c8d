# target-version: 0.34
"""``ray.remote(num_gpus=1)(Actor)``: the decorator with options applied to a class; the replicas
it starts run ``__init__`` with their ``.remote(...)`` arguments."""
import ray
from vllm import LLM


class JudgeEvaluator:
    def __init__(self, model_name_or_path, gpu_memory_utilization=0.9, **engine_kwargs):
        self.llm = LLM(
            model_name_or_path,
            gpu_memory_utilization=gpu_memory_utilization,
            return_sampling_mask=True,
            **engine_kwargs,
        )


class CheckedEvaluator:
    def __init__(self, model_name_or_path):
        self.llm = LLM(model_name_or_path, return_sampling_mask=True, logprobs_mode="processed_logprobs")


def start_judges(model_name_or_path, num_models):
    return [
        ray.remote(num_gpus=1)(JudgeEvaluator).remote(  # expect: VLM105
            model_name_or_path=model_name_or_path,
            gpu_memory_utilization=0.95,
            enforce_eager=True,
        )
        for _ in range(num_models)
    ]


def start_checked(model_name_or_path):
    return ray.remote(num_gpus=1)(CheckedEvaluator).options(name="judge").remote(model_name_or_path)


def start_unknown(model_name_or_path, options):
    # Options the caller hands over: the runtime environment may be among them.
    return ray.remote(**options)(JudgeEvaluator).remote(model_name_or_path, enforce_eager=True)
