"""A star import from vllm binds its public classes."""
from vllm import *  # noqa: F403

engine = LLM("Qwen/Qwen3-4B", return_sampling_mask=True)  # noqa: F405  # expect: VLM105
