#!/bin/bash
# target-version: 0.34
# vLLM 0.34 removes "passthrough" from --all2all-backend's choices (the kernel config sets it from
# --moe-backend): argparse rejects it and any other name outside ParallelConfig's Literal.
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --enable-expert-parallel --all2all-backend passthrough  # expect: VLM303
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --enable-expert-parallel --all2all-backend deepep  # expect: VLM303
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --enable-expert-parallel --all2all-backend deepep_low_latency
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --enable-expert-parallel --all2all-backend allgather_reducescatter
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --enable-expert-parallel --all2all-backend "$A2A_BACKEND"
