#!/usr/bin/env bash
# target-version: 0.33
# SkyRL never sets logprobs_mode: replay switched on through engine_init_kwargs keeps
# vLLM's raw_logprobs (the fix adds the key after the replay token); the second run
# adds a speculative config with adaptive verification.
set -ex

uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  trainer.policy.model.path="Qwen/Qwen3-1.7B" \
  generator.sampling_params.top_k=32 \
  trainer.epochs=20 \
  +generator.inference_engine.engine_init_kwargs.return_sampling_mask=true  # expect: VLM105:3

uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  generator.sampling_params.top_k=32 \
  +generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs \
  +generator.inference_engine.engine_init_kwargs.return_sampling_mask=true \
  generator.inference_engine.speculative_config='{method: eagle3, model: RedHatAI/Qwen3-8B-speculator.eagle3, num_speculative_tokens: 3, enable_adaptive_verification: true}'  # expect: VLM102:3
