#!/bin/bash
# target-version: 0.31
# vLLM 0.31 no longer adds the comma-joined pairs: argparse rejects them. The word None becomes
# [None], which ObservabilityConfig's Literal["model", "worker", "all"] items reject at start-up.
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces model,worker  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces None  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces model
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces all
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces "$TRACE_MODULES"
