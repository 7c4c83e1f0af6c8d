# target-version: 0.33
"""Starts one rollout server per GPU (argv lists in Python)."""
import subprocess
import sys

MODULE = "rollout.serving.openai_server"


def start(gpu: int, model: str, port: int) -> subprocess.Popen:
    cmd = [sys.executable, "-m", MODULE, "--model", model, "--port", str(port)]
    cmd += ["--return-sampling-mask", "--tensor-parallel-size", "1"]  # expect: VLM105:13
    return subprocess.Popen(cmd, env={"CUDA_VISIBLE_DEVICES": str(gpu)})


def start_ok(model: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", MODULE, "--model", model, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"])


def start_sglang(model: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "rollout.serving.sglang_server", "--model-path", model, "--return-sampling-mask"])
