# target-version: 0.34
"""Every engine argument against vLLM 0.34's schema: unknown (VLM301), invalid choice (VLM303), out of range (VLM304)."""
import sglang
import torch
from transformers import LLM as HFLLM  # another library's LLM: not an engine

from vllm import LLM, AsyncEngineArgs, EngineArgs

# VLM301: a near miss, a keyword removed in 0.18, a key of a dict splatted into the engine.
llm = LLM("Qwen/Qwen3-4B", max_model_length=4096)  # expect: VLM301:28
old = EngineArgs(model="Qwen/Qwen3-4B", swap_space=4)  # expect: VLM301:41
settings = {"model": "Qwen/Qwen3-4B", "task": "generate"}
engine = AsyncEngineArgs(**settings)  # expect: VLM301
# VLM303: a value outside a closed Literal.
typo = LLM("Qwen/Qwen3-4B", logprobs_mode="processed_logprob")  # expect: VLM303:29
cache = EngineArgs(model="Qwen/Qwen3-4B", mm_processor_cache_type="lfu")  # expect: VLM303:43
# VLM304: outside the config field's bounds.
greedy = LLM("Qwen/Qwen3-4B", gpu_memory_utilization=1.5)  # expect: VLM304:31
no_gpus = EngineArgs(model="Qwen/Qwen3-4B", tensor_parallel_size=0)  # expect: VLM304:45


def build(overrides, utilization, mode):
    # Clean: every argument exists, values are valid or unknown.
    LLM("Qwen/Qwen3-4B", max_model_len=4096, gpu_memory_utilization=0.9, logprobs_mode="processed_logprobs")
    LLM("Qwen/Qwen3-4B", gpu_memory_utilization=1.0, tensor_parallel_size=1, dtype=torch.float16)
    LLM("Qwen/Qwen3-4B", gpu_memory_utilization=utilization, logprobs_mode=mode)
    # quantization and tokenizer_mode also accept any string (plugins add methods).
    LLM("Qwen/Qwen3-4B", quantization="my_plugin_quant", tokenizer_mode="custom")
    # An unresolved mapping may hold anything: silence about it, the written keys are still checked.
    LLM("Qwen/Qwen3-4B", **overrides)
    args = EngineArgs(model="Qwen/Qwen3-4B")
    args.not_a_field = 1  # setting an attribute on the dataclass is not an error
    # Look-alikes: SGLang's engine and another library's LLM take other arguments.
    sglang.Engine(model_path="Qwen/Qwen3-4B", mem_fraction_static=1.5, max_model_length=4096)
    HFLLM("gpt2", max_model_length=4096, gpu_memory_utilization=7)
