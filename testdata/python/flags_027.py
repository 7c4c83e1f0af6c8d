# target-version: 0.27
"""vLLM 0.27 has no replay flags (VLM301); non-upstream names never existed (VLM302)."""
from vllm import LLM, EngineArgs

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=False)  # expect: VLM301:28
args = EngineArgs(model="Qwen/Qwen3-4B", enable_trace_replay=True, enable_batch_sharded_sampling=False)  # expect: VLM301:42, VLM301:68
old = LLM("Qwen/Qwen3-4B", enable_return_sampling_mask=True)  # expect: VLM302:28
plain = LLM("Qwen/Qwen3-4B", logprobs_mode="processed_logprobs")
