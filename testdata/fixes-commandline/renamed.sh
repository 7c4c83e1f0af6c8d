#!/bin/bash
# target-version: 0.13
# Flags vLLM 0.13 no longer has, replaced by the successors vLLM's deprecation text names.
vllm serve Qwen/Qwen3-VL-8B-Instruct \
  --disable-mm-preprocessor-cache \
  --enable-multimodal-encoder-data-parallel \
  --cuda-graph-sizes 8 16 32 \
  --port 8000
vllm serve Qwen/Qwen3-8B --cuda_graph_sizes=8 --max-num-seqs 8
# Named, never rewritten: --task (--runner or --convert, depending on the model).
vllm serve BAAI/bge-m3 --task embed
# The successor is already written: renaming would give it twice.
vllm serve Qwen/Qwen3-8B --cuda-graph-sizes 8 --cudagraph-capture-sizes 16
