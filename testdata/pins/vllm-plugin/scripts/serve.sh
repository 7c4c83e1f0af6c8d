#!/bin/bash
# The plugin adds --sequence-shards and --enable-shift-parallel to vllm serve.
vllm serve Qwen/Qwen3-8B --sequence-shards 4 --enable-shift-parallel --port 8000
vllm serve Qwen/Qwen3-8B --sequence-shards 4 --shift-paralel-threshold 256  # expect: VLM301
