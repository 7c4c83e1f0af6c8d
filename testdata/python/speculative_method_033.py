# target-version: 0.33
"""Closed choices of keys inside speculative_config in vLLM 0.33: SpeculativeConfig.method is a
Literal there (medusa and mlp_speculator were dropped), so pydantic rejects any other method."""
import os

from my_serving import DraftServer  # another project's class: not vLLM's engine
from vllm import LLM, AsyncEngineArgs, EngineArgs

TARGET = "lmsys/vicuna-7b-v1.3"

llm = LLM(
    TARGET,
    speculative_config={
        "method": "medusa",  # expect: VLM303:9
        "model": "FasterDecoding/medusa-vicuna-7b-v1.3",
        "num_speculative_tokens": 3,
    },
)
spec = {"model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3, "method": "eagle_3"}  # expect: VLM303
engine = AsyncEngineArgs(model="meta-llama/Llama-3.1-8B-Instruct", speculative_config=spec)
sampler = EngineArgs(
    model="meta-llama/Llama-3.1-8B-Instruct",
    speculative_config={"method": "ngram", "num_speculative_tokens": 4, "rejection_sample_method": "strict"},  # expect: VLM303
)


def clean(method, overrides):
    # Methods vLLM 0.33 has, MTP names it normalises to mtp, sampling settings it has.
    LLM(TARGET, speculative_config={"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3})
    LLM("deepseek-ai/DeepSeek-V3", speculative_config={"method": "deepseek_mtp", "num_speculative_tokens": 1})
    LLM(TARGET, speculative_config={"method": "ngram", "prompt_lookup_max": 4, "num_speculative_tokens": 3, "draft_sample_method": "probabilistic"})
    # The method comes from elsewhere: unknown.
    LLM(TARGET, speculative_config={"method": method, "num_speculative_tokens": 3})
    LLM(TARGET, speculative_config={"method": os.environ.get("SPEC_METHOD", "ngram"), "num_speculative_tokens": 3})
    LLM(TARGET, speculative_config={**overrides, "num_speculative_tokens": 3})
    # A speculators-format checkpoint as the model sets the method itself; an unknown model may be one.
    LLM("RedHatAI/Llama-3.1-8B-Instruct-speculator.eagle3", speculative_config={"method": "medusa"})
    LLM(os.environ["MODEL"], speculative_config={"method": "medusa", "num_speculative_tokens": 3})
    # Not a method name's type: another check's business.
    LLM(TARGET, speculative_config={"method": None, "model": "ngram", "num_speculative_tokens": 3})
    # Another project's server with a setting of the same name.
    DraftServer(speculative_config={"method": "medusa"})
