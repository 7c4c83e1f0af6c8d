#!/bin/bash
# target-version: 0.10
# vLLM 0.10 lists some choices from an Enum ([f.value for f in LogprobsMode]).
vllm serve Qwen/Qwen3-8B --logprobs-mode processed_logprob  # expect: VLM303
vllm serve Qwen/Qwen3-8B --logprobs-mode processed_logprobs
vllm serve Qwen/Qwen3-8B --model-impl hf  # expect: VLM303
vllm serve Qwen/Qwen3-8B --model-impl transformers
# QuantizationMethods is Any at run time in 0.10's vllm/config (its Literal is for type checkers).
vllm serve Qwen/Qwen3-8B-FP8 --quantization fp8
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "eagle4", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'  # expect: VLM303
vllm serve Qwen/Qwen3-8B --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "producer"}'  # expect: VLM303
vllm serve Qwen/Qwen3-8B --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "kv_both", "kv_conector_extra": {}}'
