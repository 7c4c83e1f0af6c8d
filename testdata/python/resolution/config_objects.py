"""Config objects with literal defaults: dataclasses, pydantic models, plain classes, OmegaConf."""
import json
from dataclasses import dataclass, field

from omegaconf import OmegaConf
from pydantic import BaseModel
from vllm import LLM


@dataclass
class RolloutConfig:
    model: str = "Qwen/Qwen3-8B"
    return_sampling_mask: bool = True
    logprobs_mode: str = "raw_logprobs"
    tags: list = field(default_factory=list)


class ServerConfig(BaseModel):
    model: str
    logprobs_mode: str = "processed_logprobs"


class Defaults:
    LOGPROBS_MODE = "raw_logprobs"


class Tuned:
    logprobs_mode = "raw_logprobs"

    def __init__(self, mode):
        self.logprobs_mode = mode


def from_dataclass():
    cfg = RolloutConfig()
    return LLM(cfg.model, return_sampling_mask=cfg.return_sampling_mask, logprobs_mode=cfg.logprobs_mode)  # expect: VLM105


def from_dataclass_with_arguments():
    cfg = RolloutConfig(logprobs_mode="processed_logprobs")
    return LLM(cfg.model, return_sampling_mask=cfg.return_sampling_mask, logprobs_mode=cfg.logprobs_mode)


def from_pydantic(model):
    cfg = ServerConfig(model=model)
    return LLM(cfg.model, return_sampling_mask=True, logprobs_mode=cfg.logprobs_mode)


def from_class_attribute():
    return LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode=Defaults.LOGPROBS_MODE)  # expect: VLM105


def from_init_assignment(mode):
    cfg = Tuned(mode)
    return LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode=cfg.logprobs_mode)


def from_unknown_config(cfg):
    return LLM(cfg.model, return_sampling_mask=True, logprobs_mode=cfg.logprobs_mode)


def from_omegaconf():
    cfg = OmegaConf.create({"vllm": {"return_sampling_mask": True, "logprobs_mode": "raw_logprobs"}})
    return LLM("Qwen/Qwen3-8B", **cfg.vllm)  # expect: VLM105


def from_json_literal():
    spec = json.loads('{"method": "dspark", "num_speculative_tokens": 4, "enable_adaptive_verification": true}')
    return LLM(
        "Qwen/Qwen3-8B",
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        speculative_config=spec,  # expect: VLM102
    )


def from_json_argument(args):
    return LLM(
        "Qwen/Qwen3-8B",
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        speculative_config=json.loads(args.spec) if args.spec else None,
    )


def mutated_config():
    cfg = RolloutConfig()
    cfg.logprobs_mode = "processed_logprobs"
    return LLM(cfg.model, return_sampling_mask=True, logprobs_mode=cfg.logprobs_mode)


def escaped_config(update):
    cfg = RolloutConfig()
    update(cfg)
    return LLM(cfg.model, return_sampling_mask=True, logprobs_mode=cfg.logprobs_mode)
