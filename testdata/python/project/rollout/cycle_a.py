"""Imports form a cycle: the names are unknown, nothing is reported."""
from vllm import LLM

from .cycle_b import KWARGS

CYCLE_KWARGS = {"return_sampling_mask": True}
llm = LLM(**KWARGS)
