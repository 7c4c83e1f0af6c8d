# target-version: 0.33
"""A launcher that forwards its own command line to the server: the forwarded
arguments carry nothing this file decides, so what it writes is checked."""

import subprocess
import sys

MODEL = "Qwen/Qwen3-8B"


def serve_with_replay() -> None:
    subprocess.run(["vllm", "serve", MODEL, "--return-sampling-mask", *sys.argv[1:]], check=True)  # expect: VLM105:45


def serve_fixed() -> None:
    command = ["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]
    subprocess.run(command + sys.argv[1:], check=True)


def serve_with_raw_logprobs() -> None:
    command = ["vllm", "serve", MODEL, "--logprobs-mode", "raw_logprobs", "--return-sampling-mask"]  # expect: VLM105:40
    subprocess.run(command + sys.argv[1:], check=True)


def serve_with_extra(extra_args: list[str]) -> None:
    # The caller's list, not the process's arguments: it may set --logprobs-mode.
    subprocess.run(["vllm", "serve", MODEL, "--return-sampling-mask", *extra_args], check=True)


def serve_arguments_first() -> None:
    # The forwarded arguments before what is written: the rest of the list is not in order.
    subprocess.run(["vllm", "serve", MODEL, *sys.argv[1:], "--return-sampling-mask"], check=True)


def serve_sglang() -> None:
    subprocess.run([sys.executable, "-m", "sglang.launch_server", "--model-path", MODEL, "--return-sampling-mask", *sys.argv[1:]], check=True)
