# target-version: 0.30
"""Settings written once in a class body or at module level and read where the engine is built.
Nothing in this module changes ``Settings`` or ``DRAFT``; ``Tunable`` and ``Registered`` are
changed or handed to other code, so their values are not known where they are read."""
from vllm import LLM, SamplingParams

from rollout_registry import register_defaults


class Settings:
    model = "Qwen/Qwen3-8B"
    speculative = {"method": "eagle3", "model": "RedHatAI/Qwen3-8B-speculator.eagle3", "num_speculative_tokens": 3}
    engine = {"gpu_memory_utilization": 0.85, "logprobs_mode": "raw_logprobs"}
    stop = ["</answer>", "<|im_end|>"]


class EvalSettings:
    sampling = {"temperature": 0.0, "top_k": 20, "max_tokens": 1024}


DRAFT = {"method": "eagle3", "model": "RedHatAI/Qwen3-8B-speculator.eagle3", "num_speculative_tokens": 2}


def build_speculative_engine():
    return LLM(
        model=Settings.model,
        speculative_config=Settings.speculative,  # expect: VLM102
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )


def build_from_engine_settings():
    return LLM(Settings.model, return_sampling_mask=True, **Settings.engine)  # expect: VLM105


def evaluate(prompts):
    llm = LLM(Settings.model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    params = SamplingParams(stop=Settings.stop, **EvalSettings.sampling)  # expect: VLM201
    return llm.generate(prompts, params)


def build_ngram_engine():
    return LLM(Settings.model, speculative_config=DRAFT, return_sampling_mask=True, logprobs_mode="processed_logprobs")  # expect: VLM102


class Tunable:
    speculative = {"method": "suffix", "num_speculative_tokens": 4}


def disable_drafting():
    Tunable.speculative.clear()


def build_tunable_engine():
    # ``disable_drafting`` may have emptied the dict first: not known here.
    return LLM(
        model=Settings.model,
        speculative_config=Tunable.speculative or None,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )


class Registered:
    engine = {"logprobs_mode": "raw_logprobs"}


def build_registered_engine():
    register_defaults(Registered.engine)  # the registry may change it
    return LLM(Settings.model, return_sampling_mask=True, **Registered.engine)


class Overridden:
    engine_defaults = {"logprobs_mode": "raw_logprobs"}


setattr(Overridden, "engine_defaults", {"logprobs_mode": "processed_logprobs"})


def build_overridden_engine():
    return LLM(Settings.model, return_sampling_mask=True, **Overridden.engine_defaults)
