#!/bin/bash
# target-version: 0.33
# A NeMo-RL launch: overrides on uv run examples/run_grpo.py over a config file next to it.
uv run examples/run_grpo.py \
    --config configs/grpo_base.yaml \
    ++policy.generation.vllm_kwargs.return_sampling_mask=true \
    cluster.gpus_per_node=8 \
    policy.generation.temperature=0.0  # expect: VLM201
