#!/bin/bash
# target-version: 0.30
# Incompatible flags are removed with their values, their blanks or their whole line.
vllm serve Qwen/Qwen3-8B \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --enable-batch-sharded-sampling \
  --tensor-parallel-size 4

vllm serve Qwen/Qwen3-8B \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  --spec-method eagle3 \
  --spec-model org/eagle3-head --spec-tokens 3

vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --logits-processors a.b:C d.e:F --port 8000
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --speculative-config '{"method": "mtp"}'
vllm serve Qwen/Qwen3-8B --enable-return-sampling-mask --logprobs-mode processed_logprobs
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --return-sampling-mask-logprobs
