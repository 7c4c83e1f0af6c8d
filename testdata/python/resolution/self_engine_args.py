"""An engine-arguments object built by one method, kept on ``self`` and started by another
(serving templates' ``load()``/``predict()``, a chat client's ``__init__``/``start``): nothing
changes it in between, so the engine gets what it was built with.  Written to elsewhere, or
handed to code vllm-lint does not follow, it is unknown."""
import os

from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine


class Model:
    def __init__(self, **kwargs):
        self._config = kwargs["config"]
        self.llm_engine = None
        os.environ["TOKENIZERS_PARALLELISM"] = "true"

    def load(self):
        metadata = self._config["model_metadata"]
        self.model_args = AsyncEngineArgs(  # expect: VLM105
            model=metadata["repo_id"],
            tensor_parallel_size=metadata["tensor_parallel"],
            dtype="auto",
            return_sampling_mask=True,
        )
        self.llm_engine = AsyncLLMEngine.from_engine_args(self.model_args)


class ChatClient:
    def __init__(self, model_path: str):
        self.engine_args = AsyncEngineArgs(  # expect: VLM105
            model=model_path,
            trust_remote_code=True,
            gpu_memory_utilization=0.9,
            return_sampling_mask=True,
        )
        self.engine = None

    def start(self):
        self.engine = AsyncLLMEngine.from_engine_args(self.engine_args)


class ConfiguredClient:
    """Another method sets the mode before the engine starts: whatever it is, it is not known here."""

    def __init__(self, model_path: str):
        self.engine_args = AsyncEngineArgs(model=model_path, return_sampling_mask=True)

    def configure(self, mode):
        self.engine_args.logprobs_mode = mode

    def start(self):
        self.engine = AsyncLLMEngine.from_engine_args(self.engine_args)


class PatchedClient:
    """The arguments go through a project hook that may change them."""

    def __init__(self, model_path: str, patch):
        self.engine_args = AsyncEngineArgs(model=model_path, return_sampling_mask=True)
        patch(self.engine_args)

    def start(self):
        self.engine = AsyncLLMEngine.from_engine_args(self.engine_args)


class ReadyClient:
    def __init__(self, model_path: str):
        self.engine_args = AsyncEngineArgs(
            model=model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs"
        )

    def start(self):
        self.engine = AsyncLLMEngine.from_engine_args(self.engine_args)
