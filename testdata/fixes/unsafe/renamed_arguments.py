# target-version: 0.13
"""Arguments vLLM 0.13 no longer has, replaced by the successors vLLM's deprecation text names."""
import subprocess

from vllm import LLM, EngineArgs

vision = LLM(
    "Qwen/Qwen3-VL-8B-Instruct",
    disable_mm_preprocessor_cache=True,  # the cache costs too much host memory here
    enable_multimodal_encoder_data_parallel=True,
)
graphs = EngineArgs(model="Qwen/Qwen3-8B", cuda_graph_sizes=[8, 16, 32])

settings = {"model": "Qwen/Qwen3-VL-8B-Instruct", 'disable_mm_preprocessor_cache': (True)}
from_dict = LLM(**settings)

# An attribute set on the dataclass raises no TypeError: not reported.
args = EngineArgs(model="Qwen/Qwen3-8B")
args.cuda_graph_sizes = [8, 16]

# Switched off: vLLM documents no successor for "off", so nothing is rewritten.
kept = LLM("Qwen/Qwen3-VL-8B-Instruct", disable_mm_preprocessor_cache=False)
# Replaced by --runner or --convert depending on the model: named, never rewritten.
embedder = LLM("BAAI/bge-m3", task="embed")
# The successor is already there: renaming would give it twice.
both = LLM("Qwen/Qwen3-8B", cuda_graph_sizes=[8], cudagraph_capture_sizes=[16])

server = subprocess.Popen(
    ["vllm", "serve", "Qwen/Qwen3-VL-8B-Instruct", "--disable-mm-preprocessor-cache", "--cuda-graph-sizes=8"]
)
