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
