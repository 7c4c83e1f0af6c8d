#!/bin/bash
# target-version: 0.30
# vLLM 0.30 adds the comma-joined pairs ("model,worker") to --collect-detailed-traces' choices, so
# argparse takes them; ObservabilityConfig checks each item against Literal["model", "worker", "all"]
# before its field_validator splits the string: the engine does not start.
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces model,worker  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces all,model  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces scheduler  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces None  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces all
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces worker
vllm serve meta-llama/Llama-3.1-8B-Instruct --otlp-traces-endpoint http://otel-collector:4317 --collect-detailed-traces "$TRACE_MODULES"
