"""A dict that feeds two engines is not edited, even with --unsafe-fixes."""
from vllm import LLM

COMMON = {"model": "Qwen/Qwen3-4B", "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
COMMON["logits_processors"] = ["my_pkg.processors:NoRepeat"]
policy = LLM(**COMMON)
reference = LLM(**COMMON)

# A dict nested in a shared one is shared too: only one of the engines has replay on.
BASE = {
    "model": "Qwen/Qwen3-8B",
    "speculative_config": {"method": "dspark", "num_speculative_tokens": 4, "enable_adaptive_verification": True},
}
replay = LLM(**BASE, return_sampling_mask=True, logprobs_mode="processed_logprobs")
plain = LLM(**BASE)
