"""An HTTP client for the rollout server, shaped like the offline engine so rollouts can use either."""
import requests


class LLM:
    def __init__(self, base_url, return_sampling_mask=False, timeout=600):
        self.base_url = base_url.rstrip("/")
        self.return_sampling_mask = return_sampling_mask
        self.timeout = timeout

    def generate(self, prompts, sampling_params):
        body = {"prompts": prompts, "sampling": sampling_params.__dict__, "return_sampling_mask": self.return_sampling_mask}
        return requests.post(f"{self.base_url}/generate", json=body, timeout=self.timeout).json()
