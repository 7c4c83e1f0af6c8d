"""A BOM survives the fix, and so do non-ASCII characters before the edit."""
from vllm import LLM

résumé = LLM("Qwen/Qwen3-4B", seed=0, return_sampling_mask=True, logprobs_mode="raw_logprobs")  # été
