#!/usr/bin/env bash
# target-version: 0.34
# SkyRL turns sleep mode on when training and inference are colocated: not known here.
set -x
uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  trainer.placement.colocate_all=false \
  generator.inference_engine.tensor_parallel_size=2 \
  +generator.inference_engine.engine_init_kwargs.checkpoint_prepare_on_startup=true \
  +generator.inference_engine.engine_init_kwargs.collect_detailed_traces='["model"]'  # expect: VLM405
