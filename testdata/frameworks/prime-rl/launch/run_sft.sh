#!/usr/bin/env bash
# target-version: 0.33
# prime-rl's `sft` entry point starts the inference server of its [inference]
# table for online evals: its engine is checked like `rl`'s.
set -euo pipefail

uv run sft @ configs/sft.toml \
  --inference.enable-return-sampling-mask \
  --inference.vllm.logprobs-mode raw_logprobs  # expect: VLM105:3

# prime-rl's default logprobs mode with replay: clean.
uv run sft @ configs/sft.toml \
  --inference.enable-return-sampling-mask

# Another program whose name starts the same way: not prime-rl.
uv run sftrain @ configs/sft.toml \
  --inference.enable-return-sampling-mask \
  --inference.vllm.logprobs-mode raw_logprobs
