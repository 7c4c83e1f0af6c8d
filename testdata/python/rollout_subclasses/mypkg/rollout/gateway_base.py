"""Rollouts through the inference gateway's client library, whose ``LLM`` forwards engine
options to the servers behind it."""
from inference_gateway import LLM


class GatewayRolloutBase:
    def __init__(self, endpoint, model_name):
        self.llm = LLM(endpoint, model=model_name, return_sampling_mask=True)
