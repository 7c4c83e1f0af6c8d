"""OpenRLHF: its ``--vllm.*`` options of ``openrlhf.cli.train_ppo_ray``.

Read from OpenRLHF/OpenRLHF (HEAD 3c3be62, 2026-08-13):
``openrlhf/cli/train_ppo_ray.py`` maps a fixed set of options
(``--vllm.enable_prefix_caching``, ``--vllm.enforce_eager``,
``--vllm.gpu_memory_utilization``, ...) to ``create_vllm_engines``
(``openrlhf/trainer/ray/vllm_engine.py``), which passes them to each engine's
``LLM`` with its own (``dtype="bfloat16"``, ``trust_remote_code``, the executor
backend), and sets ``logprobs_mode="processed_logprobs"`` when
``--algo.advantage.is_correction_enable`` is given.  The launch's options are
read as argparse reads them (``--a.b value``, a bare ``--flag`` for a switch),
so the options it maps get the argument rules.  No option reaches
``return_sampling_mask`` and there is no pass-through of engine arguments, so
replay cannot be switched on from its command line: no replay finding.  (Before
the dotted option names, releases up to 0.9 spelled them ``--vllm_*``; those
spellings are not read.)  OpenRLHF 0.11's ``vllm`` extra pins ``vllm==0.27.1``;
its ``vllm_latest`` extra only bounds it below (no target).
"""

PACK = {
    "name": "openrlhf",
    "read_from": "OpenRLHF/OpenRLHF 3c3be62 (cli/train_ppo_ray.py, trainer/ray/vllm_engine.py)",
    "markers": [],
    "detect": [],
    "own_configs": {},
    "implicit_base": True,
    "distribution": "openrlhf",
    "vllm_pins": {"0.11": {"vllm": "==0.27.1", "vllm_latest": ">=0.27.1"}},
    # Options as argparse reads them: ``--vllm.gpu_memory_utilization 0.6``, ``--vllm.enforce_eager``.
    "launchers": {"modules": ["openrlhf.cli.train_ppo_ray"], "scripts": [], "style": "argparse"},
    # The options create_vllm_engines passes to each engine's ``LLM`` (vllm_engine.py actor_kwargs).
    "engine": [
        # The engines' placement bundles are counted with it first (a size below 1 fails there).
        {"key": "vllm.tensor_parallel_size", "arg": "tensor_parallel_size", "framework_accepts": {"ge": 1}},
        {"key": "vllm.gpu_memory_utilization", "arg": "gpu_memory_utilization"},
        {"key": "vllm.enforce_eager", "arg": "enforce_eager"},
        {"key": "vllm.enable_prefix_caching", "arg": "enable_prefix_caching"},
        {"key": "vllm.enable_sleep", "arg": "enable_sleep_mode"},
        {"key": "data.max_len", "arg": "max_model_len"},
    ],
    # What vllm_engine.create_vllm_engines passes to each ``LLM`` besides the options above.
    "passes": [
        {"arg": "dtype", "value": "bfloat16", "wins": "framework"},
        {"arg": "trust_remote_code", "value": True, "wins": "framework"},
        *({"arg": name, "wins": "framework"} for name in (
            "distributed_executor_backend", "seed", "worker_extension_cls", "limit_mm_per_prompt", "logprobs_mode",
            "max_logprobs", "enable_lora", "max_loras", "max_lora_rank",
        )),
    ],
    "request": [],
    # The options' argparse defaults (train_ppo_ray.py).
    "defaults": {
        "vllm.tensor_parallel_size": 1,
        "vllm.gpu_memory_utilization": 0.95,
        "vllm.enforce_eager": False,
        "vllm.enable_prefix_caching": False,
        "vllm.enable_sleep": False,
        "data.max_len": 2048,
    },
}
