#!/bin/bash
# target-version: 0.12
# The same deprecated flags against vLLM 0.12, which still accepts them: nothing to report.
vllm serve Qwen/Qwen3-VL-8B-Instruct --disable-mm-preprocessor-cache
vllm serve Qwen/Qwen3-VL-8B-Instruct -tp 4 --enable-multimodal-encoder-data-parallel
vllm serve Qwen/Qwen3-8B --max-num-seqs 64 --cuda-graph-sizes 8 16 32
vllm serve BAAI/bge-m3 --task embed
