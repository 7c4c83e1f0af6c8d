"""The findings point at the calls here, not at lines of engines.py."""
from vllm import LLM

from .engines import MODE, ReplayLLM, ValidReplayLLM

policy = ReplayLLM("Qwen/Qwen3-8B")  # expect: VLM105:10
reference = ValidReplayLLM("Qwen/Qwen3-8B")
either_mode = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode=MODE)  # expect: VLM105:63
