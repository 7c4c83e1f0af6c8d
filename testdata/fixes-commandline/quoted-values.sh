#!/bin/bash
# target-version: 0.33
# A quoted variable as an option's value does not stop the fix.
vllm serve "$MODEL" --port "$PORT" --return-sampling-mask
vllm serve "$MODEL" \
  --host "$HOST" \
  --return-sampling-mask \
  --enable-batch-sharded-sampling \
  --max-model-len "$MAX_LEN"
