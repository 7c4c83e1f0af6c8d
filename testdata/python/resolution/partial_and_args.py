"""functools.partial(LLM, ...) and EngineArgs objects mutated by attribute."""
import functools
from functools import partial

from vllm import LLM, AsyncEngineArgs, AsyncLLMEngine

ReplayLLM = functools.partial(LLM, return_sampling_mask=True)
SafeReplayLLM = partial(LLM, return_sampling_mask=True, logprobs_mode="processed_logprobs")

policy = ReplayLLM("Qwen/Qwen3-8B")  # expect: VLM105
reference = SafeReplayLLM("Qwen/Qwen3-8B")
overridden = ReplayLLM("Qwen/Qwen3-8B", logprobs_mode="processed_logprobs")


def engine(model):
    args = AsyncEngineArgs(model=model, return_sampling_mask=True, logprobs_mode="processed_logprobs")  # expect: VLM104
    args.logits_processors = ["rollout.processors:NoRepeat"]
    return AsyncLLMEngine.from_engine_args(args)


def engine_in_loop(model, overrides):
    args = AsyncEngineArgs(model=model, return_sampling_mask=True)
    for key, value in overrides.items():
        setattr(args, key, value)
    return AsyncLLMEngine.from_engine_args(args)
