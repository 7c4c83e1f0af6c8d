#!/usr/bin/env bash
# target-version: 0.34
# Benchmarks several checkpoints, each behind a server one function starts: the
# function's parameters are the words each call passes.
set -uo pipefail

PORT=30000

launch() {
    backend=$1
    checkpoint=$2
    shift 2  # the rest are the server's own options
    echo "Starting $backend for $checkpoint with: $@"
    if [ "$backend" = "sglang" ]; then
        python -m sglang.launch_server --model-path "$checkpoint" --port $PORT --return-sampling-mask "$@" &
    elif [ "$backend" = "vllm" ]; then
        vllm serve $checkpoint --port $PORT --return-sampling-mask "$@" &  # expect: VLM105:45
    else
        echo "unknown backend $backend"
        exit 1
    fi
    SERVER_PID=$!
}

halt() {
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
}

# Two calls without --logprobs-mode: one finding on the line both run.
launch vllm "Qwen/Qwen2.5-VL-7B-Instruct" --max-model-len 8192
python -m evalkit.run --port $PORT --name qwen25vl --parallel 32
halt
launch vllm "allenai/olmOCR-7B-0725" --max-model-len 16384
halt

# A value the call passes is reported where the call writes it.
launch vllm "reducto/RolmOCR" --max-model-len 8192 --logprobs-mode raw_logits  # expect: VLM105:52
halt

# Fixed: the call passes what replay needs.
launch vllm "reducto/RolmOCR" --logprobs-mode processed_logprobs
halt

# SGLang's options go to SGLang: the vLLM branch does not run for this call.
launch sglang "Qwen/Qwen2-VL-7B-Instruct" --chat-template qwen2-vl --mem-fraction-static 0.7
halt
