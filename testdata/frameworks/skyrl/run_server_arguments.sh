#!/usr/bin/env bash
# target-version: 0.33
# engine_init_kwargs are set on the server's parsed arguments: the server's own options
# (chat_template, enable_log_requests) are valid there; a misspelt engine argument is not.
set -ex

CHAT_TEMPLATE_PATH=${CHAT_TEMPLATE_PATH:-templates/qwen3_no_think.jinja}

uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \
  trainer.policy.model.path=Qwen/Qwen3-8B \
  generator.inference_engine.num_engines=4 \
  generator.inference_engine.tensor_parallel_size=2 \
  generator.inference_engine.engine_init_kwargs.chat_template=$CHAT_TEMPLATE_PATH \
  generator.inference_engine.engine_init_kwargs.enable_log_requests=false \
  generator.inference_engine.engine_init_kwargs.max_model_len=32768 \
  +generator.inference_engine.engine_init_kwargs.max_num_batched_token=16384 `# expect: VLM301:3` \
  trainer.epochs=3
