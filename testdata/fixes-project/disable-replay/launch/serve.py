"""Starts the engine with the defaults; replay is not needed here."""
from vllm import LLM

from .defaults import SERVE_KWARGS

engine = LLM(**SERVE_KWARGS)
