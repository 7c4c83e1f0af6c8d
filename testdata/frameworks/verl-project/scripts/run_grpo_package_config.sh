#!/usr/bin/env bash
# target-version: 0.33
# myproj.entrypoints.grpo reads its Hydra config from package data
# (config_path="pkg://myproj.conf"): the launch composes over that config, as Hydra does.
set -x
python3 -m myproj.entrypoints.grpo \
    actor_rollout_ref.model.path=Qwen/Qwen3-8B \
    actor_rollout_ref.rollout.name=vllm \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs  # expect: VLM105

# The config's own top_k (40) bounds every request, and validation is off: clean.
python3 -m myproj.entrypoints.grpo \
    actor_rollout_ref.rollout.name=vllm \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True

# --config-name is looked up in the same package: the Megatron variant keeps verl's top_k=-1.
python3 -m myproj.entrypoints.grpo \
    --config-name=grpo_megatron_trainer \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True  # expect: VLM202

# A pkg:// path to a package that is not the project's and is not installed: its config is
# not readable, so the module is not known to be a verl entry point.
python3 -m myproj.entrypoints.eval_suite \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs

# verl's own entry point over the project's packaged config, named on the command line.
python3 -m verl.trainer.main_ppo \
    --config-path=pkg://myproj.conf \
    --config-name=grpo_megatron_trainer \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True  # expect: VLM202

# The same with a package that is not found: the named config may set anything.
python3 -m verl.trainer.main_ppo \
    --config-path=pkg://evalkit.conf \
    --config-name=grpo_megatron_trainer \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True
