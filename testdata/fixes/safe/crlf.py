"""CRLF line endings survive the fix."""
from vllm import LLM

llm = LLM(
    "Qwen/Qwen3-4B",
    return_sampling_mask=True,
)
other = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="raw_logprobs")
