"""Several fixes in one call, applied in passes until nothing fixable is left."""
from vllm import LLM

llm = LLM(
    "Qwen/Qwen3-8B",
    enable_return_sampling_mask=True,
    logits_processors=["my_pkg.processors:NoRepeat"],
    enable_batch_sharded_sampling=True,
    speculative_config={"method": "dspark", "num_speculative_tokens": 4, "enable_adaptive_verification": True},
)
