"""Start-up checks on EngineArgs objects: vLLM validates them when an engine is built from them."""
# target-version: 0.34
import asyncio

from vllm import AsyncEngineArgs, EngineArgs, LLMEngine
from vllm.entrypoints.openai.api_server import build_async_engine_client_from_engine_args
from vllm.v1.engine.async_llm import AsyncLLM

MODEL = "Qwen/Qwen3-8B"
MOE = "Qwen/Qwen3-30B-A3B"

# Reported where the value is written, once the object reaches an engine.
prepared = EngineArgs(model=MODEL, checkpoint_prepare_on_startup=True)  # expect: VLM404:36
engine = LLMEngine.from_engine_args(prepared)

elastic = AsyncEngineArgs(model=MOE, tensor_parallel_size=2, enable_elastic_ep=True)  # expect: VLM401:62
async_engine = AsyncLLM.from_engine_args(elastic)

# create_engine_config() is where vLLM runs the config classes' checks.
dcp_config = EngineArgs(model=MODEL, tensor_parallel_size=2, decode_context_parallel_size=4).create_engine_config()  # expect: VLM401

# Attributes set on the object before the engine is built count.
tolerant = AsyncEngineArgs(model=MOE)
tolerant.enable_fault_tolerance = True  # expect: VLM402
tolerant_engine = AsyncLLM.from_engine_args(tolerant)

# Only the LLM class refuses data parallelism in one process; an engine built from args takes it.
data_parallel = AsyncEngineArgs(model=MOE, data_parallel_size=2, enable_expert_parallel=True, enable_eplb=True)
dp_engine = AsyncLLM.from_engine_args(data_parallel)

# Sleep mode beside checkpoint preparation: accepted.
sleeping = EngineArgs(model=MODEL, checkpoint_prepare_on_startup=True, enable_sleep_mode=True)
sleeping_engine = LLMEngine.from_engine_args(sleeping)

# Turned on after the engine was built: too late to matter for that engine.
late = EngineArgs(model=MODEL, enable_sleep_mode=True)
late_engine = LLMEngine.from_engine_args(late)
late.enable_sleep_mode = False


async def serve(model: str) -> AsyncLLM:
    args = AsyncEngineArgs(model=model, checkpoint_prepare_on_startup=True)  # expect: VLM404
    return AsyncLLM.from_engine_args(args)


async def serve_openai(model: str) -> None:
    """The OpenAI server's own engine client, built from the object."""
    args = AsyncEngineArgs(model=model, tensor_parallel_size=2, enable_elastic_ep=True)  # expect: VLM401
    async with build_async_engine_client_from_engine_args(args) as client:
        await client.do_log_stats()


async def serve_openai_sleeping(model: str) -> None:
    args = AsyncEngineArgs(model=model, checkpoint_prepare_on_startup=True, enable_sleep_mode=True)
    async with build_async_engine_client_from_engine_args(args) as client:
        await client.reset_prefix_cache()


def make_args(**overrides) -> EngineArgs:
    """The caller decides the rest: sleep mode may come with the overrides."""
    return EngineArgs(model=MODEL, checkpoint_prepare_on_startup=True, **overrides)


if __name__ == "__main__":
    asyncio.run(serve(MODEL))
