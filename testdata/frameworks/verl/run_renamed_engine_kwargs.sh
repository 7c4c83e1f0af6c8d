#!/usr/bin/env bash
# target-version: 0.13
# verl hands engine_kwargs.vllm to vLLM's server arguments: a flag vLLM renamed is named by its
# successor, as on vllm serve's own command line.
set -x

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=2 \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.cuda_graph_sizes=[8,16,32] `# expect: VLM301:5` \
    trainer.n_gpus_per_node=8

python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct \
    actor_rollout_ref.rollout.name=vllm \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.cudagraph_capture_sizes=[8,16,32] \
    trainer.n_gpus_per_node=8
