"""VLM106: enable_batch_sharded_sampling is removed."""
from vllm import LLM

llm = LLM(
    "Qwen/Qwen3-32B",
    tensor_parallel_size=4,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    enable_batch_sharded_sampling=True,  # faster sampling
)

packed = LLM("Qwen/Qwen3-32B", return_sampling_mask=True, enable_batch_sharded_sampling=True, logprobs_mode="processed_logprobs")
