"""Import forms, aliases, and classes that are not vLLM's."""
import vllm as v
from vllm import LLM as VLLMEngine
from vllm.entrypoints.llm import LLM as EntrypointLLM

from llama_index.llms import LLM  # not vLLM's


class Agent:
    def __init__(self):
        # LlamaIndex's LLM: same name, same keyword, not an engine.
        self.llm = LLM(model="gpt-4o", return_sampling_mask=True)


aliased = VLLMEngine("Qwen/Qwen3-4B", return_sampling_mask=True)  # expect: VLM105
module_alias = v.LLM("Qwen/Qwen3-4B", return_sampling_mask=True)  # expect: VLM105
entrypoint = EntrypointLLM("Qwen/Qwen3-4B", return_sampling_mask=True)  # expect: VLM105


def sglang_payload(session, prompt):
    # SGLang's request field of the same name: a dict posted over HTTP.
    payload = {"text": prompt, "sampling_params": {"temperature": 0.0}, "return_sampling_mask": True}
    return session.post("http://localhost:30000/generate", json=payload)


class LocalEngine:
    """A project class named LLM defined here."""


def local_class():
    LLM = LocalEngine
    return LLM(return_sampling_mask=True)


def positional_star(args):
    # LLM(model, *, ...): *args can only be the model.
    return VLLMEngine(*args, return_sampling_mask=True, logprobs_mode="raw_logprobs")  # expect: VLM105
