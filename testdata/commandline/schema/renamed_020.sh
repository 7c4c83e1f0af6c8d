#!/bin/bash
# target-version: 0.20
# --disable-log-requests is gone in 0.17-0.24 and vLLM documents --enable-log-requests as its
# replacement, but with the opposite meaning: named, never rewritten.
vllm serve Qwen/Qwen3-8B --disable-log-requests  # expect: VLM301:26
vllm serve Qwen/Qwen3-8B --enable-log-requests
# A flag replaced by a field of another flag's JSON value: no successor flag to name.
vllm serve Qwen/Qwen3-8B --eplb-window-size 1000  # expect: VLM301:26
