#!/bin/bash
# target-version: 0.32
# Before 0.33 only --no-x negates a BooleanOptionalAction: --enable-x for --disable-x is unknown.
vllm serve Qwen/Qwen3-8B --enable-custom-all-reduce  # expect: VLM301
vllm serve Qwen/Qwen3-8B --no-disable-custom-all-reduce --disable-custom-all-reduce
vllm serve Qwen/Qwen3-8B -O3 --dtype bfloat16
vllm serve Qwen/Qwen3-8B -O 2
