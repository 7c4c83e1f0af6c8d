"""A Truss model: Truss constructs Model with config= the parsed config.yaml beside model/."""
from typing import Any

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine


class Model:
    def __init__(self, **kwargs) -> None:
        self.engine_args = kwargs["config"]["model_metadata"]["engine_args"]
        self.prompt_format = kwargs["config"]["model_metadata"]["prompt_format"]
        self._secrets = kwargs["secrets"]

    def load(self) -> None:
        self.llm_engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(**self.engine_args))  # expect: VLM105

    async def predict(self, request: dict) -> Any:
        prompt = self.prompt_format.replace("{prompt}", request.pop("prompt"))
        params = SamplingParams(temperature=1.0, top_p=0.95, top_k=50, max_tokens=512)
        async for output in self.llm_engine.generate(prompt, params, request_id=request.get("id", "0")):
            last = output
        return {"text": last.outputs[0].text}
