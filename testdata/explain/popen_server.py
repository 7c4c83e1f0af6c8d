"""Starts the policy server for evaluation."""
import os
import subprocess


def launch(model: str):
    cmd = [
        "vllm", "serve", model,
        "--port", "8000",
        "--max-model-len", os.environ["MAX_MODEL_LEN"],
        "--enforce-eager",
    ]
    env = dict(os.environ, VLLM_USE_V2_MODEL_RUNNER="1")
    return subprocess.Popen(cmd, env=env)


server = launch("Qwen/Qwen3-4B")
