"""Builds the engines; every replay setting comes from settings.py."""
from vllm import LLM

from .settings import POLICY_KWARGS, REFERENCE_KWARGS, SHARED_KWARGS, VALUE_KWARGS, critic_kwargs

policy = LLM(**POLICY_KWARGS)
reference = LLM(**REFERENCE_KWARGS)
shared = LLM(**SHARED_KWARGS)
critic = LLM(**critic_kwargs())
value = LLM(**VALUE_KWARGS)
