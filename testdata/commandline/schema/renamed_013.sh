#!/bin/bash
# target-version: 0.13
# Flags vLLM 0.13 no longer has; vLLM's own deprecation text names their successors.
vllm serve Qwen/Qwen3-VL-8B-Instruct --disable-mm-preprocessor-cache  # expect: VLM301:38
vllm serve Qwen/Qwen3-VL-8B-Instruct -tp 4 --enable-multimodal-encoder-data-parallel  # expect: VLM301:44
vllm serve Qwen/Qwen3-8B --max-num-seqs 64 --cuda-graph-sizes 8 16 32  # expect: VLM301:44
vllm serve BAAI/bge-m3 --task embed  # expect: VLM301:24
vllm serve Qwen/Qwen3-8B --num-redundant-experts 32  # expect: VLM301:26

# The successors themselves, and --disable-log-requests, which 0.13 still has.
vllm serve Qwen/Qwen3-VL-8B-Instruct --mm-processor-cache-gb 0 --mm-encoder-tp-mode data
vllm serve Qwen/Qwen3-8B --cudagraph-capture-sizes 8 16 32 --disable-log-requests
vllm serve BAAI/bge-m3 --runner pooling --convert embed
