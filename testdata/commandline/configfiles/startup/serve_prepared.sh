#!/usr/bin/env bash
# target-version: 0.34
set -euo pipefail
cd "$(dirname "$0")"

# The file sets checkpoint preparation; sleep mode is on for one of the servers only.
vllm serve Qwen/Qwen3-8B --config serve-prepared.yaml --port 8000  # expect: VLM404
vllm serve Qwen/Qwen3-8B --config serve-prepared.yaml --enable-sleep-mode --port 8001
