# target-version: 0.34
"""Config dicts given to LLM in vLLM 0.34: every config is a pydantic dataclass that forbids keys it
does not have, validates its fields' bounds, and runs its own validators when it is built."""
from vllm import LLM

MODEL = "Qwen/Qwen3-8B"

# Keys the config has, nested ones included; the dashes of speculative_config's keys are
# rewritten by EngineArgs before SpeculativeConfig is built.
base = LLM(MODEL, compilation_config={"mode": 3, "pass_config": {"fuse_allreduce_rms": False}})
mtp = LLM(MODEL, speculative_config={"method": "mtp", "num-speculative-tokens": 3})
ngram = LLM(MODEL, speculative_config={"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 3})

# Keys the release does not have: "level" became "mode"; PassConfig has no sequence-parallel keys here.
legacy = LLM(MODEL, compilation_config={"level": 3})  # expect: VLM301
fused = LLM(MODEL, compilation_config={"mode": 3, "pass_config": {"enable_sp": True}})  # expect: VLM301:67
spec = LLM(MODEL, speculative_config={"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup": 3})  # expect: VLM301
scales = LLM(MODEL, attention_config={"rocm_kimi_k3_fp8_prefill_scale_margin": 1.2})  # expect: VLM301

# Bounds of a config's fields, inside the dict.
watchdog = LLM(MODEL, watchdog_config={"timeout": 600, "check_interval": 30})
no_timeout = LLM(MODEL, watchdog_config={"timeout": 0})  # expect: VLM304
negative = LLM(MODEL, watchdog_config={"timeout": 60, "check_interval": -1})  # expect: VLM304
lookup = LLM(MODEL, speculative_config={"method": "ngram", "num_speculative_tokens": 2, "prompt_lookup_min": 0})  # expect: VLM304

# A config's own validators, on the keys of its dict.
compact = LLM(MODEL, structured_outputs_config={"backend": "xgrammar", "disable_any_whitespace": True})
outlines = LLM(MODEL, structured_outputs_config={"backend": "outlines", "disable_any_whitespace": True})  # expect: VLM406
redundant = LLM(MODEL, eplb_config={"num_redundant_experts": 2})  # expect: VLM401
balanced = LLM("Qwen/Qwen3-30B-A3B", tensor_parallel_size=2, enable_expert_parallel=True, enable_eplb=True, eplb_config={"num_redundant_experts": 2})

# Built elsewhere: the keys are not known here.
settings = dict(level=3)
unknown = LLM(MODEL, compilation_config=settings | load_overrides())

# CompilationConfig's checks of custom_ops, item by item and against its passes.
ops = LLM(MODEL, compilation_config={"custom_ops": ["none", "+rms_norm", "+quant_fp8"]})
bare = LLM(MODEL, compilation_config={"custom_ops": ["rms_norm"]})  # expect: VLM406
modes = LLM(MODEL, compilation_config={"custom_ops": ["all", "none"]})  # expect: VLM406
both = LLM(MODEL, compilation_config={"custom_ops": ["+rms_norm", "-rms_norm"]})  # expect: VLM406
fusion = LLM(MODEL, compilation_config={"custom_ops": ["-rotary_embedding"], "pass_config": {"enable_qk_norm_rope_fusion": True}})  # expect: VLM406
no_fusion = LLM(MODEL, compilation_config={"custom_ops": ["-rotary_embedding"]})
more_ops = LLM(MODEL, compilation_config={"custom_ops": ["none", *EXTRA_OPS]})

# Arguments checked against each other where the engine is built.
backend = LLM(MODEL, attention_backend="FLASH_ATTN", attention_config={"backend": "FLASHINFER"})  # expect: VLM402
backend_ok = LLM(MODEL, attention_config={"backend": "FLASHINFER", "flash_attn_version": 3})
metrics = LLM(MODEL, per_request_spec_decode_metrics="detailed")  # expect: VLM406
metrics_ok = LLM(MODEL, per_request_spec_decode_metrics="detailed", speculative_config={"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4})
context = LLM("deepseek-ai/DeepSeek-V2-Lite", tensor_parallel_size=4, prefill_context_parallel_size=2, decode_context_parallel_size=4)  # expect: VLM401
context_ok = LLM("deepseek-ai/DeepSeek-V2-Lite", tensor_parallel_size=4, prefill_context_parallel_size=2, decode_context_parallel_size=2)
