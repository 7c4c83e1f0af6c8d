"""The server configurations the benchmark suite sweeps."""

SERVER_CONFIGS = {
    "baseline": {
        "model": "Qwen/Qwen3-8B",
        "tensor_parallel_size": 1,
        "enable_prefix_caching": False,
    },
    "replay": {
        "model": "Qwen/Qwen3-8B",
        "tensor_parallel_size": 2,
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
    },
    "replay-default-mode": {
        "model": "Qwen/Qwen3-8B",
        "tensor_parallel_size": 2,
        "return_sampling_mask": True,
    },
}

SGLANG_CONFIGS = {
    "small": {"model_path": "Qwen/Qwen3-8B", "tp_size": 1},
    "large": {"model_path": "Qwen/Qwen3-8B", "tp_size": 4, "return_sampling_mask": True},
}
