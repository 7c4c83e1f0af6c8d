"""Start-up checks as vLLM 0.32's config classes raise them: its own conditions and messages."""
# target-version: 0.32
from vllm import LLM

MODEL = "meta-llama/Llama-3.1-8B-Instruct"

# Nsight profiles Ray workers only.
nsight = LLM(MODEL, ray_workers_use_nsight=True, distributed_executor_backend="mp")  # expect: VLM401
nsight_ray = LLM(MODEL, ray_workers_use_nsight=True, distributed_executor_backend="ray")

# 0.32 checks the n-gram window in SpeculativeConfig itself.
window = LLM(MODEL, speculative_config={"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 2, "prompt_lookup_min": 4})  # expect: VLM406
window_ok = LLM(MODEL, speculative_config={"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4, "prompt_lookup_min": 2})

# A draft model's tensor parallelism has a key of its own.
draft_tp = LLM(MODEL, speculative_config={"model": "meta-llama/Llama-3.2-1B", "num_speculative_tokens": 2, "tensor_parallel_size": 1})  # expect: VLM406
draft_tp_ok = LLM(MODEL, speculative_config={"model": "meta-llama/Llama-3.2-1B", "num_speculative_tokens": 2, "draft_tensor_parallel_size": 1})

# No method and no model: vLLM takes it for a draft model, and there is none.
tokens_only = LLM(MODEL, speculative_config={"num_speculative_tokens": 2})  # expect: VLM406
draft_given = LLM(MODEL, speculative_config={"model": "meta-llama/Llama-3.2-1B-Instruct", "num_speculative_tokens": 2})

# MTP drafts from the target's own layers: vLLM hands the target's config to the speculative one.
mtp = LLM("deepseek-ai/DeepSeek-V3", speculative_config={"method": "mtp", "num_speculative_tokens": 1})

# Checkpoint preparation on start-up arrived after 0.32: its argument is not checked here.
prepared = LLM(MODEL, checkpoint_prepare_on_startup=True)  # expect: VLM301
