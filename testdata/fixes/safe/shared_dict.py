"""A dict that feeds two engines is not edited: the finding is reported without a fix."""
from vllm import LLM

COMMON = {"model": "Qwen/Qwen3-4B", "return_sampling_mask": True, "logprobs_mode": "raw_logprobs"}
policy = LLM(**COMMON)
reference = LLM(**COMMON)
