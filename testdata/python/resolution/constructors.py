"""Classes that build engines, evaluated with the arguments they are constructed with."""
from typing import Any

import vllm
from vllm import LLM


class LLMWorker:
    def __init__(self, *args, **kwargs):
        self.llm = LLM(*args, **kwargs)


class DeferredWorker:
    def __init__(self, model, **engine_kwargs):
        self.model = model
        self.engine_kwargs = engine_kwargs

    def load(self):
        return LLM(self.model, **self.engine_kwargs)


class BaseGenerationWorker:
    def __init__(self, config: dict[str, Any]):
        self.config = config
        self._load_model()

    def _load_model(self):
        llm_kwargs = dict(model=self.config["model"], enforce_eager=True)
        llm_kwargs.update(return_sampling_mask=True, speculative_config={"method": "dspark", "num_speculative_tokens": 4, "enable_adaptive_verification": True})  # expect: VLM102
        self._create_engine(llm_kwargs)

    def _create_engine(self, llm_kwargs):
        raise NotImplementedError


class SyncGenerationWorker(BaseGenerationWorker):
    def _create_engine(self, llm_kwargs):
        self.llm = vllm.LLM(**llm_kwargs, logprobs_mode="processed_logprobs")


class TemplateWorker:
    """Subclasses decide the settings: an abstract hook is never followed."""

    def __init__(self, model):
        kwargs = {"model": model, "return_sampling_mask": True}
        self.add_settings(kwargs)
        self.llm = LLM(**kwargs)

    def add_settings(self, kwargs):
        raise NotImplementedError


class ConfiguredWorker:
    def __init__(self, model):
        kwargs = {"model": model, "return_sampling_mask": True}
        self.configure(kwargs)
        self.llm = LLM(**kwargs)

    def configure(self, kwargs):
        kwargs["logprobs_mode"] = "processed_logprobs"


def start_workers(model):
    replay = LLMWorker(model, return_sampling_mask=True)  # expect: VLM105
    valid = LLMWorker(model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    deferred = DeferredWorker(model, return_sampling_mask=True, logprobs_mode="raw_logits")  # expect: VLM105
    plain = DeferredWorker(model, gpu_memory_utilization=0.8)
    return replay, valid, deferred, plain


class LLM2:
    """A look-alike: a project class named like an engine, building nothing."""

    def __init__(self, **kwargs):
        self.kwargs = kwargs


look_alike = LLM2(model="m", return_sampling_mask=True)
