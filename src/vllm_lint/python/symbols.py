"""Which imported names are vLLM's engine and request classes.

Only names that resolve to a module under ``vllm`` count: a class named
``LLM`` from another library, or defined locally, is not an engine.
"""

from __future__ import annotations

from dataclasses import dataclass

# Public classes the analysis understands, by the name vLLM exports them under.
ENGINE_CONSTRUCTORS = frozenset({"LLM"})
ARGS_CONSTRUCTORS = frozenset({"EngineArgs", "AsyncEngineArgs"})
CONFIG_CONSTRUCTORS = frozenset({"ModelConfig", "ParallelConfig", "SpeculativeConfig", "VllmConfig"})
ENGINE_FACTORIES = frozenset({"LLM", "AsyncLLM", "AsyncLLMEngine", "LLMEngine"})
REQUEST_CONSTRUCTORS = frozenset({"SamplingParams"})
# Functions of vLLM that build an engine from an ``EngineArgs`` object (their first argument)
# and only read it: ``engine_args.create_engine_config()``, then an engine from that config; no
# attribute of the object is written (docs/resolution.md lists their files per release).
ENGINE_ARGS_FUNCTIONS = frozenset({
    # vllm/entrypoints/openai/api_server.py (0.8-0.33; 0.34: vllm/entrypoints/launchers/api_server/entry.py)
    "build_async_engine_client_from_engine_args",
    # vllm/model_executor/model_loader/tensorizer.py (0.8-0.34): serializes the model it loads
    "tensorize_vllm_model",
})

KNOWN_CLASSES = ENGINE_CONSTRUCTORS | ARGS_CONSTRUCTORS | CONFIG_CONSTRUCTORS | ENGINE_FACTORIES | REQUEST_CONSTRUCTORS


@dataclass(frozen=True)
class VllmModule:
    """``import vllm`` / ``import vllm.config as c``: attribute access may reach a class."""

    path: str


@dataclass(frozen=True)
class VllmClass:
    name: str  # one of KNOWN_CLASSES


def is_vllm_module(module: str | None) -> bool:
    return module is not None and (module == "vllm" or module.startswith("vllm."))


def resolve_from_import(module: str | None, name: str) -> object | None:
    """``from <module> import <name>``: the vLLM symbol it binds, if any."""
    if not is_vllm_module(module):
        return None
    if name in KNOWN_CLASSES:
        return VllmClass(name)
    return VllmModule(f"{module}.{name}")


def attribute_of(module: VllmModule, attr: str) -> object:
    """``<vllm module>.<attr>``."""
    if attr in KNOWN_CLASSES:
        return VllmClass(attr)
    return VllmModule(f"{module.path}.{attr}")
