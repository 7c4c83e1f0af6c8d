from vllm import LLM

# The image only serves (vLLM's own entrypoint): this script is not run in it, nothing pins it.
pooled = LLM(model="BAAI/bge-m3", runner="pooling")
