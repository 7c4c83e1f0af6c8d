"""A Truss model that starts vLLM's OpenAI server with the flags of its config.yaml."""
import subprocess

import httpx
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine


class Model:
    def __init__(self, **kwargs):
        self._config = kwargs["config"]
        self.openai_compatible = self._config["model_metadata"].get("openai_compatible", False)

    def load(self):
        metadata = self._config["model_metadata"]
        self._vllm_config = metadata["vllm_config"]
        if self._vllm_config is None:
            self._vllm_config = {}
        if self.openai_compatible:
            command = ["vllm", "serve", metadata["repo_id"]]
            for key, value in self._vllm_config.items():
                if value is True:
                    command.append(f"--{key.replace('_', '-')}")  # expect: VLM105
                elif value is False:
                    continue
                else:
                    command.append(f"--{key.replace('_', '-')}")
                    command.append(str(value))
            self._process = subprocess.Popen(command)
            self._client = httpx.AsyncClient(base_url="http://localhost:8000")
        else:
            # Never runs: the config asks for the OpenAI-compatible server.
            args = AsyncEngineArgs(model=metadata["repo_id"], **self._vllm_config)
            self.llm_engine = AsyncLLMEngine.from_engine_args(args)
