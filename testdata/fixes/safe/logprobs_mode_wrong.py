"""VLM105: a wrong logprobs_mode is replaced where it is written."""
from vllm import LLM, EngineArgs, LLMEngine

MODEL = "Qwen/Qwen3-4B"
RAW = "raw_logprobs"

in_call = LLM(MODEL, return_sampling_mask=True, logprobs_mode="raw_logprobs")
single_quotes = LLM(MODEL, return_sampling_mask=True, logprobs_mode='processed_logits')
parenthesised = LLM(
    MODEL,
    return_sampling_mask=True,
    logprobs_mode=(  # the mode the trainer expects
        "raw_logits"
    ),
)
explicit_none = LLM(MODEL, return_sampling_mask=True, logprobs_mode=None)
named = LLM(MODEL, return_sampling_mask=True, logprobs_mode=RAW)


def from_literal():
    kwargs = {
        "model": MODEL,
        "return_sampling_mask": True,
        "logprobs_mode": "raw_logprobs",  # keep this comment
    }
    return LLM(**kwargs)


def from_dict_call():
    kwargs = dict(model=MODEL, return_sampling_mask=True, logprobs_mode="raw_logits")
    return LLM(**kwargs)


def from_subscript():
    kwargs = {"model": MODEL, "return_sampling_mask": True}
    kwargs["logprobs_mode"] = "raw_logprobs"
    return LLM(**kwargs)


def from_attribute():
    args = EngineArgs(model=MODEL, return_sampling_mask=True)
    args.logprobs_mode = "raw_logprobs"
    return LLMEngine.from_engine_args(args)
