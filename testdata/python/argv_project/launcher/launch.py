"""Starts the inference servers from dataclass settings rendered into flags."""
import dataclasses
import subprocess

from launcher.cmd import get_py_cmd
from launcher.config import ServerConfig, ValidServerConfig


def start_server():
    cmd = get_py_cmd("launcher.server", dataclasses.asdict(ServerConfig()))  # expect: VLM105
    return subprocess.Popen(cmd)


def start_valid_server():
    cmd = get_py_cmd("launcher.server", dataclasses.asdict(ValidServerConfig()))
    return subprocess.Popen(cmd)


def start_from_dict():
    options = {"model": "Qwen/Qwen3-8B", "port": 8000, "return_sampling_mask": True, "enforce_eager": False}
    return subprocess.Popen(get_py_cmd("launcher.server", options))  # expect: VLM105


def start_on_runtime_port(port):
    # Whether --port is rendered depends on the port: the argv is not known.
    options = {"model": "Qwen/Qwen3-8B", "port": port, "return_sampling_mask": True}
    return subprocess.Popen(get_py_cmd("launcher.server", options))


def start_other_program():
    options = {"model": "Qwen/Qwen3-8B", "return_sampling_mask": True}
    return subprocess.Popen(get_py_cmd("sglang.launch_server", options))


def start_from_runtime(config):
    return subprocess.Popen(get_py_cmd("launcher.server", dataclasses.asdict(config)))
