#!/usr/bin/env bash
# target-version: 0.33
# The fork's own asynchronous entry point composes the same config as main_base.
uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_async \
  trainer.policy.model.path=Qwen/Qwen3-1.7B \
  generator.sampling_params.top_k=32 \
  +generator.inference_engine.engine_init_kwargs.return_sampling_mask=true  # expect: VLM105:3

# Not an entry point of the training config: the same words mean nothing to it.
uv run -m skyrl.train.entrypoints.export_weights \
  +generator.inference_engine.engine_init_kwargs.return_sampling_mask=true

# A config class made with make_config composes the same training config.
uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_dapo \
  trainer.policy.model.path=Qwen/Qwen3-1.7B \
  +generator.inference_engine.engine_init_kwargs.return_sampling_mask=true  # expect: VLM105:3
