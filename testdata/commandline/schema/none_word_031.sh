#!/bin/bash
# target-version: 0.31
# vLLM 0.31 appends None itself to the choices: the word None is accepted (the field keeps its default).
vllm serve meta-llama/Llama-3.1-8B-Instruct --safetensors-load-strategy None
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config.num_speculative_tokens 3 --spec-method None
vllm serve Qwen/Qwen2.5-VL-7B-Instruct --mm-encoder-attn-dtype None
vllm serve meta-llama/Llama-3.1-8B-Instruct --safetensors-load-strategy lazy
vllm serve Qwen/Qwen2.5-VL-7B-Instruct --mm-encoder-attn-dtype fp8
# Not an optional Literal with get_kwargs' choices: the word is a value like any other.
vllm serve meta-llama/Llama-3.1-8B-Instruct --quantization None
vllm serve meta-llama/Llama-3.1-8B-Instruct --served-model-name None
vllm serve meta-llama/Llama-3.1-8B-Instruct --safetensors-load-strategy "$LOAD_STRATEGY"
