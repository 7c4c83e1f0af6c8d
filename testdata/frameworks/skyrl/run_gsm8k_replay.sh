#!/usr/bin/env bash
# target-version: 0.33
# A SkyRL launch: engine_init_kwargs overrides turn replay on; SkyRL's default top_k is -1.
uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  trainer.policy.model.path="Qwen/Qwen2.5-1.5B-Instruct" \
  generator.inference_engine.backend=vllm \
  generator.inference_engine.num_engines="$NUM_ENGINES" \
  generator.sampling_params.max_generate_length=1024 \
  +generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs \
  +generator.inference_engine.engine_init_kwargs.return_sampling_mask=true  # expect: VLM202:3
