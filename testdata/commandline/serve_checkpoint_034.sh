#!/usr/bin/env bash
# target-version: 0.34
# Start-up checks that read the model's config, on vllm serve command lines.
set -euo pipefail

vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 3  # expect: VLM407:45
vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 4 --max-model-len 131072
vllm serve Qwen/Qwen3-8B --max-model-len 131072  # expect: VLM407:26
VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve Qwen/Qwen3-8B --max-model-len 131072
vllm serve mistralai/Mistral-7B-Instruct-v0.3 -tp 2 --enable-expert-parallel  # expect: VLM407:53
vllm serve Qwen/Qwen3-30B-A3B -tp 2 --enable-expert-parallel

# A model vllm-lint does not know, and SGLang's server with the same values.
vllm serve my-org/llama-finetune --tensor-parallel-size 3
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 3
vllm serve Qwen/Qwen3-8B --max-model-len 128K  # expect: VLM407:26
vllm serve Qwen/Qwen3-8B --max-model-len 40k
