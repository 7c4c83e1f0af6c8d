#!/usr/bin/env bash
# target-version: 0.33
uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  +generator.inference_engine.engine_init_kwargs.return_sampling_mask=true \
  +generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs \
  generator.sampling_params.top_k=128
