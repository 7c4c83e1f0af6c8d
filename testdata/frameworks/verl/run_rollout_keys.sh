#!/usr/bin/env bash
# target-version: 0.34
# The rollout's own keys given as Hydra overrides: verl passes them to `vllm serve`.
set -x

MODEL_PATH=${MODEL_PATH:-Qwen/Qwen3-4B}

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_batch_size=512 \
    actor_rollout_ref.model.path=$MODEL_PATH \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=2 \
    actor_rollout_ref.rollout.gpu_memory_utilization=1.6 `# expect: VLM304:5` \
    actor_rollout_ref.rollout.dtype=fp16 `# expect: VLM303:5` \
    actor_rollout_ref.rollout.max_num_seqs=-5 `# expect: VLM304:5` \
    actor_rollout_ref.rollout.load_format=safetensors \
    actor_rollout_ref.rollout.n=5 \
    trainer.n_gpus_per_node=8

# A value under engine_kwargs.vllm comes after the rollout's own keys and wins.
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.model.path=$MODEL_PATH \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.gpu_memory_utilization=1.6 \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.gpu_memory_utilization=0.6 \
    trainer.n_gpus_per_node=8

# Captured CUDA graph sizes go to vLLM as --cuda_graph_sizes, which vLLM 0.13 removed.
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.model.path=$MODEL_PATH \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.enforce_eager=False \
    actor_rollout_ref.rollout.cudagraph_capture_sizes=[1,2,4,8,16] `# expect: VLM301:5` \
    trainer.n_gpus_per_node=8

# An SGLang rollout reads the same keys itself.
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.model.path=$MODEL_PATH \
    actor_rollout_ref.rollout.name=sglang \
    actor_rollout_ref.rollout.gpu_memory_utilization=1.6 \
    actor_rollout_ref.rollout.dtype=fp16 \
    trainer.n_gpus_per_node=8
