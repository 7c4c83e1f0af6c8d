"""Partials of vLLM's engine, and a value chosen on import."""
import os
from functools import partial

from vllm import LLM

ReplayLLM = partial(LLM, return_sampling_mask=True, logprobs_mode="raw_logprobs")
ValidReplayLLM = partial(LLM, return_sampling_mask=True, logprobs_mode="processed_logprobs")
MODE = "raw_logprobs" if os.environ.get("RAW") else "raw_logits"
