#!/bin/bash
# target-version: 0.33
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs \
  --speculative-config '{"method": "dspark", "enable_adaptive_verification": true, "num_speculative_tokens": 4}'
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs \
  --speculative-config '{"method": "dspark", "num_speculative_tokens": 4, "enable_adaptive_verification": true}'
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs \
  --speculative-config.method dspark \
  --speculative-config.enable_adaptive_verification true \
  --speculative-config.num_speculative_tokens 4
