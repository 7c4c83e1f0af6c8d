"""Server settings with literal defaults."""
from dataclasses import dataclass


@dataclass
class ServerConfig:
    model: str = "Qwen/Qwen3-8B"
    seed: int = 1
    gpu_memory_utilization: float = 0.9
    enable_prefix_caching: bool = False
    return_sampling_mask: bool = True
    logprobs_mode: str = "raw_logprobs"


@dataclass
class ValidServerConfig:
    model: str = "Qwen/Qwen3-8B"
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"
