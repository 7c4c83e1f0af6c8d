#!/usr/bin/env bash
# target-version: 0.33
# A verl launch script: Hydra overrides turn replay on; top_k stays at verl's default (-1),
# validation keeps verl's greedy val_kwargs, and the second command (no validation before
# training) overrides logprobs_mode to raw_logprobs.
set -x

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_files="$HOME/data/gsm8k/train.parquet" \
    actor_rollout_ref.model.path=Qwen/Qwen3-4B \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \
    trainer.total_epochs=15 \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True  # expect: VLM201:5, VLM202:5

python3 -m verl.trainer.main_ppo \
    trainer.val_before_train=False \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    actor_rollout_ref.rollout.top_k=50 \
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs  # expect: VLM105:5
