"""Evaluation on the training engine: greedy decoding for accuracy, sampling for pass@k."""
from vllm import SamplingParams

from mypkg.rollout import base
from mypkg.rollout.base import BaseRollout


class EvalRollout(BaseRollout):
    def __init__(self, model_path, n_samples=4):
        super().__init__(model_path, response_length=2048)
        self.n_samples = n_samples
        self.val_params = SamplingParams(temperature=0, max_tokens=2048)

    def greedy_accuracy(self, prompts):
        params = SamplingParams(temperature=0, max_tokens=2048)  # expect: VLM201
        return self.llm.generate(prompts, params)

    def pass_at_k(self, prompts):
        params = SamplingParams(temperature=0.6, top_k=20, n=self.n_samples, max_tokens=2048)
        return self.llm.generate(prompts, params)


class AgentLoopRollout(base.BaseRollout):
    """The base class named through its module."""

    def run_turn(self, messages):
        return self.llm.chat(messages, SamplingParams(temperature=0.7, top_k=-1))  # expect: VLM202
