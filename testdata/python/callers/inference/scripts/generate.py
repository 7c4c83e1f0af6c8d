import sys

from inference.engines import make_checked_engine, make_engine

engine = make_engine("Qwen/Qwen3-4B", tensor_parallel_size=2, gpu_memory_utilization=0.85)
checked = make_checked_engine("Qwen/Qwen3-4B", "processed_logprobs")
from_command_line = make_checked_engine("Qwen/Qwen3-4B", sys.argv[1])
