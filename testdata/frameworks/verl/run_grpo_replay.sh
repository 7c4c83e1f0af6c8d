#!/usr/bin/env bash
# target-version: 0.33
# A verl launch script: Hydra overrides turn replay on; top_k stays at verl's default.
set -x

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_files=$HOME/data/gsm8k/train.parquet \
    actor_rollout_ref.model.path=Qwen/Qwen3-4B \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \  # expect: VLM202
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs \
    trainer.total_epochs=15 $@
