"""--fix-mode disable-replay: a mask set on an EngineArgs attribute is removed there."""
from vllm import LLM, EngineArgs


def engine():
    args = EngineArgs(model="Qwen/Qwen3-4B", logprobs_mode="raw_logprobs")
    # replay for the trainer
    args.return_sampling_mask = True
    args.speculative_config = {"method": "ngram", "num_speculative_tokens": 3, "enable_adaptive_verification": True}
    return LLM.from_engine_args(args)


def with_setattr():
    args = EngineArgs(model="Qwen/Qwen3-4B")
    setattr(args, "return_sampling_mask", True)
    return LLM.from_engine_args(args)
