from ray import serve
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine


@serve.deployment(num_replicas=1)
class VLLMDeployment:
    def __init__(self, model: str):
        # The image this file is built into installs vLLM 0.9.2 (the Dockerfile beside it).
        args = AsyncEngineArgs(model=model, use_v2_block_manager=True, num_scheduler_steps=4)
        self.engine = AsyncLLMEngine.from_engine_args(args)

    def pooled(self, model: str):
        return AsyncEngineArgs(model=model, runner="pooling")  # expect: VLM301
