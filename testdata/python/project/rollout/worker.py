"""Builds engines from settings imported from the project: no replay setting is written here."""
from vllm import LLM

from rollout import settings
from rollout.settings import VALID_KWARGS
from .settings import ENGINE_KWARGS
from .missing_module import OTHER_KWARGS

policy = LLM(**ENGINE_KWARGS)  # expect: VLM105
reference = LLM(**VALID_KWARGS)
through_module = LLM(settings.MODEL, **settings.ENGINE_KWARGS)  # expect: VLM105
unknown = LLM(**OTHER_KWARGS)

from .settings import SamplerConfig


def from_imported_class():
    config = SamplerConfig()
    return LLM(
        settings.MODEL,
        return_sampling_mask=config.return_sampling_mask,
        logprobs_mode=config.logprobs_mode,  # expect: VLM105
    )
