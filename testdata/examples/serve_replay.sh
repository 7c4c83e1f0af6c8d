#!/usr/bin/env bash
# Inference server for the GRPO trainer: replay masks come back with every token.
set -euo pipefail

MODEL=${MODEL:-Qwen/Qwen3-8B}

VLLM_USE_V2_MODEL_RUNNER=1 vllm serve "$MODEL" \
    --port 8000 \
    --tensor-parallel-size 2 \
    --return-sampling-mask \
    --enable-batch-sharded-sampling \
    --speculative-config '{"method": "dspark", "num_speculative_tokens": 4, "enable_adaptive_verification": true}'
