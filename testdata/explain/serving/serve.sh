#!/usr/bin/env bash
set -euo pipefail

PORT=8000
vllm serve Qwen/Qwen3-4B \
  --port "$PORT" \
  --config replay.yaml
