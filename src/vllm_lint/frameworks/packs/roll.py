"""ROLL: what an ``actor_infer`` worker with the vLLM strategy forwards to the engine.

Read from alibaba/ROLL (HEAD 8eb27cc, 2026-08-19):
``examples/start_*_pipeline.py`` (each composes a Hydra config; the rlvr, rlvr_vl,
rlvr_rollout, agentic, agentic_rollout and onpolicy_distill pipelines have an
``actor_infer`` worker, the sft, dpo and distill ones do not),
``roll/distributed/strategy/vllm_strategy.py`` copies
``actor_infer.strategy_args.strategy_config``, pops ``VLLM_USE_V1`` and
``sleep_level`` (not engine arguments) and passes the rest as ``**kwargs`` to
``AsyncEngineArgs``; ``actor_infer.generating_args`` becomes every request's
``SamplingParams`` (defaults from ``roll/configs/generating_args.py``:
``top_k=50``, ``temperature=0.95``); ``actor_infer.model_args.dtype`` (``bf16``, ...) becomes
``dtype``, over the strategy config's.  ROLL never sets ``logprobs_mode``.  ROLL pins vLLM per torch build in
``requirements_torch*_vllm.txt`` (0.8.4, 0.10.2, and an unpinned nightly for
torch 2.10), not in its package's metadata, so it gives no target version.
"""

PACK = {
    "name": "roll",
    "read_from": "alibaba/ROLL 8eb27cc (vllm_strategy.py, configs/generating_args.py)",
    "markers": ["strategy_args"],
    "detect": ["actor_infer.strategy_args.strategy_config"],
    "own_configs": {},
    "implicit_base": True,
    "distribution": "roll",
    "launchers": {
        "modules": [],
        # The fallback when ROLL's source is not in the tree.
        "scripts": ["examples/start_rlvr_pipeline.py", "examples/start_agentic_pipeline.py"],
        # With the source at hand, any script that composes a Hydra config and runs a pipeline
        # (or config) with an ``actor_infer`` worker is an entry point: start_rlvr_vl_pipeline.py,
        # start_agentic_rollout_pipeline.py ... (not start_sft_pipeline.py, start_dpo_pipeline.py).
        "composes": [["initialize(", "compose("]],
        "reaches": [["actor_infer"]],
    },
    "backend": {"key": "actor_infer.strategy_args.strategy_name", "values": ["vllm"]},
    "engine": [
        {"prefix": "actor_infer.strategy_args.strategy_config", "except": ["VLLM_USE_V1", "sleep_level"]},
        # vllm_strategy.py then updates the copy with its own: the worker's model dtype (ROLL's
        # spelling; null or any other is "auto").  The pipeline's seed is not mapped: set_seed
        # seeds ROLL's own generators with it first, so a value vLLM would reject fails there.
        {"key": "actor_infer.model_args.dtype", "arg": "dtype",
         "values": {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}, "otherwise": "auto"},
    ],
    "engine_unknown": ["model", "hf_overrides"],
    # What vllm_strategy.py and create_async_llm pass to ``AsyncEngineArgs`` on their own:
    # sleep mode always, the data-parallel rank with data_parallel_size > 1, LoRA from the model args.
    "passes": [
        {"arg": "enable_sleep_mode", "value": True, "wins": "framework"},
        {"arg": "trust_remote_code", "value": True, "wins": "framework"},
        {"arg": "disable_custom_all_reduce", "value": True},
        {"arg": "enable_prefix_caching", "value": True},
        {"arg": "max_num_batched_tokens", "value": 8192},
        {"arg": "enforce_eager", "value": False},
        *({"arg": name, "wins": "framework"} for name in (
            "dtype", "seed", "data_parallel_rank", "data_parallel_address", "data_parallel_rpc_port",
            "enable_lora", "max_loras", "max_lora_rank", "load_format",
        )),
        *({"arg": name} for name in ("attention_config", "worker_extension_cls")),
    ],
    "request": [
        {"key": "actor_infer.generating_args.top_k", "param": "top_k"},
        {"key": "actor_infer.generating_args.temperature", "param": "temperature"},
    ],
    "defaults": {
        "actor_infer.generating_args.top_k": 50,
        "actor_infer.generating_args.temperature": 0.95,
    },
}
