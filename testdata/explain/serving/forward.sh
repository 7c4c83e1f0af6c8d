#!/usr/bin/env bash
vllm serve Qwen/Qwen3-4B --return-sampling-mask \
  "$@" --tensor-parallel-size 2
