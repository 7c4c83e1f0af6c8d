#!/usr/bin/env bash
# target-version: 0.34
# Serves a policy and a judge on one box; each server's settings are the
# function's parameters, with defaults for the ones a call leaves out.
set -euo pipefail

serve_model() {
    local model="$1" util="${2:-0.45}" mode="${3:-raw_logprobs}"
    CUDA_VISIBLE_DEVICES=${GPUS:-0} nohup vllm serve "$model" --gpu-memory-utilization "$util" \
        --max-model-len 32768 --return-sampling-mask --logprobs-mode "$mode" >> "logs/${model##*/}.log" 2>&1 &  # expect: VLM105:54
}

serve_model Qwen/Qwen3-8B 0.55 processed_logprobs
# Left out here: the default written above, reported where it is written.
serve_model Qwen/Qwen3-1.7B

# One call per model of a list: the function reads the loop's variable.
for checkpoint in Qwen/Qwen3-4B Qwen/Qwen3-14B; do
    serve_model "$checkpoint" 0.4 processed_logprobs
done

# Forwarding the script's own arguments: read as adding nothing, and named.
run_policy() {
    vllm serve Qwen/Qwen3-8B --return-sampling-mask "$@"  # expect: VLM105:30
}
run_policy "$@"

# A function that nothing here calls: another script that sources this one decides.
serve_judge() {
    vllm serve "$1" --return-sampling-mask --logprobs-mode "$2"
}

# Options gathered in an array, one of them only when its setting is given.
JUDGE_MAX_LEN=""
start_judge() {
    local judge_args=(--port "$2" --tensor-parallel-size 2 --return-sampling-mask)  # expect: VLM105:60
    if [ -n "$JUDGE_MAX_LEN" ]; then
        judge_args+=(--max-model-len "$JUDGE_MAX_LEN")
    fi
    vllm serve "$1" "${judge_args[@]}" > "$3" 2>&1 &
}
start_judge Qwen/Qwen3-32B 8001 logs/judge.log
