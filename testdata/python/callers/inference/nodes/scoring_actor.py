"""An actor whose engine keywords come from a launchpad node built with a dict the program
reads from a file: what the engine gets is not known, and nothing is reported."""
import vllm


class ScoringActor:
    def __init__(self, vllm_args):
        self.vllm_args = vllm_args

    def init(self):
        self.llm = vllm.LLM(**self.vllm_args, return_sampling_mask=True)
