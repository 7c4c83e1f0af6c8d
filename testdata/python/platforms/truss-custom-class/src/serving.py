"""config.yaml names ReplayModel in src/serving.py as the model class."""
from vllm import LLM, SamplingParams


class ReplayModel:
    def __init__(self, config: dict, data_dir, secrets):
        self.engine_args = config["model_metadata"]["engine_args"]

    def load(self):
        self.llm = LLM(**self.engine_args)

    def predict(self, request: dict):
        return self.llm.generate(request["prompt"], SamplingParams(temperature=0))  # expect: VLM201


class Model:
    """Not the class Truss constructs: its config is whatever a caller passes."""

    def __init__(self, **kwargs):
        self.engine_args = kwargs["config"]["model_metadata"]["engine_args"]

    def load(self):
        self.llm = LLM(**self.engine_args)
