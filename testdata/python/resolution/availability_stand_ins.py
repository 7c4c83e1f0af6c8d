"""vLLM imported where it is installed, stand-ins bound where it is not (so that the module
still imports): without vLLM no engine is built, so the names are vLLM's wherever one is."""
from unittest.mock import Mock

from packaging.version import Version

from evalkit.utils.imports import is_package_available

if is_package_available("vllm"):
    import vllm
    from vllm import LLM, SamplingParams

    VLLM_GE_0_14 = Version(vllm.__version__) >= Version("0.14.0")
else:
    LLM = SamplingParams = Mock()
    VLLM_GE_0_14 = False

if not is_package_available("sglang"):
    Engine = None
else:
    from sglang import Engine


class VLLMModel:
    def __init__(self, config):
        self.model_args = {
            "model": config.model_name,
            "gpu_memory_utilization": config.gpu_memory_utilization,
            "dtype": config.dtype,
        }
        if config.quantization is not None:
            self.model_args["quantization"] = config.quantization

    def create_model(self):
        return LLM(**self.model_args, return_sampling_mask=True)  # expect: VLM105


class SGLangModel:
    """Another engine behind the same kind of guard: not vLLM's."""

    def create_model(self, config):
        return Engine(model_path=config.model_name, return_sampling_mask=True)
