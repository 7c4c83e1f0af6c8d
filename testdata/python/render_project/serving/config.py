"""Server settings; a run's values come from its YAML file."""
from dataclasses import dataclass


@dataclass
class ServeConfig:
    port: int = 8000
    gpu_memory_utilization: float = 0.9
    max_model_len: int = 32768


@dataclass
class ReplayServeConfig:
    port: int = 8000
    logprobs_mode: str = "processed_logprobs"
