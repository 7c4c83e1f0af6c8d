#!/bin/bash
# target-version: 0.33
# OpenRLHF forwards no replay setting: its launch is recognised and silent.
ray job submit --address="http://127.0.0.1:8265" -- python3 -m openrlhf.cli.train_ppo_ray \
   --vllm.num_engines 4 \
   --vllm.tensor_parallel_size 2 \
   --vllm.enable_prefix_caching \
   --algo.advantage.is_correction_enable \
   --rollout.temperature 1.0
