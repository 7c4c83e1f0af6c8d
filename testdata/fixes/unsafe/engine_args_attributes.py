"""Settings assigned to EngineArgs attributes are fixed where they are written."""
from vllm import LLM, AsyncEngineArgs, EngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

MODEL = "Qwen/Qwen3-8B"


def sync_engine():
    args = EngineArgs(model=MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    args.speculative_config = {"method": "ngram", "num_speculative_tokens": 3, "enable_adaptive_verification": True}
    return LLM.from_engine_args(args)


def async_engine():
    args = AsyncEngineArgs(model=MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    args.speculative_config = {
        "method": "ngram",
        "num_speculative_tokens": 3,
        "enable_adaptive_verification": True,  # adapts the draft length
    }
    return AsyncLLM.from_engine_args(args)


def dict_call():
    args = AsyncEngineArgs(model=MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    args.speculative_config = dict(method="ngram", num_speculative_tokens=3, enable_adaptive_verification=True)
    return AsyncLLM.from_engine_args(args)


def entry_set_later():
    args = EngineArgs(model=MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    args.speculative_config = {"method": "ngram", "num_speculative_tokens": 3}
    args.speculative_config["enable_adaptive_verification"] = True
    return LLM.from_engine_args(args)


def features_as_attributes():
    args = EngineArgs(model=MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    args.logits_processors = ["my_pkg.processors:NoRepeat"]  # no repeats
    setattr(args, "enable_batch_sharded_sampling", True)
    args.return_sampling_mask_logprobs = True
    return LLM.from_engine_args(args)


def shared_with_another_engine():
    # The dict also configures a second engine: reported, not edited.
    spec = {"method": "ngram", "num_speculative_tokens": 3, "enable_adaptive_verification": True}
    args = EngineArgs(model=MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    args.speculative_config = spec
    draft = EngineArgs(model=MODEL, speculative_config=spec)
    LLM.from_engine_args(draft)
    return LLM.from_engine_args(args)
