#!/usr/bin/env bash
# target-version: 0.33
# Launches of the in-house trainer's Hydra entry points, found from the pack's
# config-names: a module that names acme_ppo, or whose own config composes it.
set -euo pipefail

# acme.train runs the training loop: the engine and the requests are checked.
python -m acme.train \
    rollout.logprobs=processed_logprobs \
    +rollout.vllm.engine_args.return_sampling_mask=true  # expect: VLM202

python -m acme.train \
    rollout.logprobs=processed_logprobs \
    rollout.sampling.top_k=64 \
    +rollout.vllm.engine_args.return_sampling_mask=true

# acme.distill composes acme_ppo in its own config (top_k 32); only its engine is checked.
python -m acme.distill \
    +rollout.vllm.engine_args.return_sampling_mask=true  # expect: VLM105

python -m acme.distill \
    rollout.logprobs=processed_logprobs \
    +rollout.vllm.engine_args.return_sampling_mask=true

# A module with a config of its own that composes nothing of the trainer's: not a launch.
python -m acme.tokenize_data \
    +rollout.vllm.engine_args.return_sampling_mask=true
