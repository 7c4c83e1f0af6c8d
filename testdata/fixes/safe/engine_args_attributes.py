"""VLM105 and VLM302 on EngineArgs attributes: the value is set or renamed where it is written."""
from vllm import LLM, AsyncEngineArgs, EngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

MODEL = "Qwen/Qwen3-8B"


def attribute():
    args = AsyncEngineArgs(model=MODEL, return_sampling_mask=True)
    args.logprobs_mode = 'raw_logprobs'  # from the old config
    return AsyncLLM.from_engine_args(args)


def with_setattr():
    args = EngineArgs(model=MODEL, return_sampling_mask=True)
    setattr(args, "logprobs_mode", "raw_logits")
    return LLM.from_engine_args(args)


def renamed_attribute():
    args = EngineArgs(model=MODEL, logprobs_mode="processed_logprobs")
    args.enable_return_sampling_mask = True
    return LLM.from_engine_args(args)


def renamed_with_setattr():
    args = EngineArgs(model=MODEL, logprobs_mode="processed_logprobs")
    setattr(args, "enable_return_sampling_mask", True)
    return LLM.from_engine_args(args)


def renamed_then_added():
    args = EngineArgs(model=MODEL)
    args.enable_return_sampling_mask = True
    return LLM.from_engine_args(args)
