#!/bin/sh
# target-version: 0.34
# -O3, -O=2, -Odecode: FlexibleArgumentParser rewrites them to --optimization-level (0.12 on).
vllm serve Qwen/Qwen3-8B -O3 --port 8000
vllm serve Qwen/Qwen3-8B -O=2
vllm serve Qwen/Qwen3-8B -O 1
# A short option with a value attached is argparse's only for a one-letter option: -tp2 is none.
vllm serve Qwen/Qwen3-8B -tp2  # expect: VLM301:26
