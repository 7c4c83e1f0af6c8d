#!/bin/bash
# target-version: 0.10
# vLLM 0.10's parser offers "model,worker" among the choices, but ObservabilityConfig is a pydantic
# dataclass: each item must be model, worker or all before __post_init__ could split the pair.
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces model,worker  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces worker,all  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces tracing  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces worker
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces all
