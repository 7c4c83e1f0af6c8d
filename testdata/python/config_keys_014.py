# target-version: 0.14
"""vLLM 0.14's LLM builds KVTransferConfig and StructuredOutputsConfig from dicts; they are pydantic
dataclasses that check each field's type but ignore keys they do not have."""
from vllm import LLM

PREFILL = {"kv_connector": "NixlConnector", "kv_role": "prefill"}  # expect: VLM303

prefill = LLM("Qwen/Qwen3-8B", kv_transfer_config=PREFILL)
decode = LLM("Qwen/Qwen3-8B", kv_transfer_config={"kv_connector": "NixlConnector", "kv_role": "kv_both"})
tolerant = LLM(
    "Qwen/Qwen3-8B",
    kv_transfer_config={"kv_connector": "NixlConnector", "kv_role": "kv_both", "kv_conector_extra": {}},
)
guided = LLM("Qwen/Qwen3-8B", structured_outputs_config={"backend": "outlines"})
misspelt = LLM("Qwen/Qwen3-8B", structured_outputs_config={"backend": "xgrammer"})  # expect: VLM303
