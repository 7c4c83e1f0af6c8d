from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine


class Model:
    def __init__(self, **kwargs):
        self._config = kwargs["config"]
        self.llm_engine = None

    def load(self):
        # 0.9 still has the v2 block manager switch: no finding.
        args = AsyncEngineArgs(
            model="meta-llama/Meta-Llama-3-8B-Instruct",
            use_v2_block_manager=True,
            gpu_memory_utilization=0.9,
        )
        self.llm_engine = AsyncLLMEngine.from_engine_args(args)

    def load_pooling(self):
        # runner arrived in 0.10: the pinned 0.9 rejects it.
        args = AsyncEngineArgs(model="BAAI/bge-m3", runner="pooling")  # expect: VLM301
        return AsyncLLMEngine.from_engine_args(args)

    async def predict(self, request):
        params = SamplingParams(max_tokens=request.get("max_tokens", 256))
        return params
