#!/usr/bin/env bash
# A launch whose flags explain must read as argparse does.
set -euo pipefail
MAX_LEN=${MAX_LEN:-32768}
vllm serve Qwen/Qwen3-4B \
  --disable-log-stats \
  --disable-log-requests \
  --no-enable-prefix-caching \
  --enable-prefix-caching \
  --trust-remote-code \
  --max-model-len "$MAX_LEN" \
  --port 8000
