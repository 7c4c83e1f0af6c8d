"""VLM302: return_sampling_mask_logprobs is removed (unsafe); the rename is safe."""
from vllm import AsyncEngineArgs

args = AsyncEngineArgs(
    model="Qwen/Qwen3-4B",
    enable_return_sampling_mask=True,
    return_sampling_mask_logprobs=True,  # fork-only
    logprobs_mode="processed_logprobs",
)
