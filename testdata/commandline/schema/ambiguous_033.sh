#!/bin/bash
# target-version: 0.33
# argparse takes a prefix of one option; a prefix of several stops the server.
vllm serve Qwen/Qwen3-8B --max-num 8 --port 8000  # expect: VLM301
vllm serve Qwen/Qwen3-8B --max-num-seqs 8 --max-model 4096 --port 8000
vllm serve Qwen/Qwen3-8B --kv-cache fp8  # expect: VLM301
