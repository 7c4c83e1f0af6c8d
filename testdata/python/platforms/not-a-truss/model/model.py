"""A project's own Model class beside a config.yaml that is no Truss config."""
from vllm import LLM


class Model:
    def __init__(self, **kwargs):
        self.engine_args = kwargs["config"]["model_metadata"]["engine_args"]

    def load(self):
        self.llm = LLM(**self.engine_args)
