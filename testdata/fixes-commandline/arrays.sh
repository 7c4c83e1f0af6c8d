#!/usr/bin/env bash
# target-version: 0.33
# Fixes edit the array literal that holds the flag, where it is written.
SERVER_ARGS=(
    --tensor-parallel-size 2
    --return-sampling-mask
    --logprobs-mode raw_logprobs  # set for the old trainer
)
vllm serve Qwen/Qwen3-8B "${SERVER_ARGS[@]}" --port 8000

REPLAY_ARGS=(--return-sampling-mask --max-model-len 16384)
vllm serve Qwen/Qwen3-8B "${REPLAY_ARGS[@]}" --port 8001
