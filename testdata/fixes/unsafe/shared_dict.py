"""A dict that feeds two engines is not edited, even with --unsafe-fixes."""
from vllm import LLM

COMMON = {"model": "Qwen/Qwen3-4B", "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
COMMON["logits_processors"] = ["my_pkg.processors:NoRepeat"]
policy = LLM(**COMMON)
reference = LLM(**COMMON)
