"""Engine settings of the policy server (no engine is built here)."""

MODEL = "Qwen/Qwen3-8B"

# Only the policy worker reads these: fixed here.
POLICY_KWARGS = {
    "model": MODEL,
    "return_sampling_mask": True,
    "logprobs_mode": "raw_logprobs",  # what the trainer used to read
}
REFERENCE_KWARGS = dict(model=MODEL, enable_return_sampling_mask=True, logprobs_mode="processed_logprobs")
# No logprobs_mode at all: the worker's call gets it.
VALUE_KWARGS = {"model": MODEL, "return_sampling_mask": True}

# The evaluator reads these too: reported in the worker, not edited.
SHARED_KWARGS = {"model": MODEL, "return_sampling_mask": True, "logprobs_mode": "raw_logits"}


def critic_kwargs():
    # A function: it may run for other callers too. Reported, not edited.
    return {"model": MODEL, "return_sampling_mask": True, "logprobs_mode": "raw_logprobs"}
