#!/bin/bash
# target-version: 0.11
# vLLM 0.11 still registers the guided-decoding options (deprecated, removed in 0.12):
# argparse accepts them and vLLM copies them into the structured-outputs config.
vllm serve Qwen/Qwen2.5-7B-Instruct --guided-decoding-backend xgrammar
vllm serve Qwen/Qwen2.5-7B-Instruct --guided-decoding-backend=guidance --guided-decoding-disable-fallback true
vllm serve Qwen/Qwen2.5-7B-Instruct --guided-decoding-disable-any-whitespace true --guided-decoding-disable-additional-properties true
# A near miss of one of them is still unknown.
vllm serve Qwen/Qwen2.5-7B-Instruct --guided-decoding-backends xgrammar  # expect: VLM301
