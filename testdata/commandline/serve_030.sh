#!/bin/sh
# target-version: 0.30
# vLLM 0.30: any speculative configuration blocks replay; custom logits processors
# and the ngram method make vLLM fall back to Model Runner V1; no --disable-* flags yet.

vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --speculative-config '{"method": "eagle3", "model": "org/eagle3-head", "num_speculative_tokens": 3}'  # expect: VLM102:84
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --spec-method ngram --spec-tokens 3  # expect: VLM101:26, VLM102:84
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --logits-processors my_pkg.lp:NoRepeat  # expect: VLM101:26, VLM104:84
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --enable-batch-sharded-sampling  # expect: VLM106:84
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --speculative-config None

# --disable-trace-replay does not exist before 0.33: vLLM rejects the command line
# (VLM301), so whether trace replay is on is not known.
VLLM_USE_V2_MODEL_RUNNER=0 vllm serve Qwen/Qwen3-8B --enable-trace-replay --disable-trace-replay  # expect: VLM301:75
VLLM_USE_V2_MODEL_RUNNER=0 vllm serve Qwen/Qwen3-8B --enable-trace-replay --no-enable-trace-replay
VLLM_USE_V2_MODEL_RUNNER=0 vllm serve Qwen/Qwen3-8B --enable-trace-replay  # expect: VLM107:28
