"""Engine-argument classes of other projects with vLLM's argument names: not vLLM's."""
# target-version: 0.34
from dataclasses import dataclass

from sglang.srt.server_args import ServerArgs
from tensorrt_llm import LLM

MODEL = "Qwen/Qwen3-30B-A3B"


@dataclass
class EngineArgs:
    """The project's own launcher settings, rendered into a command line elsewhere."""

    model: str
    checkpoint_prepare_on_startup: bool = False
    enable_sleep_mode: bool = False
    data_parallel_size: int = 1


def build_engine(args: EngineArgs) -> dict:
    return {"model": args.model, "prepare": args.checkpoint_prepare_on_startup}


def build_async_engine_client_from_engine_args(args: EngineArgs) -> dict:
    """The project's own client factory, named after vLLM's."""
    return build_engine(args)


settings = EngineArgs(model=MODEL, checkpoint_prepare_on_startup=True)
build_engine(settings)
client = build_async_engine_client_from_engine_args(EngineArgs(model=MODEL, checkpoint_prepare_on_startup=True))

trt = LLM(model=MODEL, data_parallel_size=4)
sglang_args = ServerArgs(model_path=MODEL, tp_size=2, enable_eplb=True, enable_elastic_ep=True)
