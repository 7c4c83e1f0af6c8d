# target-version: 0.12
"""Arguments that changed between releases, against vLLM 0.12."""
from vllm import LLM, EngineArgs

ok = LLM("Qwen/Qwen3-4B", task="generate", swap_space=4)  # both exist in 0.12
late = LLM("Qwen/Qwen3-4B", enable_trace_replay=True)  # expect: VLM301:29
gone = EngineArgs(model="Qwen/Qwen3-4B", guided_decoding_backend="xgrammar")  # expect: VLM301:42
