#!/usr/bin/env bash
# target-version: 0.33
# Comments may stand inside array literals and command substitutions, and
# whatever they hold (an apostrophe, a parenthesis) is not shell syntax.
set -euo pipefail

SERVER_ARGS=(
  --tensor-parallel-size 2
  # the router's health check needs a fixed port (see deploy/README)
  --port 8000
  --max-model-len 16384  # don't go higher: KV cache
)
# The array is expanded to the words assigned above; no comment in it is a flag.
vllm serve Qwen/Qwen3-8B "${SERVER_ARGS[@]}" --return-sampling-mask  # expect: VLM105

NUM_GPUS=$(nvidia-smi -L | wc -l  # one line per device, that's all
)
HOST_IP=$( hostname -I | awk '{print $1}' )

vllm serve Qwen/Qwen3-8B \
  --host "$HOST_IP" \
  --return-sampling-mask \
  --logprobs-mode processed_logprobs \
  `# batch-sharded sampling can't forward masks` \
  --enable-batch-sharded-sampling  # expect: VLM106:3

# A '#' inside a word, a parameter expansion or arithmetic is not a comment.
ARR=(a#b ${NUM_GPUS#0} $(( 16#ff )))
vllm serve Qwen/Qwen3-8B --return-sampling-mask  # expect: VLM105:26
