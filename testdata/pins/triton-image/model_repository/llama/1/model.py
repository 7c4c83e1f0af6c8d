import asyncio
import os

import triton_python_backend_utils as pb_utils
from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

# A Triton Python backend model runs in the Triton server image, whose vLLM the
# project does not pin: arguments some release had are not reported.


class TritonPythonModel:
    def initialize(self, args):
        engine_config = {
            "model": os.environ.get("model_name", "meta-llama/Llama-3.1-8B-Instruct"),
            "disable_log_requests": True,
            "num_scheduler_steps": 4,
            "gpu_memory_utilization": float(os.environ.get("gpu_memory_utilization", "0.85")),
            "enforce_eager": True,
        }
        self.engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(**engine_config))
        self._loop = asyncio.get_event_loop()

    async def generate(self, request):
        prompt = pb_utils.get_input_tensor_by_name(request, "PROMPT").as_numpy()[0].decode()
        params = SamplingParams(temperature=0.7, max_tokens=256)
        async for output in self.engine.generate(prompt, params, request.request_id()):
            last = output
        return last.outputs[0].text
