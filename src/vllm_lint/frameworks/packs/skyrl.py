"""SkyRL: what ``generator.inference_engine`` forwards to vLLM, and every request's sampling.

Read from NovaSky-AI/SkyRL (HEAD a956457, 2026-08-21):
``skyrl/train/entrypoints/`` (``main_base``, ``main_generate``, ``serve``: each builds its
config with ``SkyRLTrainConfig.from_cli_overrides(sys.argv[1:])``),
``skyrl/train/config/config.py`` (``InferenceEngineConfig``: ``backend="vllm"``,
``engine_init_kwargs`` set one by one on the server's parsed arguments,
``speculative_config`` passed straight through; ``SamplingParams``:
``top_k=-1``, ``temperature=1.0``) and
``skyrl/backends/skyrl_train/inference_servers/utils.py``.  ``apply_mtp_config``
may add an MTP speculative config for MTP checkpoints, so an unwritten
``speculative_config`` is unknown.  SkyRL never sets ``logprobs_mode``.  SkyRL 0.3's ``fsdp`` and ``megatron`` extras
pin ``vllm==0.26.0`` (``pyproject.toml``), which has no replay.
"""

PACK = {
    "name": "skyrl",
    "read_from": "NovaSky-AI/SkyRL a956457 (train/config/config.py, inference_servers/utils.py)",
    "markers": ["inference_engine"],
    "detect": ["generator.inference_engine"],
    "own_configs": {},
    "implicit_base": True,
    "distribution": "skyrl",
    "vllm_pins": {"0.3": {"fsdp": "==0.26.0", "megatron": "==0.26.0"}},
    "launchers": {
        # The training entry point: its generator sends the config's sampling parameters.
        "modules": ["skyrl.train.entrypoints.main_base", "skyrl_train.entrypoints.main_base"],
        # Entry points that build the same engines but serve them (``serve``) or sample with the
        # evaluation parameters (``main_generate``), read from skyrl/train/entrypoints/ at a956457;
        # when SkyRL's source is in the tree or installed, any module that composes the config is one.
        "engine_modules": [
            "skyrl.train.entrypoints.serve",
            "skyrl.train.entrypoints.main_generate",
            "skyrl_train.entrypoints.main_generate",
        ],
        # ``make_config(...)`` builds a SkyRLTrainConfig subclass with the project's own nested
        # config classes (skyrl/train/config/config.py): examples' main_dapo, main_mini_swe ...
        "composes": [["SkyRLTrainConfig", ".from_cli_overrides("], ["make_config(", ".from_cli_overrides("]],
        "scripts": [],
    },
    "backend": {"key": "generator.inference_engine.backend", "values": ["vllm"]},
    "engine": [
        # build_vllm_cli_args's ``overrides``, set on the server's parsed arguments from the
        # inference_engine config, before engine_init_kwargs (trainer.seed, which seeds the
        # trainer too, is not mapped).
        *({"key": f"generator.inference_engine.{key}", "arg": arg, "reaches": "serve-namespace"} for key, arg in (
            ("model_dtype", "dtype"), ("gpu_memory_utilization", "gpu_memory_utilization"), ("enable_prefix_caching", "enable_prefix_caching"),
            ("enforce_eager", "enforce_eager"), ("max_num_batched_tokens", "max_num_batched_tokens"),
            ("max_num_seqs", "max_num_seqs"), ("enable_return_routed_experts", "enable_return_routed_experts"),
            ("language_model_only", "language_model_only"),
        )),
        # The parallel sizes lay out the engines' placement groups first (a size below 1 fails there).
        *({"key": f"generator.inference_engine.{name}", "arg": name, "reaches": "serve-namespace", "framework_accepts": {"ge": 1}}
          for name in ("tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size")),
        {"key": "generator.inference_engine.expert_parallel_size", "arg": "enable_expert_parallel", "above": 1,
         "reaches": "serve-namespace", "framework_accepts": {"ge": 1}},
        {"key": "generator.inference_engine.speculative_config", "arg": "speculative_config"},
        # build_vllm_cli_args sets each key on the server's parsed arguments (FrontendArgs + AsyncEngineArgs).
        {"prefix": "generator.inference_engine.engine_init_kwargs", "reaches": "serve-namespace"},
    ],
    "engine_unknown": ["model", "hf_overrides", "speculative_config"],
    # What inference_servers/utils.py sets on the server's arguments on its own, before
    # engine_init_kwargs (which win): from the inference_engine config (the engine entries'
    # keys, where the config writes them or a default is recorded) and the placement.
    "passes": [
        {"arg": "trust_remote_code", "value": True},
        {"arg": "generation_config", "value": "vllm"},
        {"arg": "kv_cache_metrics", "value": True},
        *({"arg": name} for name in (
            "enable_sleep_mode", "tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size", "dtype", "seed",
            "gpu_memory_utilization", "enable_prefix_caching", "enforce_eager", "max_num_batched_tokens",
            "enable_expert_parallel", "max_num_seqs", "enable_return_routed_experts", "weight_transfer_config",
            "worker_extension_cls", "served_model_name", "language_model_only", "mm_processor_cache_gb",
            "enable_lora", "max_lora_rank", "max_loras", "max_cpu_loras", "fully_sharded_loras",
            "distributed_executor_backend",
        )),
    ],
    "request": [
        {"key": "generator.sampling_params.top_k", "param": "top_k"},
        {"key": "generator.sampling_params.temperature", "param": "temperature"},
    ],
    "defaults": {
        "generator.inference_engine.backend": "vllm",
        "generator.sampling_params.top_k": -1,
        "generator.sampling_params.temperature": 1.0,
    },
}
