"""Import a real vLLM release on a machine without a GPU, for the oracles that run vLLM's own code.

    import real_vllm; real_vllm.prepare()      # before anything imports vllm

The patches, all of them (none changes a validation rule):

1. ``vllm._C`` and the other compiled op libraries are empty modules: they
   register CUDA kernels, which argument parsing and config validation never
   call (a CPU build of torch cannot load them anyway).
2. The platform is vLLM's own ``CudaPlatform`` (``vllm.platforms._current_platform``),
   set before vLLM resolves it: without a GPU, vLLM's detection finds no
   platform and ``DeviceConfig`` fails with "Failed to infer device type".

``VLLM_REAL_SOURCE`` (a folder holding a ``vllm`` package unpacked from a wheel)
is put first on ``sys.path``, so one environment can import other releases' Python
code; otherwise the installed vllm is imported.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
import types

COMPILED = ("vllm._C", "vllm._C_stable_libtorch", "vllm._moe_C", "vllm._moe_C_stable_libtorch", "vllm._rocm_C", "vllm.cumem_allocator")


class _Stubs(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Any ``vllm._*C*`` compiled library: an empty module."""

    def find_spec(self, name, path=None, target=None):
        tail = name.rsplit(".", 1)[-1]
        if name.startswith("vllm.") and name.count(".") == 1 and (name in COMPILED or (tail.startswith("_") and "C" in tail)):
            return importlib.machinery.ModuleSpec(name, self)
        return None

    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        module.__file__ = "<stub>"
        return module

    def exec_module(self, module):
        return None


PATCHES = (
    "compiled op libraries (vllm._C, vllm._C_stable_libtorch, vllm._moe_C, ...) are empty modules",
    "the current platform is vLLM's CudaPlatform (no GPU to detect)",
)


def prepare() -> None:
    source = os.environ.get("VLLM_REAL_SOURCE")
    if source:
        sys.path.insert(0, source)
    sys.meta_path.insert(0, _Stubs())
    os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")
    os.environ.setdefault("VLLM_USAGE_STATS_SERVER", "")
    os.environ.setdefault("VLLM_NO_USAGE_STATS", "1")
    os.environ.setdefault("VLLM_DO_NOT_TRACK", "1")
    import vllm.platforms as platforms
    from vllm.platforms.cuda import CudaPlatform

    platforms._current_platform = CudaPlatform()


def version() -> str:
    import vllm

    return getattr(vllm, "__version__", "?")
