# target-version: 0.33
"""Ray runtime_env env_vars reach the actor that builds the engine."""
import ray
from vllm import LLM


@ray.remote(num_gpus=1, runtime_env={"env_vars": {"VLLM_USE_V2_MODEL_RUNNER": "0"}})
class V1Worker:
    def __init__(self, model):
        self.llm = LLM(model, return_sampling_mask=True, logprobs_mode="processed_logprobs")  # expect: VLM101


@ray.remote(num_gpus=1)
class Worker:
    def __init__(self, model):
        self.llm = LLM(model, return_sampling_mask=True, logprobs_mode="processed_logprobs")


@ray.remote
class MixedWorker:
    def __init__(self, model):
        self.llm = LLM(model, return_sampling_mask=True, logprobs_mode="processed_logprobs")


def launch(model, use_v1):
    env = {"VLLM_USE_V2_MODEL_RUNNER": "0" if use_v1 else "1"}
    return MixedWorker.options(runtime_env={"env_vars": env}).remote(model)


class LLMRayActor:
    def __init__(self, model):
        self.llm = LLM(model, return_sampling_mask=True, logprobs_mode="processed_logprobs")  # expect: VLM101


def create_engines(model, count):
    from ray.runtime_env import RuntimeEnv

    return [
        ray.remote(LLMRayActor)
        .options(num_gpus=1, runtime_env=RuntimeEnv(env_vars={"VLLM_USE_V2_MODEL_RUNNER": "0"}))
        .remote(model)
        for _ in range(count)
    ]
