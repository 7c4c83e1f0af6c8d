#!/bin/bash
vllm serve Qwen/Qwen3-8B --config named.yaml --logprobs-mode processed_logprobs
