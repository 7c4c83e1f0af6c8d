#!/usr/bin/env bash
# target-version: 0.33
# The project's own module composes verl's ppo_trainer config: the launch is a verl launch
# although its command names no verl module. It calls verl's run_ppo: verl's PPO loop, whose
# requests carry verl's defaults (top_k=-1, greedy validation before training).
set -x
python3 -m myproj.train \
    data.train_files=$HOME/data/gsm8k/train.parquet \
    actor_rollout_ref.model.path=Qwen/Qwen3-8B \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.top_k=50 \
    trainer.val_before_train=False \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs  # expect: VLM105

# verl's defaults: unbounded train requests, greedy validation before training.
python3 -m myproj.train \
    actor_rollout_ref.rollout.name=vllm \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True  # expect: VLM201, VLM202

# Another backend: nothing reaches vLLM.
python3 -m myproj.train \
    actor_rollout_ref.rollout.name=sglang \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs

# A module of the project that does not compose the trainer config: not a verl launch.
python3 -m myproj.export \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs
