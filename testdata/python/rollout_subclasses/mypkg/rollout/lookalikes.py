"""Subclasses whose ``self.llm`` is not the project's replay engine: nothing to report."""
from rollout_kit.base import BaseRollout
from vllm import SamplingParams

from mypkg.rollout.base import BaseRollout as ProjectRollout
from mypkg.rollout.gateway_base import GatewayRolloutBase
from mypkg.rollout.remote_base import RemoteRolloutBase


class KitRollout(BaseRollout):
    """A base class of the same name from an installed package: what it binds is not seen."""

    def generate_sequences(self, prompts):
        return self.llm.generate(prompts, SamplingParams(temperature=0, max_tokens=256))


class SharedEngineRollout(ProjectRollout):
    """Overrides ``__init__`` without calling it: the base's engine is never built; the trainer
    hands this rollout an engine after construction (``rollout.llm = engine``)."""

    def __init__(self, tokenizer, response_length=512):
        self.tokenizer = tokenizer
        self.response_length = response_length

    def generate_sequences(self, prompts):
        return self.llm.generate(prompts, SamplingParams(temperature=0, max_tokens=self.response_length))


class RemoteRollout(RemoteRolloutBase):
    """``self.llm`` is the project's own ``LLM`` class, an HTTP client."""

    def generate_sequences(self, prompts):
        return self.llm.generate(prompts, SamplingParams(temperature=0, max_tokens=256))


class GatewayRollout(GatewayRolloutBase):
    """``self.llm`` is another library's ``LLM``: not vLLM's engine."""

    def generate_sequences(self, prompts):
        return self.llm.generate(prompts, SamplingParams(temperature=0, max_tokens=256))
