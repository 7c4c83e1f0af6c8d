#!/usr/bin/env bash
# target-version: 0.33
# Group options chosen on the command line: the first replaces the experiment's bounded
# option by the unbounded one (reported at the override that chose it); the second
# chooses the bounded one over the unbounded experiment: clean.
python3 -m verl.trainer.main_ppo --config-path config --config-name exp_group_clean \
    trainer.total_epochs=3 \
    rollout@actor_rollout_ref.rollout=replay_rollout  # expect: VLM202:5

python3 -m verl.trainer.main_ppo --config-path config --config-name exp_group_choice \
    rollout@actor_rollout_ref.rollout=bounded_rollout
