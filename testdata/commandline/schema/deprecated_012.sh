#!/bin/bash
# target-version: 0.12
# vLLM 0.12 removed the guided-decoding options: the structured-outputs config replaces them.
vllm serve Qwen/Qwen2.5-7B-Instruct --guided-decoding-backend xgrammar  # expect: VLM301
vllm serve Qwen/Qwen2.5-7B-Instruct --structured-outputs-config '{"backend": "xgrammar"}'
