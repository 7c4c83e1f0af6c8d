# target-version: 0.30
"""vLLM 0.30: batch-sharded sampling blocks replay; ngram and custom processors demote to V1."""
from vllm import LLM

sharded = LLM(
    "Qwen/Qwen3-32B",
    tensor_parallel_size=4,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    enable_batch_sharded_sampling=True,  # expect: VLM106
)
ngram = LLM(  # expect: VLM101
    "Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config={"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4},  # expect: VLM102
)
launcher = LLM(  # expect: VLM101
    "Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    distributed_executor_backend="external_launcher",
    pipeline_parallel_size=2,
)
# A method vLLM may rename from the draft model (draft_model -> eagle3/dspark) is not a certain demotion.
draft = LLM(
    "Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config={"method": "draft_model", "model": "Qwen/Qwen3-0.6B", "num_speculative_tokens": 4},  # expect: VLM102
)
