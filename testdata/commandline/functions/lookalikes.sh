#!/usr/bin/env bash
# target-version: 0.34
# The same function shapes starting other servers: no vLLM engine.
set -euo pipefail

start_server() {
    local model=$1
    shift
    python -m sglang.launch_server --model-path "$model" --return-sampling-mask "$@" &
}
start_server Qwen/Qwen3-8B --mem-fraction-static 0.8

serve_tgi() {
    text-generation-launcher --model-id "$1" --port "$2" --return-sampling-mask
}
serve_tgi Qwen/Qwen3-8B 8080

# A function named like vLLM's command that runs something else.
vllm() {
    echo "vllm $*" >> dry-run.log
}
