#!/bin/bash
# target-version: 0.10
# vLLM 0.10's ObservabilityConfig is a plain dataclass that splits "model,worker" itself.
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces model,worker
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces worker,all
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces tracing  # expect: VLM303
