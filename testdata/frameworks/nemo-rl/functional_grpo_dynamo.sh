#!/bin/bash
# target-version: 0.34
# NeMo-RL's managed Dynamo backend chosen on the command line: the generation keys become
# options of `python -m dynamo.vllm`.
SCRIPT_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" &>/dev/null && pwd)
PROJECT_ROOT=$(realpath "$SCRIPT_DIR/../..")

cd "$PROJECT_ROOT"
uv run --no-sync "$PROJECT_ROOT/examples/run_grpo_math.py" \
    policy.model_name=Qwen/Qwen3-0.6B \
    policy.generation.backend=dynamo \
    policy.generation.vllm_cfg.precision=bfloat16 \
    ++policy.generation.vllm_kwargs.return_sampling_mask=true  # expect: VLM202

# An option vLLM's engine parser does not have, on Dynamo's worker.
uv run --no-sync "$PROJECT_ROOT/examples/run_grpo_math.py" \
    policy.generation.backend=dynamo \
    policy.generation.vllm_cfg.precision=bfloat16 \
    ++policy.generation.vllm_kwargs.max_num_seq=16  # expect: VLM301

# The same keys with the SGLang backend: not vLLM.
uv run --no-sync "$PROJECT_ROOT/examples/run_grpo_math.py" \
    policy.generation.backend=sglang \
    ++policy.generation.vllm_kwargs.return_sampling_mask=true \
    ++policy.generation.vllm_kwargs.max_num_seq=16
