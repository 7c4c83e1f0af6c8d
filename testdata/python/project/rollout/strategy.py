"""Calls the project's adapter with literal settings; this file never names the inference library."""
import os

from rollout.third_party.vllm import create_async_llm


class InferenceStrategy:
    def initialize(self, model_path, strategy_config):
        engine_config = dict(strategy_config)
        engine_config.pop("sleep_level", None)
        self.model = create_async_llm(model=model_path, **engine_config)

    def initialize_replay(self, model_path):
        return create_async_llm(
            model=model_path,
            enable_sleep_mode=True,
            return_sampling_mask=True,
            logprobs_mode="raw_logprobs",  # expect: VLM105
        )

    def initialize_valid(self, model_path):
        return create_async_llm(model=model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs")


def from_environment(model_path):
    return create_async_llm(model=model_path, return_sampling_mask=True, logprobs_mode=os.environ["MODE"])
