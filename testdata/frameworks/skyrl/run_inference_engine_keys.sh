#!/usr/bin/env bash
# target-version: 0.34
# SkyRL sets its inference_engine keys on the server's parsed arguments (model_dtype as dtype).
set -x

uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  trainer.policy.model.path=Qwen/Qwen3-4B \
  trainer.placement.colocate_all=true \
  generator.inference_engine.num_engines=2 \
  generator.inference_engine.tensor_parallel_size=4 \
  generator.inference_engine.model_dtype=bf16 `# expect: VLM303:3` \
  generator.inference_engine.gpu_memory_utilization=1.1 `# expect: VLM304:3` \
  generator.inference_engine.max_num_seqs=512 \
  trainer.epochs=20

# engine_init_kwargs come last and win; a parallel size below 1 fails in SkyRL's placement first.
uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  trainer.policy.model.path=Qwen/Qwen3-4B \
  generator.inference_engine.tensor_parallel_size=0 \
  generator.inference_engine.gpu_memory_utilization=1.1 \
  +generator.inference_engine.engine_init_kwargs.gpu_memory_utilization=0.7 \
  generator.inference_engine.model_dtype=float16 \
  trainer.epochs=20
