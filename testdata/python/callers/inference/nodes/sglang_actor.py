"""The same launchpad shape around an SGLang engine: not a vLLM engine, nothing to report."""
import sglang as sgl


class SglangActor:
    def __init__(self, engine_args):
        self.engine_args = engine_args

    def init(self):
        self.engine = sgl.Engine(**self.engine_args, return_sampling_mask=True)
