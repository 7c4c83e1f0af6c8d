#!/bin/bash
# target-version: 0.33
# A serving script written for vLLM 0.6, run on 0.33: the flags no release since 0.10 accepts.
vllm serve Qwen/Qwen2.5-7B-Instruct \
  --use-v2-block-manager \
  --max-model-len 32768 \
  --port 8000
vllm serve Qwen/Qwen2.5-7B-Instruct --disable-log-requests --use-v2-block-manager
# No release records whether --tokenizer-pool-size took a value: left for the author.
vllm serve Qwen/Qwen2.5-7B-Instruct --tokenizer-pool-size 4
