import json

import triton_python_backend_utils as pb_utils
from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

# The image the Dockerfile builds installs vllm==0.10.2: the model is checked against it.


class TritonPythonModel:
    def initialize(self, args):
        self.model_config = json.loads(args["model_config"])
        engine_args = AsyncEngineArgs(
            model="Qwen/Qwen2.5-7B-Instruct",
            num_scheduler_steps=8,  # expect: VLM301
            gpu_memory_utilization=0.9,
        )
        self.engine = AsyncLLMEngine.from_engine_args(engine_args)

    async def generate(self, request):
        prompt = pb_utils.get_input_tensor_by_name(request, "text_input").as_numpy()[0].decode()
        params = SamplingParams(temperature=0.0, max_tokens=128)
        async for output in self.engine.generate(prompt, params, request.request_id()):
            last = output
        return last.outputs[0].text
