#!/usr/bin/env bash
# target-version: 0.34
# verl launches: the overrides a start-up check reads are reported at the launch.
set -xeuo pipefail

MODEL=Qwen/Qwen3-8B

# verl keeps the engine asleep between steps (enable_sleep_mode defaults to true): accepted.
python3 -m verl.trainer.main_ppo \
    data.train_files="$HOME/data/gsm8k/train.parquet" \
    actor_rollout_ref.model.path=$MODEL \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=2 \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.checkpoint_prepare_on_startup=True \
    trainer.n_gpus_per_node=8 "$@"

# Sleep mode turned off at the launch: rejected.
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.model.path=$MODEL \
    actor_rollout_ref.rollout.name=vllm \
    +actor_rollout_ref.rollout.enable_sleep_mode=False \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.checkpoint_prepare_on_startup=True  # expect: VLM404:5

python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.model.path=Qwen/Qwen3-30B-A3B \
    actor_rollout_ref.rollout.name=vllm \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.enable_elastic_ep=True  # expect: VLM401:5

# The SGLang rollout does not build a vLLM engine.
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.model.path=$MODEL \
    actor_rollout_ref.rollout.name=sglang \
    +actor_rollout_ref.rollout.enable_sleep_mode=False \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.checkpoint_prepare_on_startup=True
