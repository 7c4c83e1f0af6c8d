#!/bin/bash
# target-version: 0.33
# --config files are read relative to this script and merged as vLLM does:
# the command line wins over the file; `key: false` in the file means "default".
cd "$(dirname "$0")"

# replay.yaml turns the mask on and sets logits processors, without a logprobs mode.
vllm serve Qwen/Qwen3-8B --config configs/replay.yaml  # expect: VLM104:1, VLM105:1
vllm serve Qwen/Qwen3-8B --config configs/replay.yaml --logprobs-mode processed_logprobs  # expect: VLM104:1
vllm serve Qwen/Qwen3-8B --config configs/replay.yaml --no-return-sampling-mask
vllm serve Qwen/Qwen3-8B --logprobs-mode raw_logprobs --config configs/replay.yaml --logits-processors a:B  # expect: VLM104:84, VLM105:26

# speculative.yaml: nested speculative-config with adaptive verification.
vllm serve Qwen/Qwen3-8B --config configs/speculative.yaml --return-sampling-mask --logprobs-mode processed_logprobs  # expect: VLM102:60

# off.yaml says `return-sampling-mask: false`: dropped by vllm serve, so the default (off) holds.
vllm serve Qwen/Qwen3-8B --config configs/off.yaml
vllm serve Qwen/Qwen3-8B --config configs/off.yaml --return-sampling-mask

# The model may come from the file.
vllm serve --config configs/with-model.yaml --return-sampling-mask  # expect: VLM103:45, VLM105:45

# A file that is not there, or whose name is not known: its keys are unknown.
vllm serve Qwen/Qwen3-8B --config configs/missing.yaml --return-sampling-mask
vllm serve Qwen/Qwen3-8B --config "$CONFIG" --return-sampling-mask
vllm serve Qwen/Qwen3-8B --config /etc/vllm/replay.yaml --return-sampling-mask
