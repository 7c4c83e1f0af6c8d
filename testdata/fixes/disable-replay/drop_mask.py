# target-version: 0.30
"""--fix-mode disable-replay: return_sampling_mask is removed instead of what conflicts with it."""
import os

from vllm import LLM

# Needs logprobs, not replay: the mask goes, the processors stay.
policy = LLM(
    "Qwen/Qwen3-4B",
    return_sampling_mask=True,  # replay
    logits_processors=["my_pkg.processors:NoRepeat"],
    logprobs_mode="raw_logprobs",
)

# VLM101 and VLM103 have no fix in keep-replay mode; here they do.
os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"
v1 = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")


def from_dict():
    kwargs = {"model": "google/diffusiongemma-2b", "return_sampling_mask": True}
    return LLM(**kwargs)


# A valid configuration is left alone.
os.environ.pop("VLLM_USE_V2_MODEL_RUNNER")
ok = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
