# target-version: 0.33
"""Starts the rollout actors; the settings are written here."""
import ray
from ray.runtime_env import RuntimeEnv

from rollout.actors import RolloutActor, ThreadedEngineActor


def create_rollout_engines(model, count, tensor_parallel_size):
    actor_kwargs = {"model": model, "tensor_parallel_size": tensor_parallel_size, "enforce_eager": True}
    actor_kwargs.update({"seed": 0, "return_sampling_mask": True})
    engines = []
    for index in range(count):
        engines.append(RolloutActor.options(num_gpus=1).remote(**actor_kwargs))  # expect: VLM105
    return engines


def create_valid_engines(model, count):
    return [
        RolloutActor.options(num_gpus=1).remote(model=model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
        for _ in range(count)
    ]


def create_threaded_engine(model):
    return (
        ray.remote(ThreadedEngineActor)  # expect: VLM101
        .options(runtime_env=RuntimeEnv(env_vars={"VLLM_USE_V2_MODEL_RUNNER": "0"}))
        .remote(model=model, num_gpus=1, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    )


def create_from_unknown(model, extra):
    return RolloutActor.remote(model=model, return_sampling_mask=True, **extra)
