"""The project's own vLLM adapter: a package named vllm inside the project, not vLLM itself."""
from vllm import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM


def create_async_llm(resource_placement_groups=None, **kwargs):
    kwargs["disable_log_stats"] = True
    engine_args = AsyncEngineArgs(**kwargs)  # expect: VLM105
    return AsyncLLM.from_engine_args(engine_args)


def create_default_llm(model):
    # Nothing here depends on a caller: reported here, at the construction, as for any helper of this module.
    return create_async_llm(model=model, return_sampling_mask=True, logprobs_mode="raw_logprobs")
