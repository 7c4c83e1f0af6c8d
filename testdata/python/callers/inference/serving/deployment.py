"""A Ray Serve deployment that builds its engine from the keywords it is bound with: every
binding in the project passes literal keywords (``app.py``), none a logprobs mode."""
from ray import serve
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine


@serve.deployment(name="LLMServer")
class LLMServer:
    def __init__(self, **kwargs):
        args = AsyncEngineArgs(**kwargs, return_sampling_mask=True)  # expect: VLM105
        self.engine = AsyncLLMEngine.from_engine_args(args)


@serve.deployment(name="TunedServer")
class TunedServer:
    """Bound once with the mode replay needs, once with a mode from the environment."""

    def __init__(self, model: str, logprobs_mode: str = "raw_logprobs"):
        args = AsyncEngineArgs(model=model, return_sampling_mask=True, logprobs_mode=logprobs_mode)
        self.engine = AsyncLLMEngine.from_engine_args(args)
