# target-version: 0.34
"""A server started with an argv list: -O spellings and enable/disable pairs."""
import subprocess

MODEL = "Qwen/Qwen3-8B"

subprocess.Popen(["vllm", "serve", MODEL, "-O3", "--enable-custom-all-reduce"])
subprocess.Popen(["vllm", "serve", MODEL, "-O", "3", "--seed", "0"])
subprocess.Popen(["vllm", "serve", MODEL, "-O=2", "--dtype", "hadf"])  # expect: VLM303
subprocess.Popen(["vllm", "serve", MODEL, "--kv-cache-dtype", "foo"])  # expect: VLM303
