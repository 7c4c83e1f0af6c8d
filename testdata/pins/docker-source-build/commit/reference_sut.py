"""Runs in the image beside it, on a vLLM built from a commit: only what holds on every release
is reported."""

from vllm import LLM, SamplingParams

# Removed in 0.10, but the commit may predate that: not a finding.
llm = LLM(model="openai/whisper-large-v3", num_scheduler_steps=1, max_num_seqs=64)
outputs = llm.generate(["<|startoftranscript|>"], SamplingParams(temperature=0.0, max_tokens=128))
