"""Guarded imports: vLLM imported only when it is available, in TYPE_CHECKING pairs, or inside functions."""
from typing import TYPE_CHECKING

from transformers.utils import is_torch_available

from trainer_utils.import_utils import is_vllm_available

if is_vllm_available():
    from vllm import LLM, SamplingParams

if TYPE_CHECKING:
    from vllm import LLM as TypedLLM
else:
    TypedLLM = None  # at run time the name is a placeholder, never a vLLM engine

if is_torch_available():
    import torch


class RolloutGenerator:
    def __init__(self, model_id, gpu_memory_utilization=0.9):
        self.llm = LLM(
            model=model_id,
            gpu_memory_utilization=gpu_memory_utilization,
            return_sampling_mask=True,
            logprobs_mode="raw_logprobs",  # expect: VLM105
        )
        self.sampling_params = SamplingParams(temperature=1.0, top_k=50, max_tokens=256)


def placeholder_is_not_an_engine(model_id):
    return TypedLLM(model_id, return_sampling_mask=True)


def import_inside_function(model_id):
    from vllm import LLM as VLLMEngine

    return VLLMEngine(model_id, return_sampling_mask=True)  # expect: VLM105


class Worker:
    def load(self, model_id):
        import vllm

        self.engine = vllm.LLM(model_id, return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def reload(self, model_id):
        try:
            from vllm import LLM as Engine
        except ImportError:
            return None
        return Engine(model_id, return_sampling_mask=True)  # expect: VLM105
