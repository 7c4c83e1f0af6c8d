#!/usr/bin/env bash
vllm serve Qwen/Qwen3-4B --return-sampling-mask $EXTRA_ARGS
