"""A BentoML service whose `__command__` returns the argv BentoML runs as the service's process
(each element with $NAME taken from the worker's environment, no shell)."""
from __future__ import annotations

import json
import os

import bentoml
import pydantic

MODEL_ID = "Qwen/Qwen3-30B-A3B-Instruct-2507"
HTTP_PORT = 6000


class ServiceArgs(pydantic.BaseModel):
    replicas: int = 1
    extra_args: list[str] = pydantic.Field(default_factory=list)


service_args = bentoml.use_arguments(ServiceArgs)


@bentoml.service(resources={"gpu": 1}, endpoints={"readyz": "/health"}, workers=service_args.replicas)
class Decoder:
    model = bentoml.models.HuggingFaceModel(MODEL_ID)

    def __command__(self) -> list[str]:
        index = bentoml.server_context.worker_index or 1
        os.environ["CUDA_VISIBLE_DEVICES"] = str(index - 1)
        transfer = {"kv_connector": "P2pNcclConnector", "kv_role": "kv_consumer"}
        return [
            "vllm",
            "serve",
            self.model,
            "--served-model-name",
            MODEL_ID,
            "--port",
            str(HTTP_PORT + index - 1),
            "--kv-transfer-config",
            json.dumps(transfer),
            "--return-sampling-mask",  # expect: VLM105
        ]


@bentoml.service(resources={"gpu": 1})
class FixedDecoder:
    model = bentoml.models.HuggingFaceModel(MODEL_ID)

    def __command__(self) -> list[str]:
        return ["vllm", "serve", self.model, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]


@bentoml.service(resources={"gpu": 1})
class ConfiguredDecoder:
    """The build's arguments (`bentoml build --arg ...`) may add --logprobs-mode."""

    model = bentoml.models.HuggingFaceModel(MODEL_ID)

    def __command__(self) -> list[str]:
        return ["vllm", "serve", self.model, *service_args.extra_args, "--return-sampling-mask"]


@bentoml.service(resources={"gpu": 1})
class EnvironmentDecoder:
    """BentoML substitutes $LOGPROBS_MODE from the worker's environment."""

    model = bentoml.models.HuggingFaceModel(MODEL_ID)

    def __command__(self) -> list[str]:
        return ["vllm", "serve", self.model, "--return-sampling-mask", "--logprobs-mode", "$LOGPROBS_MODE"]


@bentoml.service(resources={"gpu": 1})
class SGLangServer:
    model = bentoml.models.HuggingFaceModel(MODEL_ID)

    def __command__(self) -> list[str]:
        return ["python3", "-m", "sglang.launch_server", "--model-path", self.model, "--return-sampling-mask"]


@bentoml.service(resources={"gpu": 1})
class Router:
    decoder = bentoml.depends(Decoder)

    def command_line(self) -> list[str]:
        # Not the hook: BentoML never runs what this returns.
        return ["vllm", "serve", MODEL_ID, "--return-sampling-mask"]
