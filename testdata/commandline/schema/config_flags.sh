#!/bin/bash
# target-version: 0.34
# The keys of a --config file are flags of `vllm serve` too.
vllm serve Qwen/Qwen3-8B --config old-flags-config.yaml  # expect: VLM301
