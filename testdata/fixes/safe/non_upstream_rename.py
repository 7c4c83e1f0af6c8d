"""VLM302: enable_return_sampling_mask is renamed; return_sampling_mask_logprobs needs --unsafe-fixes."""
from vllm import LLM, AsyncEngineArgs

args = AsyncEngineArgs(
    model="Qwen/Qwen3-4B",
    enable_return_sampling_mask=True,
    return_sampling_mask_logprobs=True,
    logprobs_mode="processed_logprobs",
)

kwargs = {"model": "Qwen/Qwen3-4B", 'enable_return_sampling_mask': True, "logprobs_mode": "processed_logprobs"}
llm = LLM(**kwargs)

# Both names: renaming would repeat the keyword, so the finding stays.
both = LLM("Qwen/Qwen3-4B", enable_return_sampling_mask=True, return_sampling_mask=True, logprobs_mode="processed_logprobs")


def both_as_subscripts():
    # Here too: both names are written, the rename would overwrite return_sampling_mask.
    kwargs = {"model": "Qwen/Qwen3-4B", "logprobs_mode": "processed_logprobs"}
    kwargs["return_sampling_mask"] = False
    kwargs["enable_return_sampling_mask"] = True
    return LLM(**kwargs)


def subscript_alone():
    kwargs = {"model": "Qwen/Qwen3-4B", "logprobs_mode": "processed_logprobs"}
    kwargs["enable_return_sampling_mask"] = True
    return LLM(**kwargs)
