"""The sampling settings of training rollouts, shared by rollouts that build their own engine."""
from vllm import SamplingParams


class RolloutSampling:
    def init_sampling(self, response_length):
        self.sampling_params = SamplingParams(temperature=0.9, top_k=-1, max_tokens=response_length)
