#!/bin/bash
# target-version: 0.34
# OpenRLHF hands its --vllm.* options to every engine's LLM(...).
set -x

python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 8 \
   --vllm.num_engines 4 \
   --vllm.tensor_parallel_size 2 \
   --train.colocate_all \
   --vllm.gpu_memory_utilization 1.5 `# expect: VLM304:4` \
   --algo.advantage.estimator group_norm \
   --algo.dynamic_filtering_range 0 1 \
   --data.max_len 4096 \
   --vllm.enforce_eager \
   --vllm.enable_sleep

# A tensor-parallel size below 1 fails in OpenRLHF's own placement first; the SFT trainer builds no engine.
python3 -m openrlhf.cli.train_ppo_ray \
   --vllm.num_engines 2 \
   --vllm.tensor_parallel_size 0 \
   --vllm.gpu_memory_utilization 0.5
python3 -m openrlhf.cli.train_sft \
   --vllm.gpu_memory_utilization 1.5
