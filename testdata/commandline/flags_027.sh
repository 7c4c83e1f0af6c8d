#!/bin/bash
# target-version: 0.27
# Before 0.28 no replay flag exists: vLLM rejects the command line.
vllm serve Qwen/Qwen3-4B --return-sampling-mask --logprobs-mode processed_logprobs  # expect: VLM301:26
vllm serve Qwen/Qwen3-4B --no-return-sampling-mask  # expect: VLM301:26
vllm serve Qwen/Qwen3-4B --enable-trace-replay  # expect: VLM301:26
vllm serve Qwen/Qwen3-4B --logprobs-mode processed_logprobs
