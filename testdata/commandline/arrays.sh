#!/usr/bin/env bash
# target-version: 0.33
# Arrays the script assigns expand to the words written in them: a launch built from
# them is read as if the words stood on its command line.
set -euo pipefail

MODEL=${MODEL:-Qwen/Qwen3-8B}

COMMON_ARGS=(
    --tensor-parallel-size 2
    --max-model-len 32768
    --gpu-memory-utilization 0.85
)
REPLAY_ARGS=(
    --return-sampling-mask
    --logprobs-mode raw_logprobs  # expect: VLM105
)
vllm serve "$MODEL" "${COMMON_ARGS[@]}" "${REPLAY_ARGS[@]}" --port 8000

# Clean: the same arrays with the mode replay needs, appended with +=.
FIXED_ARGS=(--return-sampling-mask)
FIXED_ARGS+=(--logprobs-mode processed_logprobs)
vllm serve "$MODEL" "${COMMON_ARGS[@]}" "${FIXED_ARGS[@]}" --port 8001

# Unknown: an element set by index, and an array extended on one branch only.
TUNED_ARGS=(--return-sampling-mask --logprobs-mode processed_logprobs)
TUNED_ARGS[2]=${LOGPROBS_MODE:-raw_logprobs}
vllm serve "$MODEL" "${TUNED_ARGS[@]}" --port 8002
BRANCH_ARGS=(--return-sampling-mask)
if [[ -n "${PROCESSED:-}" ]]; then
    BRANCH_ARGS+=(--logprobs-mode processed_logprobs)
fi
vllm serve "$MODEL" "${BRANCH_ARGS[@]}" --port 8003

# Look-alike: SGLang's server takes other flags; nothing here is vLLM's.
SGLANG_ARGS=(--model-path "$MODEL" --tp 2 --return-sampling-mask)
python3 -m sglang.launch_server "${SGLANG_ARGS[@]}" --port 30000
