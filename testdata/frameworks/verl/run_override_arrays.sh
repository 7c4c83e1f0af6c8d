#!/usr/bin/env bash
# target-version: 0.33
# A verl launch whose Hydra overrides are grouped in arrays, with the script's own
# arguments passed on at the end: replay is turned on in the rollout group, and the
# requests keep verl's default top_k (-1).
set -xeuo pipefail

MODEL_PATH=${MODEL_PATH:-Qwen/Qwen3-4B}

DATA=(
    data.train_files="$HOME/data/gsm8k/train.parquet"
    data.val_files="$HOME/data/gsm8k/test.parquet"
    data.train_batch_size=512
)

ROLLOUT=(
    actor_rollout_ref.rollout.name=vllm
    actor_rollout_ref.rollout.tensor_model_parallel_size=2
    actor_rollout_ref.rollout.n=8
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True  # expect: VLM201, VLM202
)

TRAINER=(
    trainer.n_gpus_per_node=8
    trainer.total_epochs=15
)

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    actor_rollout_ref.model.path="$MODEL_PATH" \
    "${DATA[@]}" \
    "${ROLLOUT[@]}" \
    "${TRAINER[@]}" \
    "$@"

# Clean: a bounded top_k and no validation before training, added to the groups with +=.
ROLLOUT+=(actor_rollout_ref.rollout.top_k=50)
TRAINER+=(trainer.val_before_train=False)
python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    actor_rollout_ref.model.path="$MODEL_PATH" \
    "${DATA[@]}" \
    "${ROLLOUT[@]}" \
    "${TRAINER[@]}" \
    "$@"
