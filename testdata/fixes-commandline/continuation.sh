#!/bin/bash
# target-version: 0.33
# A command split over lines gets the new flag on its own continuation line.
vllm serve Qwen/Qwen3-8B \
    --tensor-parallel-size 4 \
    --return-sampling-mask \
    --max-model-len 8192

vllm serve Qwen/Qwen3-8B \
  --port 8000 \
  --return-sampling-mask

vllm serve Qwen/Qwen3-8B --return-sampling-mask --port 8000
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode raw_logprobs
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode="raw_logprobs"
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode 'processed_logits'
