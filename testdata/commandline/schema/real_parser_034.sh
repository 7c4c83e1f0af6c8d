#!/bin/bash
# target-version: 0.34
# What vLLM 0.34's own parser and configs accept and reject.
# --enable-x / --disable-x pairs work both ways from 0.33 (EnableDisableAction); --no-x stays.
vllm serve Qwen/Qwen3-8B --enable-custom-all-reduce --enable-sliding-window --enable-cascade-attn
vllm serve Qwen/Qwen3-8B --enable-chunked-mm-input --enable-fastapi-docs --enable-uvicorn-access-log
vllm serve Qwen/Qwen3-8B --enable-nccl-for-dp-synchronization --enable-hybrid-kv-cache-manager
vllm serve Qwen/Qwen3-8B --disable-chunked-prefill --no-enable-prefix-caching --no-disable-custom-all-reduce
vllm serve Qwen/Qwen3-8B --enable-custom-all-reducer  # expect: VLM301
# -O spellings become --optimization-level before argparse sees them.
vllm serve Qwen/Qwen3-8B -O3
vllm serve Qwen/Qwen3-8B -O 3
vllm serve Qwen/Qwen3-8B -O=2 --max-model-len 4096
vllm serve Qwen/Qwen3-8B --optimization-level 2.0
# The config's OptimizationLevel parses the word: a level that is not a number fails at start-up.
vllm serve Qwen/Qwen3-8B --optimization-level O3  # expect: VLM303
vllm serve Qwen/Qwen3-8B -Ofast  # expect: VLM303
vllm serve Qwen/Qwen3-8B --optimization-level "$OPT_LEVEL"
# dtype is Literal[...] | torch.dtype: argparse gets choices.
vllm serve Qwen/Qwen3-8B --dtype hadf  # expect: VLM303
vllm serve Qwen/Qwen3-8B --dtype half
# The server's own options typed as Literal.
vllm serve Qwen/Qwen3-8B --uvicorn-log-level verbose  # expect: VLM303
vllm serve Qwen/Qwen3-8B --fingerprint-mode partial  # expect: VLM303
vllm serve Qwen/Qwen3-8B --tool-strict-level strict  # expect: VLM303
vllm serve Qwen/Qwen3-8B --anthropic-disabled-thinking-effort minimal  # expect: VLM303
vllm serve Qwen/Qwen3-8B --uvicorn-log-level debug --fingerprint-mode hash --tool-strict-level function
# The chat template's content format: a Literal alias the server imports through a star import.
vllm serve Qwen/Qwen3-8B --chat-template-content-format bogus  # expect: VLM303
vllm serve Qwen/Qwen3-8B --chat-template-content-format openai --anthropic-disabled-thinking-effort none
vllm serve Qwen/Qwen3-8B --chat-template-content-format "$CONTENT_FORMAT"
# Values argparse lets through but the config rejects at start-up.
vllm serve Qwen/Qwen3-8B --lora-dtype half --enable-lora  # expect: VLM303
vllm serve Qwen/Qwen3-8B --kv-cache-dtype foo  # expect: VLM303
vllm serve Qwen/Qwen3-8B --lora-dtype bfloat16 --enable-lora --kv-cache-dtype fp8_e5m2
# Bounds.
vllm serve Qwen/Qwen3-8B --seed 4294967296  # expect: VLM304
vllm serve Qwen/Qwen3-8B --seed 4294967295
# Keys of a config's JSON value.
vllm serve Qwen/Qwen3-8B --compilation-config '{"level": 3}'  # expect: VLM301
vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "ngram", "num_speculative_tokens": 2, "disable_by_batch_size": 1}'  # expect: VLM301
vllm serve Qwen/Qwen3-8B --compilation-config '{"mode": 3}' --speculative-config '{"method": "ngram", "num_speculative_tokens": 2, "prompt_lookup_max": 3}'
vllm serve Qwen/Qwen3-8B --compilation-config.cudagraph_mode FULL
# --logging-config takes a LoggingConfig (0.31+): its keys and their closed choices.
vllm serve Qwen/Qwen3-8B --logging-config '{"log_level": "verbose"}'  # expect: VLM303
vllm serve Qwen/Qwen3-8B --logging-config '{"level": "DEBUG"}'  # expect: VLM301
vllm serve Qwen/Qwen3-8B --logging-config '{"log_level": "DEBUG", "formatter": "json"}'
vllm serve Qwen/Qwen3-8B --no-logging-config  # expect: VLM301
# Not vLLM: SGLang's launcher takes -O and its own dtype names.
python -m sglang.launch_server --model-path Qwen/Qwen3-8B --dtype hadf --enable-custom-all-reduce
