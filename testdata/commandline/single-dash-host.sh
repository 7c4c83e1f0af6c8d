#!/bin/sh
# target-version: 0.19
# argparse reads -host as -h with "ost" attached: help takes no value, so the server stops.
vllm serve /model-cache/Qwen3-30B-A3B -host 0.0.0.0 --port 8200  # expect: VLM301:39
vllm serve /model-cache/Qwen3-30B-A3B --host 0.0.0.0 --port 8200
vllm serve /model-cache/Qwen3-30B-A3B -tp 2 -pp 1 --port 8200
python3 -m sglang.launch_server --model-path /model-cache/Qwen3-30B-A3B -host 0.0.0.0 --port 8200
