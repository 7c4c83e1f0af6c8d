"""What the installed vLLM supports, computed once for the package."""
from packaging.version import Version
from vllm.version import __version__ as VLLM_VERSION

VLLM_GE_0_13 = Version(VLLM_VERSION) >= Version("0.13.0")
