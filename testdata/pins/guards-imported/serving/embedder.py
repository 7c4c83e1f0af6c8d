from vllm import LLM

from .compat import VLLM_GE_0_13


def build(model: str) -> LLM:
    if VLLM_GE_0_13:
        # The arm 0.13 runs: the pooling runner; task is gone.
        legacy = LLM(model=model, task="embed")  # expect: VLM301
        return LLM(model=model, runner="pooling", convert="embed")
    # Before 0.13 only: no release the pin admits runs this arm.
    return LLM(model=model, task="embed")
