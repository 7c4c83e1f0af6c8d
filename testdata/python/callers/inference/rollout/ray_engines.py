"""Engine actors sharing a base class that keeps the keywords, and a factory that starts the actor
class its caller hands it (``launch.py`` picks one of the two by a command-line flag)."""
import os

import ray
import vllm


class BaseLLMRayActor:
    def __init__(self, *args, bundle_indices=None, **kwargs):
        num_gpus = kwargs.pop("num_gpus")
        if bundle_indices is not None:
            os.environ["VLLM_RAY_PER_WORKER_GPUS"] = str(num_gpus)
        self.kwargs = kwargs


class LLMRayActor(BaseLLMRayActor):
    def __init__(self, *args, bundle_indices=None, **kwargs):
        super().__init__(*args, bundle_indices=bundle_indices, **kwargs)
        self.llm = vllm.LLM(*args, **self.kwargs, return_sampling_mask=True)


class LLMRayActorAsync(BaseLLMRayActor):
    def __init__(self, *args, bundle_indices=None, **kwargs):
        super().__init__(*args, bundle_indices=bundle_indices, **kwargs)
        engine_args = vllm.AsyncEngineArgs(*args, **self.kwargs)
        self.llm = vllm.AsyncLLMEngine.from_engine_args(engine_args)


def create_vllm_engines(num_engines, pretrain, enforce_eager, llm_actor_cls=LLMRayActor, logprobs_mode=None):
    engines = []
    for i in range(num_engines):
        additional_kwargs = {}
        if logprobs_mode:
            additional_kwargs["logprobs_mode"] = logprobs_mode
        engines.append(
            llm_actor_cls.options(num_cpus=1, num_gpus=1).remote(  # expect: VLM105
                model=pretrain,
                enforce_eager=enforce_eager,
                num_gpus=1,
                **additional_kwargs,
            )
        )
    return engines
