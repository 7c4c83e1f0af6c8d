"""vllm-lint: find vLLM sampling distribution replay configurations that vLLM rejects."""

__version__ = "0.1.0"
