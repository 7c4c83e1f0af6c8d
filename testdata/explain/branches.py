import sys

from vllm import LLM

if len(sys.argv) > 1:
    mode = "processed_logprobs"
else:
    mode = "raw_logprobs"

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode=mode)
