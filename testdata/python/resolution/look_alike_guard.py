"""A guard that imports another library's LLM class: never a vLLM engine."""
from agents_sdk.utils import is_vllm_available

if is_vllm_available():
    from vllm import SamplingParams
else:
    from agents_sdk.llm import LLM

if not is_vllm_available():
    from llama_index.llms import LLM


def build(model_id):
    # Only the non-vLLM branches bind LLM.
    return LLM(model=model_id, return_sampling_mask=True)
