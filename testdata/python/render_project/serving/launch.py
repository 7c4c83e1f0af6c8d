"""Starts vLLM servers for rollouts from dataclass settings and dicts rendered into flags."""
import os
import shlex
import subprocess
from dataclasses import asdict

from serving.config import ReplayServeConfig, ServeConfig
from serving.flags import to_cli_flags, to_equals_flags


def start_replay_server(model: str, cfg: ServeConfig):
    # asdict(cfg) has exactly ServeConfig's fields: none of them is logprobs_mode.
    options = dict(model=model, return_sampling_mask=True, **asdict(cfg))
    return subprocess.Popen(["vllm", "serve", *to_cli_flags(options)])  # expect: VLM105


def start_with_equals(model: str, cfg: ServeConfig):
    options = {**asdict(cfg), "return_sampling_mask": True}
    command = shlex.join(["vllm", "serve", model, *to_equals_flags(options)])  # expect: VLM105
    return subprocess.run(command, shell=True, check=True)


def start_enforced(model: str, cfg: ReplayServeConfig, overrides: dict):
    # Replay is forced after the run's overrides are merged; the overrides may set logprobs_mode.
    options = {"model": model, **asdict(cfg)}
    options.update(overrides)
    options["return_sampling_mask"] = True
    return subprocess.Popen(["vllm", "serve", *to_cli_flags(options)])


def start_correct(model: str, cfg: ReplayServeConfig):
    options = dict(model=model, return_sampling_mask=True, **asdict(cfg))
    return subprocess.Popen(["vllm", "serve", *to_cli_flags(options)])


def exec_server(model: str, cfg: ServeConfig):
    flags = to_cli_flags({**asdict(cfg), "return_sampling_mask": True, "logprobs_mode": "raw_logprobs"})  # expect: VLM105
    os.execvp("vllm", ["vllm", "serve", model, *flags])


def start_from_runtime(model: str, cfg):
    # Not annotated: any settings object, whose fields may include logprobs_mode.
    options = dict(model=model, return_sampling_mask=True, **asdict(cfg))
    return subprocess.Popen(["vllm", "serve", *to_cli_flags(options)])


def start_sglang(model: str, cfg: ServeConfig):
    options = dict(model_path=model, return_sampling_mask=True, **asdict(cfg))
    return subprocess.Popen(["python", "-m", "sglang.launch_server", *to_cli_flags(options)])
