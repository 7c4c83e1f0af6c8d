from vllm import LLM

from rollout import settings

engine = LLM(**settings.ENGINE_KWARGS)  # expect: VLM105
