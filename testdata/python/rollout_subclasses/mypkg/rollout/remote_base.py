"""Rollouts served by a remote rollout server: the engine object is the project's HTTP client."""
from mypkg.clients import LLM


class RemoteRolloutBase:
    def __init__(self, base_url):
        self.llm = LLM(base_url, return_sampling_mask=True)
