"""verl: what its vLLM rollout forwards to the engine and to every request.

Read from volcengine/verl 0.8.0.dev (HEAD b178a3c, 2026-01-29):
``verl/trainer/config/rollout/rollout.yaml`` (the defaults) and
``verl/workers/rollout/vllm_rollout/vllm_async_server.py`` (the engine
arguments: the rollout's own keys first, then ``engine_kwargs.vllm`` splatted
over them with ``None`` values dropped; ``top_k``/``temperature`` become the
server's ``override_generation_config`` and every request's sampling params).
Validation requests (``trainer.val_before_train: True``, the default: verl
validates before training) take ``rollout.val_kwargs`` instead, whose defaults
are greedy (``temperature: 0``, ``top_k: -1``).
``logprobs_mode: processed_logprobs`` arrived with the rollout config's
``logprobs_mode`` key in v0.7.0 (commit 7a82f2e, "Add vllm logprob mode and default
processed_logprob"; ``rollout.yaml`` and ``vllm_async_server.py`` pass it); the tags
v0.1 to v0.6.1 have no ``logprobs_mode`` anywhere in ``verl/``, so vLLM's
``raw_logprobs`` applied.  A fork of verl runs the release its own
``verl/version/version`` records when the project pins none.  A vLLM-only key (``engine_kwargs.vllm.*``) is read as
meaning a vLLM rollout unless ``rollout.name`` is certainly another backend.
verl 0.8's ``vllm`` extra requires ``vllm>=0.8.5,<=0.12.0`` (``setup.py``):
releases without replay, so a project that pins ``verl[vllm]==0.8.*`` and not
vLLM hears that ``return_sampling_mask`` does not exist there.
"""

PACK = {
    "name": "verl",
    "read_from": "volcengine/verl 0.8.0.dev (rollout/rollout.yaml, vllm_rollout/vllm_async_server.py)",
    "markers": ["actor_rollout_ref", "ppo_trainer"],
    # A config is verl's when it has one of these key paths.
    "detect": ["actor_rollout_ref.rollout"],
    # The framework's own config files, and the key path each is mounted at.
    "own_configs": {"verl/trainer/config/rollout/rollout.yaml": "actor_rollout_ref.rollout"},
    "distribution": "verl",
    "version_file": "verl/version/version",
    # The vLLM its extras require, per verl release line (setup.py).
    "vllm_pins": {"0.8": {"vllm": ">=0.8.5,<=0.12.0"}},
    # Hydra: verl's config folder (its config groups), and the options of its primary configs'
    # defaults lists, which the recorded defaults stand for (ppo_trainer.yaml, ppo_megatron_trainer.yaml).
    "config_root": "verl/trainer/config",
    "groups": {
        "rollout/rollout": "actor_rollout_ref.rollout",
        "actor/dp_actor": "actor_rollout_ref.actor",
        "actor/megatron_actor": "actor_rollout_ref.actor",
        "ref/dp_ref": "actor_rollout_ref.ref",
        "ref/megatron_ref": "actor_rollout_ref.ref",
        "model/hf_model": "actor_rollout_ref.model",
        "data/legacy_data": "data",
        "critic/dp_critic": "critic",
        "critic/megatron_critic": "critic",
        "reward_model/dp_reward_loop": "reward_model",
        "reward_model/megatron_reward_loop": "reward_model",
        "algorithm/rollout_correction": "algorithm.rollout_correction",
    },
    # Hydra composes every config over the entry point's own (ppo_trainer).
    "implicit_base": True,
    "launchers": {
        "modules": ["verl.trainer.main_ppo", "verl.trainer.main_generation", "recipe.dapo.main_dapo"],
        # A standalone rollout server over the same config (verl/trainer/main_generation_server.py);
        # with verl's source in the tree or installed, any module whose ``@hydra.main`` composes
        # ppo_trainer or ppo_megatron_trainer is an entry point too.
        "engine_modules": ["verl.trainer.main_generation_server"],
        "composes": [
            ["@hydra.main(", 'config_name="ppo_trainer"'],
            ["@hydra.main(", 'config_name="ppo_megatron_trainer"'],
        ],
        "scripts": [],
        # The primary configs; a module whose ``@hydra.main`` names one, or whose own config's
        # defaults list composes one (one_step_off_ppo_trainer.yaml), is an entry point too.
        "config_names": ["ppo_trainer", "ppo_megatron_trainer", "_generated_ppo_trainer"],
        # An entry point that calls ``run_ppo(`` (main_ppo's, or transfer_queue's own) runs the
        # PPO loop: its agent loop sends the rollout's sampling settings as every request's.
        "sends": [["run_ppo("]],
    },
    # Only a vLLM rollout builds the engine; another backend means nothing to check.
    "backend": {"key": "actor_rollout_ref.rollout.name", "values": ["vllm"]},
    "engine": [
        # vllm_async_server.launch_server's ``args``: the rollout's own keys, rendered as `vllm serve`
        # options by build_cli_args_from_config (None left out, false left out, true a bare flag).
        *({"key": f"actor_rollout_ref.rollout.{key}", "arg": arg, "reaches": "serve-argv"} for key, arg in (
            ("dtype", "dtype"), ("max_num_seqs", "max_num_seqs"), ("enable_chunked_prefill", "enable_chunked_prefill"),
            ("max_num_batched_tokens", "max_num_batched_tokens"), ("enable_prefix_caching", "enable_prefix_caching"),
            ("enable_sleep_mode", "enable_sleep_mode"), ("logprobs_mode", "logprobs_mode"),
            ("enforce_eager", "enforce_eager"), ("gpu_memory_utilization", "gpu_memory_utilization"),
            ("disable_log_stats", "disable_log_stats"), ("scheduling_policy", "scheduling_policy"), ("quantization", "quantization"),
            ("enable_rollout_routing_replay", "enable_return_routed_experts"),
        )),
        # The workers' device mesh is sized with it first (a size below 1 fails there).
        {"key": "actor_rollout_ref.rollout.tensor_model_parallel_size", "arg": "tensor_parallel_size", "reaches": "serve-argv",
         "framework_accepts": {"ge": 1}},
        # Expert parallelism (expert_parallel_size > 1, which RolloutConfig requires to be TP x DP):
        # the flag, and the rollout's data-parallel size with it.
        {"key": "actor_rollout_ref.rollout.expert_parallel_size", "arg": "enable_expert_parallel", "above": 1, "reaches": "serve-argv"},
        {"key": "actor_rollout_ref.rollout.data_parallel_size", "arg": "data_parallel_size", "reaches": "serve-argv",
         "when": {"key": "actor_rollout_ref.rollout.expert_parallel_size", "above": 1}, "framework_accepts": {"ge": 1}},
        # null: the model's max_position_embeddings (the server's __init__).
        {"key": "actor_rollout_ref.rollout.max_model_len", "arg": "max_model_len", "reaches": "serve-argv", "null": "run-time"},
        # "dummy" becomes "auto" outside the hybrid rollout mode, which is chosen at run time.
        {"key": "actor_rollout_ref.rollout.load_format", "arg": "load_format", "reaches": "serve-argv", "replaced": ["dummy*"]},
        {"prefix": "actor_rollout_ref.rollout.engine_kwargs.vllm", "reaches": "serve-argv"},
        # Put into engine_kwargs when set, over a cuda_graph_sizes written there.
        {"key": "actor_rollout_ref.rollout.cudagraph_capture_sizes", "arg": "cuda_graph_sizes", "reaches": "serve-argv", "unless_empty": True},
    ],
    # Set by the framework from runtime state (the model path, quantisation overrides).
    "engine_unknown": ["model", "hf_overrides"],
    # What vllm_async_server.launch_server passes on its own ("args"), under engine_kwargs.vllm
    # (splatted last, so a key written there wins); those it sets from run-time state are unknown.
    # The rollout's own keys above are passed always: their values, as the engine entries read them.
    "passes": [
        *({"arg": name} for name in (
            "dtype", "load_format", "max_model_len", "max_num_seqs", "enable_chunked_prefill", "max_num_batched_tokens",
            "enable_prefix_caching", "enable_sleep_mode", "logprobs_mode", "enforce_eager", "gpu_memory_utilization",
            "disable_log_stats", "tensor_parallel_size", "scheduling_policy", "quantization", "enable_return_routed_experts",
            "cuda_graph_sizes",
        )),
        {"arg": "distributed_executor_backend", "value": "mp"},
        # Expert parallelism (above), multi-node launches, LoRA, MTP.
        *({"arg": name} for name in (
            "enable_expert_parallel", "data_parallel_size", "data_parallel_size_local", "data_parallel_start_rank",
            "data_parallel_address", "data_parallel_rpc_port", "nnodes", "node_rank", "master_addr", "master_port",
            "enable_lora", "max_loras", "max_lora_rank", "fully_sharded_loras", "speculative_config",
            "compilation_config", "seed", "served_model_name", "limit_mm_per_prompt", "worker_extension_cls",
            "skip_tokenizer_init", "trust_remote_code", "override_generation_config",
        )),
    ],
    "request": [
        {"key": "actor_rollout_ref.rollout.top_k", "param": "top_k"},
        {"key": "actor_rollout_ref.rollout.temperature", "param": "temperature"},
        {"key": "actor_rollout_ref.rollout.top_p", "param": "top_p"},
        # Validation requests (ray_trainer._validate, before training when val_before_train).
        {"key": "actor_rollout_ref.rollout.val_kwargs.top_k", "param": "top_k", "group": "validation", "requires": "trainer.val_before_train"},
        {"key": "actor_rollout_ref.rollout.val_kwargs.temperature", "param": "temperature", "group": "validation", "requires": "trainer.val_before_train"},
    ],
    "defaults": {
        "actor_rollout_ref.rollout.top_k": -1,
        "actor_rollout_ref.rollout.temperature": 1.0,
        "actor_rollout_ref.rollout.top_p": 1,
        "actor_rollout_ref.rollout.enforce_eager": False,
        "actor_rollout_ref.rollout.expert_parallel_size": 1,
        # Put into the server's arguments only when set (vllm_async_server.py).
        "actor_rollout_ref.rollout.cudagraph_capture_sizes": None,
        # RolloutConfig's own defaults (verl/workers/config/rollout.py, rollout/rollout.yaml).
        "actor_rollout_ref.rollout.enable_sleep_mode": True,
        "actor_rollout_ref.rollout.tensor_model_parallel_size": 2,
        "actor_rollout_ref.rollout.val_kwargs.top_k": -1,
        "actor_rollout_ref.rollout.val_kwargs.temperature": 0,
        "trainer.val_before_train": True,
        # Per framework release (first release with the value): unknown version and different values -> unknown.
        "actor_rollout_ref.rollout.logprobs_mode": {"0.1": None, "0.7": "processed_logprobs"},
    },
}
