#!/bin/bash
# target-version: 0.14
# Up to 0.15 vLLM's configs are pydantic dataclasses that check each field's type but ignore keys
# they do not have; CompilationConfig alone forbids them (ConfigDict(extra="forbid")).
vllm serve Qwen/Qwen3-8B --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "kv_both"}'
vllm serve Qwen/Qwen3-8B --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "both"}'  # expect: VLM303
vllm serve Qwen/Qwen3-8B --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "kv_both", "kv_conector_extra": {}}'
vllm serve Qwen/Qwen3-8B --structured-outputs-config '{"backend": "xgrammer"}'  # expect: VLM303
vllm serve Qwen/Qwen3-8B --structured-outputs-config '{"backend": "xgrammar"}'
vllm serve Qwen/Qwen3-8B --compilation-config '{"cudagraph_mode": "FULL", "levle": 3}'  # expect: VLM301
vllm serve Qwen/Qwen3-8B --compilation-config '{"cudagraph_mode": "FULL", "level": 3}'
# block_size is SkipValidation in CacheConfig, but argparse still offers only the Literal's members.
vllm serve Qwen/Qwen3-8B --block-size 24  # expect: VLM303
vllm serve Qwen/Qwen3-8B --block-size 32
vllm serve Qwen/Qwen3-8B --no-block-size  # expect: VLM301
