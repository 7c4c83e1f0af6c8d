"""A project's own ``tensorize_vllm_model`` is not vLLM's: what it does with the object is not
followed here, so the engine it may build is unknown."""
from vllm import EngineArgs


def tensorize_vllm_model(engine_args, uri):
    engine_args.logprobs_mode = "processed_logprobs"
    return engine_args, uri


def serialize(model: str) -> None:
    engine_args = EngineArgs(model=model, return_sampling_mask=True)
    tensorize_vllm_model(engine_args, "s3://bucket/model.tensors")
