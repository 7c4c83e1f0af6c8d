#!/usr/bin/env bash
# target-version: 0.33
# Engine arguments given as Hydra overrides reach `vllm serve`'s parser: a misspelt one stops it.
set -xeuo pipefail

MODEL_PATH=${MODEL_PATH:-Qwen/Qwen3-8B}

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_batch_size=256 \
    actor_rollout_ref.model.path="${MODEL_PATH}" \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=2 \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.tool_call_parser=hermes \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.enable_auto_tool_choice=True \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.max_num_batched_token=8192 \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.gpu_memory_utilisation=0.8 `# expect: VLM301:5` \
    trainer.n_gpus_per_node=8 \
    trainer.total_epochs=15
