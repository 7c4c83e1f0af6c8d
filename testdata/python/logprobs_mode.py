"""Rollout engines for GRPO: logprobs_mode with sampling distribution replay (VLM105)."""
import os

from vllm import LLM, SamplingParams

MODEL = "Qwen/Qwen3-4B"

# Missing logprobs_mode: vLLM's default is raw_logprobs.
policy = LLM(MODEL, return_sampling_mask=True)  # expect: VLM105:10

# Wrong value, written in the call: the finding points at the keyword.
reference = LLM(
    model=MODEL,
    return_sampling_mask=True,
    logprobs_mode="raw_logprobs",  # expect: VLM105:5
)

# processed_logits is not processed_logprobs.
critic = LLM(MODEL, return_sampling_mask=True, logprobs_mode="processed_logits")  # expect: VLM105:48

# The valid configuration.
ok = LLM(MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")

# Mask off or unknown: silence.
plain = LLM(MODEL)
off = LLM(MODEL, return_sampling_mask=False)
from_env = LLM(MODEL, return_sampling_mask=os.environ.get("REPLAY") == "1")


def build(mode):
    # A parameter is unknown.
    return LLM(MODEL, return_sampling_mask=True, logprobs_mode=mode)


# Names bound to literals in the same scope.
REPLAY = True
MODE = "raw_logprobs"
named = LLM(MODEL, return_sampling_mask=REPLAY, logprobs_mode=MODE)  # expect: VLM105:49

# Lax pydantic booleans: 1 and "true" switch replay on.
lax = LLM(MODEL, return_sampling_mask=1)  # expect: VLM105:7

# An explicit None is the default.
none_mode = LLM(MODEL, return_sampling_mask=True, logprobs_mode=None)  # expect: VLM105:51


def docstring_only():
    """Pass return_sampling_mask=True and logprobs_mode="raw_logprobs" to LLM(...) to see the error."""
    return SamplingParams(temperature=1.0, top_k=50)
