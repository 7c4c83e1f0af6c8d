"""NeMo-RL: what ``policy.generation`` forwards to ``vllm.LLM`` and to every request.

Read from NVIDIA-NeMo/RL 0.6.0 (HEAD 7ea279a, 2026-08-22):
``examples/run_*.py`` (each loads its config with ``load_config`` into a ``MasterConfig``;
those whose algorithm builds ``VllmGeneration`` from ``policy["generation"]`` are the
entry points: run_grpo, run_grpo_sliding_puzzle, run_vlm_grpo, run_distillation, run_ppo,
run_grpo_single_controller, nemo_gym/run_grpo_nemo_gym, nemo_gym/run_distillation_nemo_gym),
``examples/configs/grpo_math_1B.yaml`` (the defaults every recipe extends through
``defaults: ../../grpo_math_1B.yaml``) and
``nemo_rl/models/generation/vllm/vllm_worker.py``: ``vllm_kwargs`` is splatted
into ``LLM(**llm_kwargs)``; ``vllm_cfg.logprobs_mode`` is set after it when not
null, so it wins; ``top_k: null`` becomes ``-1`` in every ``SamplingParams``;
a ``speculative_config`` with ``num_speculative_tokens: 0`` becomes ``None``.
NeMo-RL 0.6 pins vLLM 0.25.1 (its ``vllm`` extra), which has no replay:
NeMo-RL's repository, and a project that pins ``nemo-rl[vllm]==0.6.*`` and not
vLLM, report ``return_sampling_mask`` as unavailable.

``policy.generation.backend: dynamo`` runs vLLM as ``python -m dynamo.vllm ARGV`` in the
Dynamo environment (``docker/dynamo``: ``ai-dynamo[vllm]==1.3.0.post1``, which pins vLLM
0.23.0).  ``nemo_rl/models/generation/dynamo/arguments.py`` (``build_dynamo_vllm_argv``)
renders the argv: its own flags (``--model``, ``--served-model-name``, ``--seed``,
``--trust-remote-code``, ``--weight-transfer-config``, Dynamo's ``--namespace``,
``--enable-rl`` ...), the ``vllm_cfg`` keys of ``config.py``'s ``DYNAMO_VLLM_FLAGS``
(``precision`` as ``--dtype``; ``expert_parallel_size > 1`` as ``--enable-expert-parallel``),
Dynamo's worker flags, then every ``vllm_kwargs`` key not null as ``--key value`` (a boolean
as ``--key``/``--no-key``, a mapping as JSON); an option written twice is its ValueError, and
``config.py``'s ``DynamoConfig`` rejects ``speculative_config``, ``quantization``, a precision
but BF16 and a ``kv_cache_dtype`` but ``auto``.  Dynamo's ``dynamo/vllm/args.py``
(``parse_args``) takes its own flags (``DynamoRuntimeArgGroup``, ``DynamoVllmArgGroup``) and
hands every other option to a parser of ``AsyncEngineArgs``' options; ``main.py`` then runs
``configure_rl_logprobs_mode``: with ``--enable-rl`` the engine's ``logprobs_mode`` is
``processed_logprobs`` (raw is replaced, anything else is an error).
"""

# Options Dynamo's own parser takes (ai-dynamo 1.3.0.post1: dynamo/vllm/backend_args.py,
# dynamo/common/configuration/groups/runtime_args.py): a vllm_kwargs key named for one is
# Dynamo's, not vLLM's.
_DYNAMO_OPTIONS = (
    "benchmark_decode_batch_granularity", "benchmark_decode_length_granularity", "benchmark_mode",
    "benchmark_output_path", "benchmark_prefill_granularity", "benchmark_timeout", "benchmark_warmup_iterations",
    "disaggregation_mode", "embedding_transfer_mode", "embedding_worker", "enable_multimodal", "enable_rl",
    "frontend_decoding", "gms_shadow_mode", "headless", "is_decode_worker", "is_prefill_worker", "mm_prompt_template",
    "model_express_url", "multimodal_decode_worker", "multimodal_encode_worker", "multimodal_worker",
    "route_to_encoder", "use_vllm_tokenizer", "connector", "custom_jinja_template", "discovery_backend",
    "dump_config_to", "durable_kv_events", "dyn_enable_structural_tag", "dyn_endpoint_types", "dyn_reasoning_parser",
    "dyn_structural_tag_schema", "dyn_structural_tag_scope", "dyn_tool_call_parser", "endpoint", "endpoint_types",
    "engine_request_limit", "event_plane", "exclude_tools_when_tool_choice_none", "health_check_payload",
    "media_output_fs_url", "media_output_http_url", "multimodal_embedding_cache_capacity_gb",
    "multimodal_embedding_cache_publisher", "namespace", "output_modalities", "request_plane",
)
# vllm_kwargs keys that never reach vLLM: the options build_dynamo_vllm_argv writes itself (a
# second one is its ValueError; --component/--model-name/--model-path are refused by name), and
# those DynamoConfig rejects.
_DYNAMO_REFUSED = (
    "model", "served_model_name", "seed", "trust_remote_code", "weight_transfer_config", "component",
    "model_name", "model_path", "speculative_config", "quantization",
)

PACK = {
    "name": "nemo-rl",
    "read_from": "NVIDIA-NeMo/RL 0.6.0 (examples/configs/grpo_math_1B.yaml, vllm_worker.py)",
    "markers": ["vllm_kwargs", "vllm_cfg"],
    "detect": ["policy.generation.vllm_cfg", "policy.generation.vllm_kwargs"],
    "own_configs": {"examples/configs/grpo_math_1B.yaml": ""},
    # A config that names no base config (``defaults:``) is read as written: keys it
    # lacks are absent, since the worker reads them with ``.get``.
    "implicit_base": False,
    "distribution": "nemo-rl",
    "vllm_pins": {"0.6": {"vllm": "==0.25.1"}},
    "launchers": {
        "modules": [],
        # The training scripts, and the fallback when NeMo-RL's source is not in the tree.
        "scripts": ["examples/run_grpo*.py", "examples/run_distillation*.py", "examples/run_ppo*.py"],
        # With the source at hand, any script that loads a MasterConfig and builds (or imports the
        # module that builds) a VllmGeneration from the policy's generation settings is an entry
        # point: run_vlm_grpo.py, nemo_gym/run_grpo_nemo_gym.py, run_grpo_single_controller.py ...
        # (not run_sft.py, run_dpo.py, run_rm.py: no generation; nor run_eval.py: its own config).
        "composes": [["load_config(", "MasterConfig"]],
        "reaches": [["VllmGeneration(", '"generation"]']],
        "config_option": "--config",
    },
    "backend": {"key": "policy.generation.backend", "values": ["vllm"]},
    "backends": {"dynamo": {
        "read_from": "NVIDIA-NeMo/RL 0.6.0 (nemo_rl/models/generation/dynamo/arguments.py, config.py), "
                     "ai-dynamo 1.3.0.post1 (dynamo/vllm/args.py)",
        "engine": [
            # Every vllm_kwargs key as an option of dynamo.vllm's command line: vLLM's engine
            # options, but for Dynamo's own; single-rank geometry only (DynamoConfig).
            {"prefix": "policy.generation.vllm_kwargs", "reaches": "engine-argv", "except": [*_DYNAMO_OPTIONS, *_DYNAMO_REFUSED],
             "framework_accepts": {name: {"ge": 1, "le": 1} for name in (
                 "data_parallel_size", "decode_context_parallel_size", "prefill_context_parallel_size")}},
            # config.py's DYNAMO_VLLM_FLAGS, passed when not null.
            *({"key": f"policy.generation.vllm_cfg.{name}", "arg": name, "repeated": "error"} for name in (
                "gpu_memory_utilization", "enforce_eager",
            )),
            *({"key": f"policy.generation.vllm_cfg.{name}", "arg": name, "repeated": "error", "framework_accepts": {"ge": 1}}
              for name in ("tensor_parallel_size", "pipeline_parallel_size", "max_model_len")),
            {"key": "policy.generation.vllm_cfg.expert_parallel_size", "arg": "enable_expert_parallel", "above": 1, "repeated": "error",
             "framework_accepts": {"ge": 1}},
            # DynamoVllmConfig accepts BF16 only, and it is passed as written: --dtype bf16.
            {"key": "policy.generation.vllm_cfg.precision", "arg": "dtype", "repeated": "error", "framework_accepts": ["bf16", "bfloat16"]},
            {"key": "policy.generation.vllm_cfg.kv_cache_dtype", "arg": "kv_cache_dtype", "repeated": "error", "framework_accepts": ["auto"]},
        ],
        "engine_unknown": ["model"],
        "transforms": {},
        # --enable-rl (always passed): Dynamo replaces raw_logprobs with processed_logprobs and
        # refuses any other mode.
        "sets": [{"args": {"logprobs_mode": "processed_logprobs"}}],
        # Dynamo sets more engine arguments after parsing (prefix caching, kv events, a
        # scheduler class): the start-up checks read what it passes as unknown.
        "passes": None,
        # docker/dynamo: ai-dynamo[vllm]==1.3.0.post1, whose vllm extra pins vLLM 0.23.0.
        "vllm_pins": {"0.6": "==0.23.0"},
    }},
    "engine": [
        {"prefix": "policy.generation.vllm_kwargs"},
        # vllm_worker.py's own keywords to ``vllm.LLM``, from vllm_cfg (a vllm_kwargs key that
        # repeats one is a TypeError: neither reaches vLLM).  vllm_cfg.load_format is not one:
        # configure_generation_config replaces it ("dummy", or "auto" to evaluate) whatever it says.
        *({"key": f"policy.generation.vllm_cfg.{name}", "arg": name, "repeated": "error"} for name in (
            "gpu_memory_utilization", "enforce_eager", "max_model_len",
        )),
        # The parallel sizes lay out the workers' placement first (a size below 1 fails there).
        *({"key": f"policy.generation.vllm_cfg.{name}", "arg": name, "repeated": "error", "framework_accepts": {"ge": 1}}
          for name in ("tensor_parallel_size", "pipeline_parallel_size")),
        {"key": "policy.generation.vllm_cfg.expert_parallel_size", "arg": "enable_expert_parallel", "above": 1, "repeated": "error",
         "framework_accepts": {"ge": 1}},
        # null: on when the GPU's compute capability is 8 or more (_resolve_enable_prefix_caching).
        {"key": "policy.generation.vllm_cfg.enable_prefix_caching", "arg": "enable_prefix_caching", "null": "run-time", "repeated": "error"},
        # precision "fp8" runs the engine in bfloat16 with FP8 weights (init_fp8's quantization).
        {"key": "policy.generation.vllm_cfg.precision", "arg": "dtype", "values": {"fp8": "bfloat16"}, "repeated": "error"},
        # Passed only with FP8 weights, after init_fp8 has rejected anything but these itself.
        {"key": "policy.generation.vllm_cfg.kv_cache_dtype", "arg": "kv_cache_dtype",
         "when": {"key": "policy.generation.vllm_cfg.precision", "is": "fp8"}, "framework_accepts": ["auto", "fp8", "fp8_e4m3"]},
        # Set after the keywords when not null, so it wins.
        {"key": "policy.generation.vllm_cfg.logprobs_mode", "arg": "logprobs_mode"},
    ],
    "engine_unknown": ["model", "hf_overrides"],
    # num_speculative_tokens: 0 is NeMo-RL's way to switch speculative decoding off.
    "transforms": {"speculative_config": "drop-if-zero-speculative-tokens"},
    # What vllm_worker.py passes to ``vllm.LLM`` on its own: its keyword arguments (a key of
    # vllm_kwargs that repeats one is a TypeError), and the executor backend it picks; those
    # the engine entries map take their vllm_cfg key's value.
    "passes": [
        {"arg": "enable_sleep_mode", "value": True, "wins": "framework"},
        {"arg": "disable_log_stats", "value": False, "wins": "framework"},
        {"arg": "trust_remote_code", "value": True, "wins": "framework"},
        *({"arg": name, "wins": "framework"} for name in (
            "distributed_executor_backend", "tensor_parallel_size", "pipeline_parallel_size", "enable_expert_parallel",
            "gpu_memory_utilization", "enable_prefix_caching", "dtype", "seed", "enforce_eager", "max_model_len",
            "load_format", "skip_tokenizer_init", "served_model_name", "worker_extension_cls",
        )),
        # Set from run-time state: Nsight profiling, FP8 and quantised checkpoints, multimodal models.
        *({"arg": name} for name in ("ray_workers_use_nsight", "quantization", "config_format", "kv_transfer_config")),
    ],
    "request": [
        {"key": "policy.generation.top_k", "param": "top_k", "null": -1},
        {"key": "policy.generation.temperature", "param": "temperature"},
        {"key": "policy.generation.top_p", "param": "top_p"},
    ],
    "defaults": {
        "policy.generation.backend": "vllm",
        "policy.generation.top_k": None,
        "policy.generation.temperature": 1.0,
        "policy.generation.top_p": 1.0,
        "policy.generation.vllm_cfg.logprobs_mode": "processed_logprobs",
        "policy.generation.vllm_kwargs": {},
    },
}
