#!/bin/bash
# target-version: 0.12
# Flags that changed between releases, against vLLM 0.12.
vllm serve Qwen/Qwen3-8B --task generate --swap-space 4 --disable-log-requests
vllm serve Qwen/Qwen3-8B --enable-trace-replay  # expect: VLM301
vllm serve Qwen/Qwen3-8B --guided-decoding-backend xgrammar  # expect: VLM301
