#!/usr/bin/env bash
# target-version: 0.33
# Inference-only serving of a policy with replay on, for clients that score rollouts elsewhere.
# The serve entry point builds the same engines as training; its clients send their own requests.
set -euo pipefail

uv run --isolated --extra fsdp -m skyrl.train.entrypoints.serve \
  trainer.policy.model.path=Qwen/Qwen3-4B \
  trainer.placement.colocate_all=false \
  generator.inference_engine.num_engines=2 \
  generator.inference_engine.tensor_parallel_size=2 \
  +generator.inference_engine.engine_init_kwargs.return_sampling_mask=true  # expect: VLM105:3

# Replay set up right: SkyRL's default top_k of -1 belongs to the trainer's requests, not to
# the clients of this server.
uv run --isolated --extra fsdp -m skyrl.train.entrypoints.serve \
  trainer.policy.model.path=Qwen/Qwen3-4B \
  trainer.placement.colocate_all=false \
  +generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs \
  +generator.inference_engine.engine_init_kwargs.return_sampling_mask=true
