#!/usr/bin/env bash
# target-version: 0.34
# Keys of config-valued options on vllm serve command lines, nested configs included, and vllm
# serve's own checks of its parsed options.
set -euo pipefail
MODEL=MiniMaxAI/MiniMax-M2

vllm serve "$MODEL" -tp 4 --compilation-config '{"pass_config": {"fuse_allreduce_rms": false}}'
vllm serve "$MODEL" -tp 4 --compilation-config '{"mode":3,"pass_config":{"fuse_minimax_qk_norm":true}}'  # expect: VLM301
vllm serve "$MODEL" --speculative-config '{"method": "ngram", "num-speculative-tokens": 3, "prompt_lookup_max": 4}'
vllm serve "$MODEL" --watchdog-config '{"timeout": 0}'  # expect: VLM304
vllm serve "$MODEL" --watchdog-config.timeout 120 --watchdog-config.check_interval 10
vllm serve "$MODEL" --eplb-config '{"num_redundant_experts": -1}'  # expect: VLM304

# vllm serve checks its own options before the engine starts.
vllm serve "$MODEL" --enable-auto-tool-choice --tool-call-parser minimax_m2 --reasoning-parser minimax_m2
vllm serve "$MODEL" --enable-auto-tool-choice --reasoning-parser minimax_m2  # expect: VLM406
vllm serve "$MODEL" --sse-keep-alive-interval -5  # expect: VLM406

# --lora-modules: name=path, or a JSON object with LoRAModulePath's fields.
vllm serve "$MODEL" --enable-lora --lora-modules sql-lora=/adapters/sql '{"name": "chat", "path": "/adapters/chat", "base_model_name": "minimax"}'
vllm serve "$MODEL" --enable-lora --lora-modules '{"name": "sql-lora"}'  # expect: VLM305
vllm serve "$MODEL" --enable-lora --lora-modules '{"name": "sql-lora", "path": "/adapters/sql"'  # expect: VLM305
vllm serve "$MODEL" --enable-lora --lora-modules sql-lora  # expect: VLM305

# Arguments vLLM checks against each other: the dotted form is the same JSON value.
vllm serve "$MODEL" --attention-backend FLASHINFER --attention-config.backend FLASH_ATTN  # expect: VLM402
vllm serve "$MODEL" --attention-config.backend FLASH_ATTN --attention-config.flash_attn_version 3
vllm serve "$MODEL" --per-request-spec-decode-metrics summary  # expect: VLM406
vllm serve "$MODEL" --per-request-spec-decode-metrics summary --spec-method ngram --spec-tokens 3
vllm serve "$MODEL" -cc '{"custom_ops": ["+rms_norm", "-rms_norm"]}'  # expect: VLM406

# Numbers vLLM reads with its human-readable parser.
vllm serve "$MODEL" --max-model-len 32k --max-num-batched-tokens 8K --kv-cache-memory-bytes 1.5g
vllm serve "$MODEL" --max-model-len auto
vllm serve "$MODEL" --max-model-len 32K-tokens  # expect: VLM305
vllm serve "$MODEL" --max-num-batched-tokens 1.5K  # expect: VLM305

# An option that takes a value, given none: argparse stops before anything starts.
vllm serve Qwen/Qwen3-8B --max-model-len --port 8000  # expect: VLM305:26
vllm serve Qwen/Qwen3-8B --per-request-spec-decode-metrics  # expect: VLM305:26
vllm serve Qwen/Qwen3-8B --max-model-len "$MAX_LEN" --enable-prefix-caching --port 8000

# An argument replaced by a field of another argument's JSON value: the successor is named.
vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 2 --enable-expert-parallel --enable-eplb --num-redundant-experts 32  # expect: VLM301
vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 2 --enable-expert-parallel --enable-eplb --eplb-config '{"num_redundant_experts": 32}'
