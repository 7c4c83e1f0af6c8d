# target-version: 0.33
"""vLLM 0.33: only adaptive verification is refused; suffix demotes to V1; processors no longer do."""
from vllm import LLM

SPEC = {"method": "dspark", "model": "org/dspark-head", "num_speculative_tokens": 4}

fixed = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs", speculative_config=SPEC)

adaptive_spec = dict(SPEC, enable_adaptive_verification=True)
adaptive = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs", speculative_config=adaptive_spec)  # expect: VLM102:96

suffix = LLM(  # expect: VLM101
    "Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config={"method": "suffix", "num_speculative_tokens": 8},
)

processors = LLM(
    "Qwen/Qwen3-4B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    logits_processors=["my_pkg.processors:NoRepeat"],  # expect: VLM104
)
