#!/bin/bash
# target-version: 0.33
# Entry scripts of the framework's own tree that the hand-kept list does not name: the
# asynchronous VLM script loads a MasterConfig and its setup builds the vLLM generation.
PROJECT_ROOT=$(realpath "$(dirname "$0")")
uv run examples/run_async_vlm.py \
    ++policy.generation.vllm_kwargs.return_sampling_mask=true \
    ++policy.generation.vllm_cfg.logprobs_mode=raw_logprobs  # expect: VLM105
python3 $PROJECT_ROOT/examples/run_async_vlm.py \
    ++policy.generation.vllm_kwargs.return_sampling_mask=true \
    ++policy.generation.vllm_cfg.logprobs_mode=raw_logprobs  # expect: VLM105

# Fine-tuning over the same loader builds no engine: the words mean nothing to it.
uv run examples/run_sft_vlm.py \
    ++policy.generation.vllm_cfg.logprobs_mode=raw_logprobs \
    ++policy.generation.vllm_kwargs.return_sampling_mask=true
# A script the tree does not hold is not read as one.
uv run examples/run_async_text.py \
    ++policy.generation.vllm_cfg.logprobs_mode=raw_logprobs \
    ++policy.generation.vllm_kwargs.return_sampling_mask=true
