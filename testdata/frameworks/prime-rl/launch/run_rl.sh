#!/usr/bin/env bash
# target-version: 0.33
# prime-rl launches: `@` configs, dotted kebab-case overrides. The first turns
# truncated sampling on from the command line and keeps raw logprobs; the second
# evaluates greedily against the capturing server; the third is clean.
set -euo pipefail

uv run rl @ configs/base.toml \
  --orchestrator.train.sampling.top-p 0.95 \
  --inference.vllm.logprobs-mode raw_logprobs  # expect: VLM105:3

uv run rl @ configs/base.toml \
  --orchestrator.train.sampling.top-k 64 \
  --orchestrator.eval.sampling.temperature 0  # expect: VLM201:3

uv run rl @ configs/base.toml \
  --orchestrator.train.sampling.top-k 64 \
  --orchestrator.eval.sampling.temperature 0.7 \
  --orchestrator.eval.sampling.top-k 20
