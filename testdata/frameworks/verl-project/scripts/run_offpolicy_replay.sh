#!/usr/bin/env bash
# target-version: 0.33
# The project's trainer module names its own Hydra config, which composes verl's
# ppo_trainer: a verl launch over that config, whose requests are checked too.
set -x
python3 -m myproj.offpolicy \
    actor_rollout_ref.model.path=Qwen/Qwen3-8B \
    actor_rollout_ref.rollout.name=vllm \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs  # expect: VLM105

# The config's own top_k (50) is a bounded request: clean.
python3 -m myproj.offpolicy \
    actor_rollout_ref.rollout.name=vllm \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True

# --config-name is looked up in the module's config_path: the Megatron variant keeps
# verl's top_k=-1, which every request then carries.
python3 -m myproj.offpolicy \
    --config-name=offpolicy_megatron_trainer \
    trainer.val_before_train=False \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True  # expect: VLM202

# Another backend: nothing reaches vLLM.
python3 -m myproj.offpolicy \
    --config-name=offpolicy_megatron_trainer \
    actor_rollout_ref.rollout.name=sglang \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs

# A module whose own config composes nothing of verl's: not a verl launch.
python3 -m myproj.reward_eval \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs
