"""Ray actors that build their engine from the keyword arguments they were started with."""
import asyncio
import os
import threading

import ray
import vllm


@ray.remote
class RolloutActor:
    def __init__(self, *args, bundle_indices=None, **kwargs):
        self.args = args
        self.kwargs = kwargs
        self.bundle_indices = bundle_indices

    async def init_engine(self):
        os.environ["VLLM_ALLOW_INSECURE_SERIALIZATION"] = "1"
        engine_args = vllm.AsyncEngineArgs(*self.args, **self.kwargs)
        engine_args.disable_log_stats = True
        self.llm = vllm.AsyncLLMEngine.from_engine_args(engine_args)


class ThreadedEngineActor:
    def __init__(self, *args, tool_parser=None, **kwargs):
        self.tool_parser = tool_parser
        gpus = kwargs.pop("num_gpus")
        self._start_engine(args, gpus, kwargs)

    def _start_engine(self, args, gpus, kwargs):
        kwargs["generation_config"] = "vllm"
        engine_args = vllm.AsyncEngineArgs(*args, **kwargs)
        engine_args.disable_cascade_attn = True
        ready = threading.Event()

        async def _init_engine():
            self.engine = vllm.AsyncLLMEngine.from_engine_args(engine_args, start_engine_loop=False)
            ready.set()

        self.thread = threading.Thread(target=lambda: asyncio.run(_init_engine()), daemon=True)
        self.thread.start()
        ready.wait()
