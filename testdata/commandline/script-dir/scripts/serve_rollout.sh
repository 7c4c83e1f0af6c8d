#!/bin/bash
# Paths computed from the script's own location name files of the repository.
set -euo pipefail

SCRIPT_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" &> /dev/null && pwd)
PROJECT_ROOT=$(realpath "${SCRIPT_DIR}/..")
CONFIGS="$(cd "$(dirname "$0")/../configs" && pwd)"

vllm serve --config "${PROJECT_ROOT}/configs/rollout.yaml" --port 8000  # expect: VLM105:1
vllm serve --config "$CONFIGS/rollout.yaml" --logprobs-mode processed_logprobs --port 8001

# A path on the machine the script runs on, and one relative to wherever it is started: unknown.
vllm serve --config /etc/rollout/rollout.yaml --return-sampling-mask
vllm serve --config "$(realpath configs/rollout.yaml)" --return-sampling-mask
