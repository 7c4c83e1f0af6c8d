#!/bin/bash
# target-version: 0.33
# Unquoted values and the script's own arguments do not stop the fix.
model_path=${1:-Qwen/Qwen3-8B}
vllm serve ${model_path} --port ${PORT} --return-sampling-mask "${@:2}"
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.rollout.name=vllm \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs \
    actor_rollout_ref.rollout.top_k=50 \
    actor_rollout_ref.rollout.val_kwargs.top_k=20 \
    actor_rollout_ref.rollout.val_kwargs.temperature=0.6 \
    trainer.n_gpus_per_node=${GPUS} $@
