"""Rollouts colocated with the trainer: each builds its own engine and takes its sampling
settings from the shared mixin, or its own."""
from vllm import LLM

from .sampling import RolloutSampling


class ColocatedRollout(RolloutSampling):
    def __init__(self, model_path, response_length=1024):
        self.llm = LLM(model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs", enable_sleep_mode=True)
        self.init_sampling(response_length)

    def generate_sequences(self, prompts):
        return self.llm.generate(prompts, self.sampling_params)  # expect: VLM202


class BoundedColocatedRollout(RolloutSampling):
    """Overrides the mixin's method without calling it: only its own settings are sent."""

    def __init__(self, model_path, response_length=1024):
        self.llm = LLM(model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs", enable_sleep_mode=True)
        self.init_sampling(response_length)

    def init_sampling(self, response_length):
        from vllm import SamplingParams

        self.sampling_params = SamplingParams(temperature=0.9, top_k=50, max_tokens=response_length)

    def generate_sequences(self, prompts):
        return self.llm.generate(prompts, self.sampling_params)
