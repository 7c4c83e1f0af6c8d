#!/usr/bin/env bash
# target-version: 0.33
# The script's own "$@" is read as carrying no override: what is written is reported,
# and each finding names the arguments it assumes do not change it.
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.rollout.name=vllm \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True `# expect: VLM201:5, VLM202:5` \
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs `# expect: VLM105:5` \
    "$@"

# SGLang: another backend, nothing reported whatever "$@" holds.
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.rollout.name=sglang \
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    "$@"

# Fixed: the same launch with the value replay needs.
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.rollout.name=vllm \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    actor_rollout_ref.rollout.logprobs_mode=processed_logprobs \
    actor_rollout_ref.rollout.top_k=50 \
    actor_rollout_ref.rollout.val_kwargs.temperature=0.6 \
    actor_rollout_ref.rollout.val_kwargs.top_k=20 \
    "$@"
