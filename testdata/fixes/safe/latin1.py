# -*- coding: latin-1 -*-
"""A latin-1 file stays latin-1."""
from vllm import LLM

name = "café"
llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True)
