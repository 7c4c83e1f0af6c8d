"""prime-rl: the ``rl`` entry point's TOML config, its replay switch and what it sets itself.

Read from PrimeIntellect-ai/prime-rl's newest sources (the ``rl`` config's
``auto_setup_sampling_mask_capture``, ``configs/inference.py`` and the
inference server's ``setup_vllm_env``); snapshots before August 2026 have no
replay.  ``[inference] enable_return_sampling_mask = true`` (which ``rl`` also
turns on by itself for truncated train sampling) starts vLLM with
``return_sampling_mask``, ``logprobs_mode = "processed_logprobs"`` unless
``[inference.vllm]`` sets another, and ``VLLM_USE_V2_MODEL_RUNNER=1``.
``[inference.vllm]`` keys are vLLM's own arguments.  ``[orchestrator.eval.sampling]``
reaches every eval request to the same server: prime-rl only warns that greedy
or unbounded eval requests are rejected while capture is on.  (The
automatic switch is not modelled: when only truncated sampling turns replay on,
nothing is reported.)
"""

PACK = {
    "name": "prime-rl",
    "read_from": "PrimeIntellect-ai/prime-rl (newest: configs/inference.py, configs/rl.py, inference/server.py)",
    "markers": ["[inference", "enable_return_sampling_mask"],
    "detect": ["inference.enable_return_sampling_mask", "inference.vllm"],
    "formats": ["toml"],
    "own_configs": {},
    "implicit_base": True,
    "distribution": "prime-rl",
    "launchers": {"modules": [], "scripts": [], "commands": []},
    "engine": [
        {"key": "inference.enable_return_sampling_mask", "arg": "return_sampling_mask"},
        {"prefix": "inference.vllm"},
    ],
    "engine_unknown": ["model", "hf_overrides"],
    "sets": [
        {
            "when": "return_sampling_mask",
            "args": {"logprobs_mode": "processed_logprobs"},
            "unless_set": True,
            "env": {"VLLM_USE_V2_MODEL_RUNNER": "1"},
        },
    ],
    "request": [
        {"key": "orchestrator.eval.sampling.temperature", "param": "temperature", "group": "eval"},
        {"key": "orchestrator.eval.sampling.top_k", "param": "top_k", "group": "eval"},
    ],
    "defaults": {},
}
