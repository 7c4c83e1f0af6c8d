# target-version: 0.34
"""vLLM 0.34 accepts trace replay with speculative decoding; VLM203 still holds."""
from vllm import LLM, SamplingParams

speculative = LLM(
    "Qwen/Qwen3-8B",
    enable_trace_replay=True,
    speculative_config={"method": "eagle3", "model": "RedHatAI/Qwen3-8B-speculator.eagle3", "num_speculative_tokens": 3},
)
speculative.generate(["Hi"], SamplingParams(trace_decode_token_ids=[1, 2, 3]))

untraced = LLM("Qwen/Qwen3-8B")
untraced.generate(["Hi"], SamplingParams(trace_decode_token_ids=[1, 2, 3]))  # expect: VLM203
