#!/bin/bash
# target-version: 0.34
# Every flag of `vllm serve` against vLLM 0.34's schema.
vllm serve Qwen/Qwen3-8B --max-model-length 4096  # expect: VLM301
vllm serve Qwen/Qwen3-8B --enable-reasoning --reasoning-parser deepseek_r1  # expect: VLM301
vllm serve Qwen/Qwen3-8B --task generate  # expect: VLM301
vllm serve Qwen/Qwen3-8B --mm-processor-cache-type lfu  # expect: VLM303
vllm serve Qwen/Qwen3-8B --logprobs-mode=raw  # expect: VLM303
vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 1.2  # expect: VLM304
vllm serve Qwen/Qwen3-8B -tp 0  # expect: VLM304
# Clean: long and short forms, --no-/--disable- forms, underscores, abbreviations, dotted JSON options.
vllm serve Qwen/Qwen3-8B --max-model-len 4096 -tp 2 --gpu-memory-utilization 0.95 --port 8000 --host 0.0.0.0
vllm serve Qwen/Qwen3-8B --no-enable-prefix-caching --disable-log-requests --enable-log-requests --disable-log-stats
vllm serve Qwen/Qwen3-8B --max_model_len 4096 --kv_cache_dtype fp8 --max-model 4096 --speculative-config.method mtp
vllm serve Qwen/Qwen3-8B --quantization my_plugin_quant --tokenizer-mode custom --served-model-name a b c
# The last value wins for a bound; an unknown value is silent.
vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 1.2 --gpu-memory-utilization 0.9
vllm serve Qwen/Qwen3-8B --gpu-memory-utilization "$UTIL" --mm-processor-cache-type "$CACHE" $EXTRA_ARGS
# Not vLLM: SGLang's launcher has its own flags.
python -m sglang.launch_server --model-path Qwen/Qwen3-8B --mem-fraction-static 0.9 --max-model-length 4096
