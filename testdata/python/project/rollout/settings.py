"""Engine settings shared by the rollout workers."""

MODEL = "Qwen/Qwen3-8B"
LOGPROBS_MODE = "raw_logprobs"

ENGINE_KWARGS = {
    "model": MODEL,
    "return_sampling_mask": True,
    "logprobs_mode": LOGPROBS_MODE,
    "gpu_memory_utilization": 0.9,
}

VALID_KWARGS = {**ENGINE_KWARGS, "logprobs_mode": "processed_logprobs"}


class SamplerConfig:
    """Plain class attributes, read through an instance in another module."""

    return_sampling_mask = True
    logprobs_mode = "raw_logprobs"
