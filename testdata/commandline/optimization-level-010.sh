#!/bin/sh
# target-version: 0.10
# Before 0.12, -O is the compilation config's option: argparse reads -O3 as -O 3.
vllm serve Qwen/Qwen3-8B -O3 --port 8000
vllm serve Qwen/Qwen3-8B --optimization-level 3  # expect: VLM301:26
