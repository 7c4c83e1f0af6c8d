#!/usr/bin/env bash
# target-version: 0.33
# Builtins that assign a variable at run time leave its value unknown; the others keep it.
MODEL=Qwen/Qwen3-8B
MODE=raw_logprobs

# printf -v writes MODE from the script's argument: unknown, no finding.
printf -v MODE '%s' "${1:-processed_logprobs}"
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode "$MODE" --port 8001

# printf without -v only prints: the value written above stays certain.
LOG_MODE=raw_logprobs
printf '%s\n' "starting $MODEL with $LOG_MODE"
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode "$LOG_MODE" --port 8002  # expect: VLM105

# A name reference: writes through REF change SERVE_MODE unseen.
SERVE_MODE=raw_logprobs
declare -n REF=SERVE_MODE
REF="${2:-processed_logprobs}"
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode "$SERVE_MODE" --port 8003

# mapfile fills an array from input.
mapfile -t EXTRA < extra_flags.txt
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs "${EXTRA[@]}" --port 8004
