#!/usr/bin/env bash
# target-version: 0.34
# Start-up checks between arguments on vllm serve command lines.
set -euo pipefail
MODEL=Qwen/Qwen3-30B-A3B

vllm serve "$MODEL" -tp 2 --enable-elastic-ep  # expect: VLM401:27
vllm serve "$MODEL" -tp 2 --enable-elastic-ep --enable-eplb --enable-expert-parallel

# vllm serve accepts data parallelism (the LLM class does not): only EPLB is reported.
vllm serve Qwen/Qwen3-30B-A3B --data-parallel-size 2 --enable-eplb  # expect: VLM401
vllm serve Qwen/Qwen3-30B-A3B --data-parallel-size 2 --enable-eplb --enable-expert-parallel

vllm serve "$MODEL" --checkpoint-prepare-on-startup  # expect: VLM404:21
vllm serve "$MODEL" --checkpoint-prepare-on-startup --enable-sleep-mode
vllm serve "$MODEL" --checkpoint-prepare-on-startup --enable-sleep-mode --no-enable-sleep-mode  # expect: VLM404

# An external data-parallel rank needs more than one rank: $VLLM_DP_SIZE when the size is 1.
vllm serve "$MODEL" --data-parallel-rank 1  # expect: VLM401:21
vllm serve "$MODEL" --data-parallel-external-lb --data-parallel-rank 0  # expect: VLM401:21
VLLM_DP_SIZE=2 vllm serve "$MODEL" --data-parallel-external-lb --data-parallel-rank 0
vllm serve Qwen/Qwen3-30B-A3B --data-parallel-size 2 --data-parallel-external-lb --data-parallel-rank 0

vllm serve "$MODEL" --data-parallel-size-local 2  # expect: VLM401:21
vllm serve "$MODEL" --data-parallel-size 2 --data-parallel-size-local 2

vllm serve "$MODEL" -tp 2 -dcp 4  # expect: VLM401:21
vllm serve deepseek-ai/DeepSeek-V2-Lite -tp 4 -dcp 2
python -m sglang.launch_server --model-path "$MODEL" --tp 2 --dp-size 1 --dcp 4

# Anything an expansion may add makes the rest unknown.
vllm serve "$MODEL" --checkpoint-prepare-on-startup $EXTRA_ARGS

# Other servers are not vLLM.
python -m sglang.launch_server --model-path "$MODEL" --enable-eplb --tp 2
