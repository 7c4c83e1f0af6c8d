# target-version: 0.33
"""Values a user writes plainly: module constants, helpers returning requests, settings classes,
dicts held on self, helpers called from the module body."""
import os

from vllm import LLM, SamplingParams

MODEL = "Qwen/Qwen3-8B"
TOP_K = -1
TEMPERATURE = 0.0


class Settings:
    logprobs_mode = "raw_logprobs"
    max_tokens = 512


def default_params():
    return SamplingParams(temperature=1.0, top_k=TOP_K, max_tokens=Settings.max_tokens)  # expect: VLM202


async def rollout(prompts):
    llm = LLM(MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    params = default_params()
    outputs = await llm.generate(prompts, params)
    return outputs


async def greedy_eval(prompts):
    llm = LLM(MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    return await llm.generate(prompts, SamplingParams(temperature=TEMPERATURE, top_k=20))  # expect: VLM201


def engine_from_settings():
    return LLM(MODEL, return_sampling_mask=True, logprobs_mode=Settings.logprobs_mode)  # expect: VLM105


class Generator:
    def __init__(self, model_name):
        self.model_args = {"model": model_name, "gpu_memory_utilization": 0.85}
        self.model_args["return_sampling_mask"] = True
        self.llm = LLM(**self.model_args)  # expect: VLM105


class ConfiguredGenerator:
    def __init__(self, model_name):
        self.model_args = {"model": model_name, "return_sampling_mask": True}
        self.configure()  # may set anything on self.model_args
        self.llm = LLM(**self.model_args)

    def configure(self):
        self.model_args["logprobs_mode"] = "processed_logprobs"


class HandedOut:
    def __init__(self, model_name, registry):
        self.model_args = {"model": model_name, "return_sampling_mask": True}
        registry.register(self)
        self.llm = LLM(**self.model_args)


def use_v1_runner():
    os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")


def build_engine():
    return LLM(MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")  # expect: VLM101


use_v1_runner()

if __name__ == "__main__":
    engine = build_engine()
