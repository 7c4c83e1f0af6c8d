# target-version: 0.28
"""vLLM 0.28: replay exists, trace replay and batch-sharded sampling do not."""
from vllm import LLM

ok = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
trace = LLM("Qwen/Qwen3-4B", enable_trace_replay=True)  # expect: VLM301:30
sharded = LLM("Qwen/Qwen3-4B", tensor_parallel_size=2, enable_batch_sharded_sampling=True)  # expect: VLM301:56

# Any speculative decoding is refused with replay up to 0.31.
spec = LLM(
    "Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config={"method": "eagle3", "model": "RedHatAI/Qwen3-8B-speculator.eagle3", "num_speculative_tokens": 3},  # expect: VLM102:5
)
alias = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs", spec_method="ngram", spec_tokens=4)  # expect: VLM101, VLM102

# 0.28: custom logits processors demote to Model Runner V1 (VLM101) and are refused (VLM104).
processors = LLM(  # expect: VLM101
    "Qwen/Qwen3-4B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    logits_processors=["my_pkg.processors:NoRepeat"],  # expect: VLM104
)

# dspark forces V2 in 0.28 before the demoting list is read.
dspark = LLM(
    "Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    logits_processors=[],
    speculative_config={"method": "dspark", "model": "org/dspark-head", "num_speculative_tokens": 4},  # expect: VLM102
)
