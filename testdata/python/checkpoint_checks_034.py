"""Start-up checks that read the model's config: the known-models table's entries here (a local
checkpoint folder, the Hugging Face cache and [tool.vllm-lint.models] are tested in
tests/test_model_facts.py)."""
# target-version: 0.34
import os

import sglang as sgl
from vllm import LLM, AsyncEngineArgs, EngineArgs

LLAMA = "meta-llama/Llama-3.1-8B-Instruct"

# 32 attention heads: a tensor-parallel size that does not divide them.
three_way = LLM(LLAMA, tensor_parallel_size=3)  # expect: VLM407:24
four_way = LLM(LLAMA, tensor_parallel_size=4)
gemma = LLM(model="google/gemma-2-9b-it", tensor_parallel_size=6)  # expect: VLM407:43
gemma_even = LLM(model="google/gemma-2-9b-it", tensor_parallel_size=8)
# An arguments object handed to other code may be changed there: its model config is not known.
args = EngineArgs(model="google/gemma-2-9b-it", tensor_parallel_size=6)

# The derived length: max_position_embeddings, and Llama 3.1's "llama3" RoPE type leaves it as it is.
longer = LLM(LLAMA, max_model_len=262144)  # expect: VLM407:21
longest_allowed = LLM(LLAMA, max_model_len=131072)
qwen3 = AsyncEngineArgs(model="Qwen/Qwen3-8B", max_model_len=65536)
qwen3_engine = LLM(model="Qwen/Qwen3-8B", max_model_len=65536)  # expect: VLM407:43
auto_fit = LLM("Qwen/Qwen3-8B", max_model_len=-1)
# DeepSeek-V2-Lite's yarn scaling is already in its max_position_embeddings (163840).
lite = LLM("deepseek-ai/DeepSeek-V2-Lite", trust_remote_code=True, max_model_len=163840)
lite_longer = LLM("deepseek-ai/DeepSeek-V2-Lite", trust_remote_code=True, max_model_len=200000)  # expect: VLM407:75

# Expert parallelism needs experts.
dense_ep = LLM(LLAMA, tensor_parallel_size=2, enable_expert_parallel=True)  # expect: VLM407:47
moe_ep = LLM("Qwen/Qwen3-30B-A3B", tensor_parallel_size=2, enable_expert_parallel=True)
mla_ep = LLM("deepseek-ai/DeepSeek-V2-Lite", tensor_parallel_size=2, enable_expert_parallel=True)
routed = LLM("Qwen/Qwen3-8B", enable_return_routed_experts=True)  # expect: VLM407:31
routed_moe = LLM("Qwen/Qwen3-30B-A3B", enable_return_routed_experts=True)
routed_config = LLM("Qwen/Qwen3-8B", aux_output_config={"enable_return_routed_experts": True})  # expect: VLM407:38
routed_config_moe = LLM("Qwen/Qwen3-30B-A3B", aux_output_config={"enable_return_routed_experts": True})

# A quantization method vLLM cannot build without the checkpoint's config.
quark = LLM(LLAMA, quantization="quark")  # expect: VLM407:20
online_fp8 = LLM(LLAMA, quantization="fp8")
# The folder's files are not known for a table entry: which files it has is not decided here.
gptq = LLM(LLAMA, quantization="gptq")

# Default multimodal LoRA adapters on a text-only architecture.
speech = LLM(LLAMA, enable_lora=True, default_mm_loras={"audio": "/adapters/speech"})  # expect: VLM407:39

# The environment lets a longer length through.
os.environ["VLLM_ALLOW_LONG_MAX_MODEL_LEN"] = "1"
allowed = LLM(LLAMA, max_model_len=262144)
os.environ.pop("VLLM_ALLOW_LONG_MAX_MODEL_LEN")

# The config vLLM reads is not the checkpoint's, or the model is not known: silent.
overridden = LLM(LLAMA, hf_overrides={"max_position_embeddings": 262144}, max_model_len=262144)
private = LLM("my-org/llama-finetune", tensor_parallel_size=3)
relative = LLM("checkpoints/llama-finetune", tensor_parallel_size=3)


def build(model: str) -> LLM:
    return LLM(model, tensor_parallel_size=3)


# SGLang's engine with vLLM's argument names is not vLLM's.
sglang_engine = sgl.Engine(model_path=LLAMA, tp_size=3, context_length=262144)


# A 16-bit KV cache must be the model's own 16-bit type: Qwen3-8B's checkpoint is bfloat16.
half_cache = LLM("Qwen/Qwen3-8B", kv_cache_dtype="float16")  # expect: VLM407:35
same_cache = LLM("Qwen/Qwen3-8B", kv_cache_dtype="bfloat16")
fp8_cache = LLM("Qwen/Qwen3-8B", kv_cache_dtype="fp8")
half_model = LLM("Qwen/Qwen3-8B", dtype="float16", kv_cache_dtype="float16")
# With dtype written, the arguments alone decide it, whatever the model.
mismatched = LLM("my-org/llama-finetune", dtype="bfloat16", kv_cache_dtype="float16")  # expect: VLM407:61

# vLLM does not run Gemma 2 and 3 in float16.
gemma_half = LLM("google/gemma-3-1b-it", dtype="float16")  # expect: VLM407:42
gemma_bf16 = LLM("google/gemma-3-1b-it", dtype="bfloat16")
llama_half = LLM(LLAMA, dtype="half")

# Decode context parallelism on grouped-query attention: Llama 3.1 8B has 8 KV heads, 32 query heads.
dcp_narrow = LLM(LLAMA, tensor_parallel_size=8, decode_context_parallel_size=2)  # expect: VLM407:49
dcp_wide = LLM("meta-llama/Llama-3.1-70B-Instruct", tensor_parallel_size=16, decode_context_parallel_size=2)
dcp_over = LLM("meta-llama/Llama-3.1-70B-Instruct", tensor_parallel_size=16, decode_context_parallel_size=4)  # expect: VLM407:78
# DeepSeek's latent attention is checked otherwise.
dcp_mla = LLM("deepseek-ai/DeepSeek-V2-Lite", tensor_parallel_size=4, decode_context_parallel_size=2)
