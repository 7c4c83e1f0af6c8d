#!/bin/bash
# target-version: 0.33
# A functional test in NeMo-RL's shape: the entry point is named through the checkout's root.
SCRIPT_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" &>/dev/null && pwd)
PROJECT_ROOT=$(realpath "$SCRIPT_DIR/../..")
EXP_NAME=$(basename "$0" .sh)
LOG_DIR=$SCRIPT_DIR/$EXP_NAME/logs

cd "$PROJECT_ROOT"
uv run coverage run -a --data-file="$PROJECT_ROOT/tests/.coverage" --source="$PROJECT_ROOT/nemo_rl" \
    $PROJECT_ROOT/examples/run_grpo_math.py \
    policy.model_name=Qwen/Qwen3-0.6B \
    grpo.max_num_steps=2 \
    logger.log_dir="$LOG_DIR" \
    ++policy.generation.vllm_kwargs.return_sampling_mask=true  # expect: VLM202

# The same entry point, quoted.
uv run "$PROJECT_ROOT/examples/run_grpo_math.py" \
    ++policy.generation.vllm_kwargs.return_sampling_mask=true \
    policy.generation.top_k=20 \
    policy.generation.temperature=0.0  # expect: VLM201
