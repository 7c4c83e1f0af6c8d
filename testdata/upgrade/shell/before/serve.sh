#!/usr/bin/env bash
# Serve the vision model behind the gateway.
set -euo pipefail

MODEL=${MODEL:-Qwen/Qwen2.5-VL-7B-Instruct}

vllm serve "$MODEL" \
  --tensor-parallel-size 2 \
  --enable-multimodal-encoder-data-parallel \
  --disable-mm-preprocessor-cache \
  --cuda-graph-sizes 8 16 32 \
  --enable-reasoning `# expect: VLM301` \
  --disable-log-requests `# expect: VLM301` \
  --port 8000
