#!/bin/bash
# target-version: 0.33
# SpeculativeConfig.method is a closed Literal in vLLM 0.33: pydantic rejects other methods at start-up.
vllm serve lmsys/vicuna-7b-v1.3 --speculative-config '{"method": "medusa", "model": "FasterDecoding/medusa-vicuna-7b-v1.3", "num_speculative_tokens": 3}'  # expect: VLM303
vllm serve lmsys/vicuna-7b-v1.3 --speculative-config.method mlp_speculator --speculative-config.num_speculative_tokens 3  # expect: VLM303
vllm serve lmsys/vicuna-7b-v1.3 -sc '{"method": "ngram", "num_speculative_tokens": 3, "draft_sample_method": "sampled"}'  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "rejection_sample_method": "synthetic", "synthetic_acceptance_length": 2.5}'
vllm serve deepseek-ai/DeepSeek-V3 --speculative-config.method deepseek_mtp --speculative-config.num_speculative_tokens 1
# A speculators-format checkpoint sets the method itself; a model from elsewhere may be one.
vllm serve RedHatAI/Llama-3.1-8B-Instruct-speculator.eagle3 --speculative-config '{"method": "medusa"}'
vllm serve "$MODEL" --speculative-config '{"method": "medusa", "num_speculative_tokens": 3}'
# The method comes from elsewhere.
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "{\"method\": \"$SPEC_METHOD\", \"num_speculative_tokens\": 3}"
