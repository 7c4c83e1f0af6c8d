"""The built-in framework packs: one data module per framework.

``MARKERS`` is all that is read before a file needs a pack: the bytes whose
presence makes a file worth parsing as that framework's config or launch
script.  A pack module is imported only when its markers match.
"""

from __future__ import annotations

import importlib

# The framework's own config files (paths in its repository): read as its configs whatever they hold.
OWN_CONFIGS = {
    "verl": ("verl/trainer/config/rollout/rollout.yaml",),
    "nemo-rl": ("examples/configs/grpo_math_1B.yaml",),
}

# pack name -> (module, byte markers of its configs, byte markers of its launch commands)
BUILTIN = {
    "verl": ("verl", (b"actor_rollout_ref", b"ppo_trainer"), (b"verl.trainer", b"main_dapo")),
    "nemo-rl": ("nemo_rl", (b"vllm_kwargs", b"vllm_cfg"), (b"run_grpo", b"run_distillation", b"run_ppo")),
    "roll": ("roll", (b"strategy_args",), (b"start_rlvr_pipeline", b"start_agentic_pipeline")),
    "skyrl": ("skyrl", (b"inference_engine",), (b"main_base", b"skyrl_train.entrypoints", b"skyrl.train.entrypoints")),
    "openrlhf": ("openrlhf", (), (b"train_ppo_ray",)),
    "prime-rl": ("prime_rl", (b"[inference", b"enable_return_sampling_mask"), (b"prime_rl", b"uv run rl", b"rl @", b"run inference", b"run sft", b"sft @")),
}


def load(name: str) -> dict:
    module = importlib.import_module(f"vllm_lint.frameworks.packs.{BUILTIN[name][0]}")
    return module.PACK


def load_pack(name: str):
    from vllm_lint.frameworks.pack import pack_from_data

    if name not in _LOADED:
        _LOADED[name] = pack_from_data(load(name))
    return _LOADED[name]


_LOADED: dict = {}


# Substring tests (bytes.find is far faster than a regex alternation); the per-pack
# test runs only when some marker is there.
_CONFIG_MARKERS = tuple(m for _, markers, _ in BUILTIN.values() for m in markers)
# Packs whose entry points are also found in the framework's source (``launchers.composes``): a
# project's own entry point (``python -m myproj.train``, ``uv run tools/run_async.py``) has no
# launch marker, but the overrides that reach the engine name these keys (one marker each: every
# one more is a scan of every command file).  ROLL's launches take no overrides; its entry
# scripts are all ``start_*_pipeline.py``.
DERIVED_ENTRY_POINTS = {
    "verl": (b"actor_rollout_ref",),
    "skyrl": (b"inference_engine",),
    "nemo-rl": (b"generation.vllm_",),
    "roll": (b"_pipeline.py",),
}
_LAUNCH_MARKERS = tuple(m for _, _, markers in BUILTIN.values() for m in markers) + tuple(
    m for markers in DERIVED_ENTRY_POINTS.values() for m in markers
)
_OWN_CONFIG_NAMES = tuple({own.rsplit("/", 1)[-1] for paths in OWN_CONFIGS.values() for own in paths})


def config_candidates(data: bytes, path: str = "") -> list[str]:
    normalized = path.replace("\\", "/")
    if not any(m in data for m in _CONFIG_MARKERS) and not normalized.endswith(_OWN_CONFIG_NAMES):
        return []
    return [
        name
        for name, (_, markers, _) in BUILTIN.items()
        if any(m in data for m in markers) or any(normalized.endswith("/" + own) for own in OWN_CONFIGS.get(name, ()))
    ]


def launch_candidates(data: bytes) -> list[str]:
    if not any(m in data for m in _LAUNCH_MARKERS):
        return []
    return [
        name
        for name, (_, _, markers) in BUILTIN.items()
        if any(m in data for m in markers) or any(m in data for m in DERIVED_ENTRY_POINTS.get(name, ()))
    ]
