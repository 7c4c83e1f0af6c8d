#!/bin/bash
# target-version: 0.33
# Scripts of the project's own that only share a name with NeMo-RL's entry points.
PROJECT_ROOT=$(realpath "$(dirname "$0")/../..")
uv run $PROJECT_ROOT/tools/run_grpo_math.py \
    ++policy.generation.vllm_kwargs.return_sampling_mask=true
python "$PROJECT_ROOT/examples/run_grpo_math.py.bak" \
    ++policy.generation.vllm_kwargs.return_sampling_mask=true
# Extra overrides from a variable after the override may undo it: no finding.
uv run $PROJECT_ROOT/examples/run_grpo_math.py \
    ++policy.generation.vllm_kwargs.return_sampling_mask=true \
    $EXTRA_OVERRIDES
