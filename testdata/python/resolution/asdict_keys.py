"""Engine arguments merged from a dataclass config: ``asdict(cfg)`` holds exactly the class's
fields, with the values of the run's config (unknown here)."""
from dataclasses import asdict, dataclass, field

from vllm import LLM


@dataclass
class EngineConfig:
    tensor_parallel_size: int = 1
    gpu_memory_utilization: float = 0.9
    max_model_len: int | None = None


@dataclass
class ReplayEngineConfig:
    tensor_parallel_size: int = 1
    logprobs_mode: str = "processed_logprobs"
    stop_tokens: list = field(default_factory=list)


def conf_as_dict(cfg):
    return asdict(cfg)


def build_merged_after(model: str, cfg: EngineConfig):
    # Written before the merge: EngineConfig has no logprobs_mode, so the merge keeps it.
    kwargs = {"model": model, "logprobs_mode": "raw_logprobs", "return_sampling_mask": True}
    kwargs.update(asdict(cfg))
    return LLM(**kwargs)  # expect: VLM105


def build_through_wrapper(model: str, cfg: EngineConfig):
    return LLM(model=model, return_sampling_mask=True, **conf_as_dict(cfg))  # expect: VLM105


def build_replay_config(model: str, cfg: ReplayEngineConfig):
    # The run's config decides logprobs_mode (its default is only what a config may replace).
    kwargs = {"model": model, "logprobs_mode": "raw_logprobs", "return_sampling_mask": True}
    kwargs.update(asdict(cfg))
    return LLM(**kwargs)


def build_written_after(model: str, cfg: ReplayEngineConfig):
    # Written after the merge: known whatever the config holds.
    kwargs = {"model": model, **asdict(cfg)}
    kwargs["logprobs_mode"] = "raw_logprobs"
    kwargs["return_sampling_mask"] = True
    return LLM(**kwargs)  # expect: VLM105


def build_from_any(model: str, cfg):
    # Not annotated: whatever object the caller passes.
    return LLM(model=model, return_sampling_mask=True, **asdict(cfg))


def build_from_overrides(model: str, overrides: dict):
    kwargs = {"model": model, "logprobs_mode": "raw_logprobs", "return_sampling_mask": True}
    kwargs.update(overrides)  # any key
    return LLM(**kwargs)
