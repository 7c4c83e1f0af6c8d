# target-version: 0.34
"""Servers started from Python with an argv list."""
import subprocess
import sys

MODEL = "Qwen/Qwen3-8B"

subprocess.Popen(["vllm", "serve", MODEL, "--max-num-sequences", "64"])  # expect: VLM301
subprocess.Popen([sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", MODEL, "--dtype", "auto", "--logprobs-mode", "logits"])  # expect: VLM303
subprocess.Popen(["vllm", "serve", MODEL, "--max-num-seqs", "64", "--gpu-memory-utilization", "0.9"])
subprocess.Popen(["python", "-m", "sglang.launch_server", "--model-path", MODEL, "--max-num-seq", "64"])
