# target-version: 0.33
"""Trace replay requests (VLM203, VLM204)."""
from vllm import LLM, SamplingParams

TRACE = [9707, 11, 1879, 0]

untraced = LLM("Qwen/Qwen3-8B")
traced = LLM("Qwen/Qwen3-8B", enable_trace_replay=True)
speculative = LLM(
    "Qwen/Qwen3-8B",
    enable_trace_replay=True,
    speculative_config={"method": "eagle3", "model": "RedHatAI/Qwen3-8B-speculator.eagle3", "num_speculative_tokens": 3},
)

replayed = SamplingParams(temperature=1.0, max_tokens=64, trace_decode_token_ids=TRACE)  # expect: VLM203:59, VLM204:59

untraced.generate(["Hi"], replayed)
traced.generate(["Hi"], replayed)
speculative.generate(["Hi"], replayed)

# An empty trace is not a trace request.
untraced.generate(["Hi"], SamplingParams(temperature=1.0, trace_decode_token_ids=[]))
