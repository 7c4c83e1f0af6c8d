"""A method called on self that returns a value: the caller goes on after the call, with what
the method left on self on each path that returns."""
import subprocess
from pathlib import Path

import modal
from vllm import LLM

MODELS = Path("/models")
PORT = 8000


class ReplayServer:
    @modal.enter()
    def start(self):
        model_dir = self._model_dir("qwen3-8b") if PORT else self._checkpoint_dir("qwen3-8b")
        cmd = ["vllm", "serve", str(model_dir), "--served-model-name", "policy", "--return-sampling-mask"]  # expect: VLM105
        self.process = subprocess.Popen(" ".join(cmd), shell=True)

    def _model_dir(self, name):
        return MODELS / name

    def _checkpoint_dir(self, name):
        if not name:
            raise ValueError("no model")
        return MODELS / name / "hf"


class Generator:
    def __init__(self, model, replay=False):
        self.model = model
        self.options = {"return_sampling_mask": True}
        if not replay:
            self.options = {}
            return
        self.options["logprobs_mode"] = self._mode()  # expect: VLM105

    def _mode(self):
        return "raw_logprobs"

    def load(self):
        return LLM(self.model, **self.options)


class FixedGenerator(Generator):
    def _mode(self):
        return "processed_logprobs"


def build():
    return Generator("Qwen/Qwen3-8B", replay=True).load()



def build_plain():
    return Generator("Qwen/Qwen3-8B").load()  # returns before the replay settings are written
