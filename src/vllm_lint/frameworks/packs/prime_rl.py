"""prime-rl: the ``rl`` entry point's TOML config, the replay switch it turns on itself, and what it sets.

Read from PrimeIntellect-ai/prime-rl's newest sources (``configs/rl.py``'s
``auto_setup_sampling_mask_capture``, ``configs/orchestrator.py``'s
``setup_truncated_sampling`` and ``resolve_env_config``, ``configs/inference.py``'s
``to_namespace``); the 0.8.0 snapshot (559b447, 2026-08-21) has no replay.

- ``[inference] enable_return_sampling_mask = true`` starts vLLM with
  ``return_sampling_mask``; the ``rl`` entry point also turns it on by itself
  when a live-policy train source samples with truncation (``top_p < 1`` or a
  ``top_k``, in ``[orchestrator.train.sampling]`` or a source's own table),
  whatever the config says; only with an ``[inference]`` table (a managed
  server).  An ``[orchestrator.algo]`` (or a source's own ``algo``) of a type
  whose loss needs the live policy's sampling logprobs (``grpo``, ``rae``,
  ``opd``, ...: ``configs/algorithm.py`` rejects a frozen sampler for them)
  leaves that as it is; ``sft``, or a type not known, makes it unknown.  prime-rl then bounds such sources' ``top_k`` (512 when only
  ``top_p`` truncates) and rejects a truncating ``temperature = 0`` itself.
- It sets ``logprobs_mode = "processed_logprobs"`` unless ``[inference.vllm]``
  sets another, and ``VLLM_USE_V2_MODEL_RUNNER=1`` while replay is on.
- ``[inference.vllm]`` keys are vLLM's own arguments, passed verbatim.
- Train requests of a source that does not truncate carry ``top_k = -1``
  (prime-rl's sentinel): with replay switched on by hand, vLLM rejects every one.
- ``[orchestrator.eval.sampling]`` reaches every eval request to the same
  server; prime-rl only warns that greedy or unbounded eval requests are
  rejected while capture is on.  A ``[[orchestrator.eval.source]]`` or
  ``[[orchestrator.train.source]]`` table that sets its own sampling (or its own
  algorithm) makes those values unknown.
- Launches: ``uv run rl @ rl.toml --inference.vllm.logprobs-mode raw_logprobs``
  (``@`` files merged left to right, ``--section @ file`` mounted at a section,
  dotted kebab-case options, ``--flag`` / ``--no-flag``), and the standalone server
  ``uv run inference @ inference.toml --vllm.max-model-len 8192``, whose config is
  ``rl``'s ``[inference]`` table: no orchestrator, so nothing is switched on for it.
- ``uv run sft @ sft.toml``: with an ``[inference]`` table (online evals) the ``sft``
  launcher writes that table to ``inference.json`` and starts ``inference @ inference.json``
  (``entrypoints/sft.py``), the same server; the evals' requests come from its own
  ``[eval]`` table, not modelled here, so only the engine is checked.
- vLLM: prime-rl requires ``vllm>=0.26.0`` (0.8.0), a lower bound only, so it
  gives no target version.
"""

# An algorithm table changes which model samples train rollouts only for these types: every other
# (rl and ref_kl loss types) must sample from the live policy (configs/algorithm.py,
# BaseAlgoConfig.validate_sampling_source); "sft" may sample from a frozen model.
_LIVE_POLICY_ALGOS = ["grpo", "echo", "max_rl", "rae", "hierarchical_grpo", "opd", "opsd"]


def _algo(key: str) -> dict:
    return {"key": key, "unless": {"type": _LIVE_POLICY_ALGOS}}


_ALGO_TABLES = [_algo("orchestrator.train.algo"), _algo("orchestrator.algo")]

PACK = {
    "name": "prime-rl",
    "read_from": "PrimeIntellect-ai/prime-rl (newest: configs/rl.py, configs/orchestrator.py, configs/inference.py)",
    "markers": ["[inference", "enable_return_sampling_mask"],
    # An ``rl`` config: its inference server's settings, or a managed server next to the orchestrator.
    "detect": ["inference.enable_return_sampling_mask", "inference.vllm", "orchestrator+inference"],
    "formats": ["toml"],
    "own_configs": {},
    "implicit_base": True,
    "distribution": "prime-rl",
    "vllm_pins": {"0.8": ">=0.26.0"},
    # ``inference`` (a standalone server) reads what ``rl`` reads under ``[inference]``.
    "launchers": {
        "modules": [], "scripts": [], "commands": ["rl", "inference", "sft"], "mounts": {"inference": "inference"},
        # ``sft`` starts the same server for its online evals; their requests are not modelled.
        "engine_commands": ["sft"],
        "style": "pydantic-config",
    },
    "switches": [
        {
            # configs/rl.py auto_setup_sampling_mask_capture
            "key": "inference.enable_return_sampling_mask",
            "value": True,
            "requires": "inference",
            "items": "orchestrator.train.source",
            "inherit": "orchestrator.train",
            # A source with its own algorithm may sample from a frozen model, not the live policy.
            "item_unknown_if": [_algo("algo")],
            "unknown_if_written": _ALGO_TABLES,
            "when_any": [
                {"key": "sampling.top_p", "below": 1.0},
                {"key": "sampling.top_k", "set": True},
            ],
        },
    ],
    "engine": [
        {"key": "inference.enable_return_sampling_mask", "arg": "return_sampling_mask"},
        # InferenceConfig.to_namespace sets each key on the server's parsed arguments; VllmConfig
        # (configs/inference.py) types some of them first, and rejects what these do not admit
        # (the GPU layout divides by tensor_parallel_size: configs/rl.py, inference.py).
        {"prefix": "inference.vllm", "reaches": "serve-namespace", "framework_accepts": {
            "dtype": ["auto", "float16", "bfloat16", "float32"], "tensor_parallel_size": {"ge": 1}, "data_parallel_size": {"ge": 1},
            "data_parallel_size_local": {"ge": 1}, "data_parallel_rpc_port": {"ge": 1, "le": 65535},
            "api_server_count": {"ge": 0},
        }},
    ],
    "engine_unknown": ["model", "hf_overrides"],
    "sets": [
        {"args": {"logprobs_mode": "processed_logprobs"}, "unless_set": True},
        {"when": "return_sampling_mask", "env": {"VLLM_USE_V2_MODEL_RUNNER": "1"}},
    ],
    # What prime-rl's InferenceConfig passes besides [inference.vllm] (configs/inference.py,
    # configs/rl.py): its typed fields' defaults (vLLM's own, but for these), and the
    # data-parallel layout and LoRA it derives from the deployment and the trainer.
    "passes": [
        {"arg": "enable_eplb", "value": False},
        *({"arg": name} for name in ("enable_expert_parallel", "enable_prefix_caching", "enable_return_routed_experts")),
        *({"arg": name, "wins": "framework"} for name in (
            "data_parallel_size", "data_parallel_size_local", "api_server_count", "enable_lora", "max_lora_rank",
            "kv_transfer_config", "additional_config", "enable_auto_tool_choice",
        )),
    ],
    "request": [
        # Train requests of each live-policy source (resolve_env_config, to_sampling_args).
        {
            "key": "orchestrator.train.sampling.top_k", "param": "top_k", "group": "train",
            "present": "orchestrator.train.source", "null": -1,
            "null_when": [{"key": "orchestrator.train.sampling.top_p", "below": 1.0, "value": 512}],
            "items": {"list": "orchestrator.train.source", "keys": ["sampling.top_k", "sampling.top_p", _algo("algo")],
                      "unknown_if_written": _ALGO_TABLES},
        },
        {
            "key": "orchestrator.train.sampling.temperature", "param": "temperature", "group": "train",
            "present": "orchestrator.train.source",
            "items": {"list": "orchestrator.train.source", "keys": ["sampling.temperature", _algo("algo")],
                      "unknown_if_written": _ALGO_TABLES},
        },
        {
            "key": "orchestrator.eval.sampling.temperature", "param": "temperature", "group": "eval",
            "items": {"list": "orchestrator.eval.source", "keys": ["sampling.temperature"]},
        },
        {
            "key": "orchestrator.eval.sampling.top_k", "param": "top_k", "group": "eval",
            "items": {"list": "orchestrator.eval.source", "keys": ["sampling.top_k"]},
        },
    ],
    "defaults": {
        "orchestrator.train.sampling.temperature": 1.0,
        "orchestrator.train.sampling.top_p": 1.0,
        "orchestrator.train.sampling.top_k": None,
    },
}
