"""Engine configuration, assembled at import time."""
import os

MODEL = os.environ.get("MODEL", "Qwen/Qwen3-8B")

DRAFT = {
    "method": "ngram",
    "num_speculative_tokens": 4,
    "enable_adaptive_verification": True,  # adapts the draft length
}
ENGINE_KWARGS = {
    "model": MODEL,
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "speculative_config": DRAFT,
    "enable_batch_sharded_sampling": True,
}
# Engine-level processors, added after the fact.
ENGINE_KWARGS["logits_processors"] = ["rollout.processors:NoRepeat"]

# Read again in this module: reported in the worker, not edited.
BASE_KWARGS = {"model": MODEL, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
BASE_KWARGS["logits_processors"] = ["rollout.processors:NoRepeat"]
DEBUG_KWARGS = {**BASE_KWARGS, "enforce_eager": True}
