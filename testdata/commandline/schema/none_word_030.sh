#!/bin/bash
# target-version: 0.30
# vLLM 0.30: optional_type turns the word None into Python's None, but get_kwargs appended the
# string "None" to the choices, so argparse stops: "invalid choice: None".
vllm serve meta-llama/Llama-3.1-8B-Instruct --safetensors-load-strategy None  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config.num_speculative_tokens 3 --spec-method None  # expect: VLM303
vllm serve Qwen/Qwen2.5-VL-7B-Instruct --mm-encoder-attn-dtype None  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --safetensors-load-strategy lazy
vllm serve Qwen/Qwen2.5-VL-7B-Instruct --mm-encoder-attn-dtype fp8
# Not an optional Literal with get_kwargs' choices: the word is a value like any other.
vllm serve meta-llama/Llama-3.1-8B-Instruct --quantization None
vllm serve meta-llama/Llama-3.1-8B-Instruct --served-model-name None
vllm serve meta-llama/Llama-3.1-8B-Instruct --safetensors-load-strategy "$LOAD_STRATEGY"
