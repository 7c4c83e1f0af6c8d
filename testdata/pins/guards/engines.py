"""Engines for every vLLM from 0.10 to 0.15: each arm runs on the releases its guard admits."""
import inspect

import torch
import vllm
from packaging import version
from packaging.version import Version
from vllm import LLM

VLLM_VERSION = Version(vllm.__version__)
HAS_TASK = "task" in inspect.signature(LLM.__init__).parameters
VLLM_GE_0_13 = version.parse(vllm.__version__) >= version.parse("0.13.0")


def embedder(model):
    if Version(vllm.__version__) >= Version("0.13.0"):
        return LLM(model, runner="pooling")
    return LLM(model, task="embed")  # 0.10-0.12 only: they have task


def embedder_wrong_way_round(model):
    if VLLM_GE_0_13:
        return LLM(model, task="embed")  # expect: VLM301
    return LLM(model, runner="pooling")


def legacy(model):
    if VLLM_VERSION < Version("0.10"):
        return LLM(model, use_v2_block_manager=True)  # no admitted release runs this arm
    return LLM(model, use_v2_block_manager=True)  # expect: VLM301


def by_string(model):
    vllm_version = vllm.__version__
    if vllm_version >= "0.10":
        return LLM(model, swap_space=4)
    return LLM(model, num_scheduler_steps=8)  # "0.1x" >= "0.10" on every admitted release


def by_signature(model):
    if HAS_TASK:
        return LLM(model, task="embed")
    return LLM(model, runner="pooling")


def by_keyword_check(model):
    if "task" not in inspect.signature(LLM).parameters:
        return LLM(model, runner="pooling", swap_space=4)
    return LLM(model, task="embed")


def fallback(model):
    try:
        return LLM(model, runner="pooling", convert="embed")
    except TypeError:
        # runner and convert exist on every admitted release: never reached.
        return LLM(model, task="embed", num_scheduler_steps=1)


def fallback_to_wrong(model):
    try:
        return LLM(model, gpu_memory_utilisation=0.8)  # the TypeError is caught
    except TypeError:
        return LLM(model, use_v2_block_manager=True)  # expect: VLM301


def feature_test(model):
    if hasattr(vllm, "PoolingParams"):
        return LLM(model, use_v2_block_manager=True)  # a feature guard: its releases are unknown
    return LLM(model)


def torch_guard(model):
    # torch's version is not vLLM's: both arms run on every admitted release.
    if version.parse(torch.__version__) >= version.parse("2.6"):
        return LLM(model, use_v2_block_manager=True)  # expect: VLM301
    return LLM(model)


class GuidedServer:
    """A helper that returns early on releases without a feature guards its own rest only: the
    caller builds the engine after it on every release."""

    def _init_structured_outputs(self):
        if not (VLLM_VERSION >= Version("0.12.0")):
            return
        self.structured = True

    def load(self, model):
        self._init_structured_outputs()
        # guided_decoding_backend is gone from 0.12 on, but 0.10-0.11 still take it.
        self.llm = LLM(model, guided_decoding_backend="xgrammar")
