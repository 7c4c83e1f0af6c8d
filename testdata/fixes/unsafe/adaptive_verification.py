"""VLM102 from vLLM 0.32: enable_adaptive_verification is removed from the speculative config."""
from vllm import LLM

llm = LLM(
    "Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config={
        "method": "dspark",
        "num_speculative_tokens": 4,
        "enable_adaptive_verification": True,  # adapts the draft length
    },
)

spec = dict(method="dspark", num_speculative_tokens=4, enable_adaptive_verification=True)
other = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs", speculative_config=spec)
