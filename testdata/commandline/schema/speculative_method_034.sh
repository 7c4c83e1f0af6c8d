#!/bin/bash
# target-version: 0.34
# From vLLM 0.34 the speculative method set is open: plugins register methods
# (register_speculative_method), which vLLM checks only when the engine starts.
vllm serve lmsys/vicuna-7b-v1.3 --speculative-config '{"method": "medusa", "model": "FasterDecoding/medusa-vicuna-7b-v1.3", "num_speculative_tokens": 3}'
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "my_plugin_drafter", "num_speculative_tokens": 3}'
# The sampling settings are still closed.
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "rejection_sample_method": "strict"}'  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "rejection_sample_method": "block"}'
