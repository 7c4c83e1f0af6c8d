#!/usr/bin/env bash
# target-version: 0.33
# "$@" may carry overrides that replace any key: nothing is certain, nothing is reported.
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.rollout.name=vllm \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    actor_rollout_ref.rollout.logprobs_mode=raw_logprobs \
    "$@"
