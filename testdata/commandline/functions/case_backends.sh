#!/usr/bin/env bash
# target-version: 0.34
# One entry point for several inference backends: the backend's name picks the
# arm of a case, and each call of the function reads only the arm it takes.
set -euo pipefail

serve_backend() {
    local backend="$1"
    local model="$2"
    case "$backend" in
        sglang)
            python3 -m sglang.launch_server --model-path "$model" --port 30000 "${@:3}" &
            ;;
        vllm|vllm-*)
            vllm serve "$model" --port 8000 --return-sampling-mask "${@:3}" &  # expect: VLM105:45
            ;;
        *)
            echo "unsupported backend: $backend" >&2
            return 1
            ;;
    esac
}

serve_backend vllm Qwen/Qwen3-8B --max-model-len 32768
# SGLang's own flags never reach vLLM's parser: the vllm arm is not taken.
serve_backend sglang Qwen/Qwen3-8B --mem-fraction-static 0.8 --chunked-prefill-size 4096
serve_backend vllm-nightly Qwen/Qwen3-14B --logprobs-mode processed_logprobs
