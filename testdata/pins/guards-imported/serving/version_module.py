from packaging import version
from vllm import LLM
from vllm.version import __version__

if version.parse(__version__) < version.parse("0.13"):
    engine = LLM(model="BAAI/bge-m3", task="embed")
else:
    engine = LLM(model="BAAI/bge-m3", runner="pooling", task="embed")  # expect: VLM301
