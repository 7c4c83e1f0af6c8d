#!/usr/bin/env bash
# target-version: 0.33
# verl's multinode launch: the trainer runs as a Ray job submitted to the head node, with
# replay turned on in the rollout; the requests keep verl's default top_k (-1).
set -x

ray job submit --address="http://${HEAD_IP:-127.0.0.1}:8265" \
    --runtime-env=verl/trainer/runtime_env.yaml \
    --no-wait \
    -- \
    python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_files="$HOME/data/gsm8k/train.parquet" \
    data.val_files="$HOME/data/gsm8k/test.parquet" \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-32B-Instruct \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=4 \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True `# expect: VLM201:5, VLM202:5` \
    trainer.nnodes=4 \
    trainer.n_gpus_per_node=8

# Clean: a bounded top_k and no greedy validation before training.
ray job submit --address="http://${HEAD_IP:-127.0.0.1}:8265" --no-wait -- \
    python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-32B-Instruct \
    actor_rollout_ref.rollout.name=vllm \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True \
    actor_rollout_ref.rollout.top_k=50 \
    trainer.val_before_train=False \
    trainer.nnodes=4

# A Ray job that runs SGLang's rollout: no vLLM engine.
ray job submit --address="http://${HEAD_IP:-127.0.0.1}:8265" -- \
    python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.rollout.name=sglang \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True
