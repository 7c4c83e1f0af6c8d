"""The rollout worker: its engines' settings are written in config.py."""
from vllm import LLM

from rollout.config import BASE_KWARGS, ENGINE_KWARGS

policy = LLM(**ENGINE_KWARGS)
base = LLM(**BASE_KWARGS)
