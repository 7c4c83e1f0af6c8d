"""More engine entry points: create_engine_config, from_vllm_config, from_engine_args, async request streams."""
from vllm import AsyncEngineArgs, EngineArgs, LLMEngine, SamplingParams
from vllm.engine.async_llm_engine import AsyncLLMEngine
from vllm.v1.engine.async_llm import AsyncLLM

MODEL = "Qwen/Qwen3-8B"


class RolloutEngine:
    """A project engine class that takes a ready VllmConfig."""

    def __init__(self, vllm_config):
        self.config = vllm_config


def engine_from_config():
    engine_args = EngineArgs(model=MODEL, return_sampling_mask=True, logprobs_mode="raw_logprobs")  # expect: VLM105
    vllm_config = engine_args.create_engine_config()
    return LLMEngine.from_vllm_config(vllm_config)


def project_engine_from_config():
    engine_args = AsyncEngineArgs(model=MODEL, return_sampling_mask=True)  # expect: VLM105
    return RolloutEngine(engine_args.create_engine_config())


def valid_config():
    engine_args = AsyncEngineArgs(model=MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    return AsyncLLM.from_vllm_config(engine_args.create_engine_config())


def v0_style_engine():
    engine_args = AsyncEngineArgs(model=MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    return AsyncLLMEngine.from_engine_args(engine_args)


async def stream(prompt, request_id):
    engine_args = AsyncEngineArgs(model=MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    engine = AsyncLLM.from_engine_args(engine_args)
    params = SamplingParams(temperature=1.0, top_k=-1, max_tokens=64)  # expect: VLM202
    final = None
    async for output in engine.generate(prompt, params, request_id):
        final = output
    return final


async def stream_valid(prompt, request_id):
    engine = AsyncLLM.from_engine_args(
        AsyncEngineArgs(model=MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    )
    async for output in engine.generate(prompt, SamplingParams(temperature=0.7, top_k=50), request_id):
        yield output
