"""CRLF line endings survive a removal."""
from vllm import LLM

llm = LLM(
    "Qwen/Qwen3-4B",
    return_sampling_mask=True,
    logits_processors=["my_pkg.processors:NoRepeat"],  # drop
    logprobs_mode="processed_logprobs",
)
