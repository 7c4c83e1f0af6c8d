"""An engine actor created through ``ray.remote(...).options(...).remote(...)`` by the one
function of the project that starts it: its constructor hands the keywords to the method
that builds the engine."""
import os

import ray
import vllm


class LLMRayActor:
    def __init__(self, *args, bundle_indices=None, **kwargs):
        self._setup_and_start_async_engine(args, bundle_indices, kwargs)

    def _setup_and_start_async_engine(self, args, bundle_indices, kwargs):
        num_gpus = kwargs.pop("num_gpus")
        if bundle_indices is not None:
            os.environ["VLLM_RAY_PER_WORKER_GPUS"] = str(num_gpus)
        kwargs["generation_config"] = "vllm"
        engine_args = vllm.AsyncEngineArgs(*args, **kwargs, return_sampling_mask=True)  # expect: VLM105
        engine_args.disable_log_stats = True
        self.llm_engine = vllm.AsyncLLMEngine.from_engine_args(engine_args)


def create_vllm_engines(num_engines: int, pretrain: str, tensor_parallel_size: int, seed: int):
    engines = []
    for i in range(num_engines):
        engines.append(
            ray.remote(LLMRayActor)
            .options(num_cpus=1, num_gpus=1)
            .remote(
                model=pretrain,
                tensor_parallel_size=tensor_parallel_size,
                dtype="bfloat16",
                seed=seed + i,
                enforce_eager=True,
                num_gpus=1,
                bundle_indices=None,
            )
        )
    return engines
