"""OpenRLHF: its ``--vllm.*`` options of ``openrlhf.cli.train_ppo_ray``.

Read from OpenRLHF/OpenRLHF (HEAD 3c3be62, 2026-08-13):
``openrlhf/cli/train_ppo_ray.py`` maps a fixed set of options
(``--vllm.enable_prefix_caching``, ``--vllm.enforce_eager``,
``--vllm.gpu_memory_utilization``, ...) to ``create_vllm_engines``, and sets
``logprobs_mode="processed_logprobs"`` when ``--algo.advantage.is_correction_enable``
is given.  No option reaches ``return_sampling_mask`` and there is no
pass-through of engine arguments, so replay cannot be switched on from its
command line: the pack recognises the launch and reports nothing.  (Before
the dotted option names, releases up to 0.9 spelled them ``--vllm_*``; they
forwarded no replay setting either.)  OpenRLHF 0.11's ``vllm`` extra pins
``vllm==0.27.1``; its ``vllm_latest`` extra only bounds it below (no target).
"""

PACK = {
    "name": "openrlhf",
    "read_from": "OpenRLHF/OpenRLHF 3c3be62 (cli/train_ppo_ray.py)",
    "markers": [],
    "detect": [],
    "own_configs": {},
    "implicit_base": True,
    "distribution": "openrlhf",
    "vllm_pins": {"0.11": {"vllm": "==0.27.1", "vllm_latest": ">=0.27.1"}},
    "launchers": {"modules": ["openrlhf.cli.train_ppo_ray"], "scripts": [], "argparse": True},
    "engine": [],
    # What vllm_engine.create_vllm_engines passes to ``AsyncEngineArgs`` from its command-line
    # options (``--vllm_enable_sleep``, ``--vllm_tensor_parallel_size``, ...): not read by the pack.
    "passes": [
        *({"arg": name, "wins": "framework"} for name in (
            "enable_sleep_mode", "distributed_executor_backend", "tensor_parallel_size", "enforce_eager", "seed",
            "max_model_len", "enable_prefix_caching", "dtype", "gpu_memory_utilization", "worker_extension_cls",
            "limit_mm_per_prompt", "logprobs_mode", "max_logprobs", "enable_lora", "max_loras", "max_lora_rank",
        )),
    ],
    "request": [],
    "defaults": {},
}
