"""A generation actor that a launchpad program constructs in its own process: ``__init__`` keeps
the engine keywords, ``init`` (called later over RPC) completes and builds the engine.  The
program passes the class as a value too (``get_program(actor_cls=GenerationActor)``), so this
module's own analysis cannot see every construction: the engine is judged, and reported, at each
``lp.CourierNode(...)`` in ``program.py``, with the dict written there."""
import time

import vllm


class GenerationActor:
    def __init__(self, ipc_server, vllm_args, args):
        self.args = args
        self.ipc_server = ipc_server
        self.vllm_args = vllm_args

    def init(self, actor_id):
        self.actor_id = actor_id
        self.vllm_args.update({"seed": time.time_ns() % 2**32})
        if self.args.lora_rank > 0:
            self.vllm_args.update({"enable_lora": True, "max_lora_rank": self.args.lora_rank})
        self.llm = vllm.LLM(**self.vllm_args, return_sampling_mask=True)

    def generate(self, prompts, sampling_params):
        return self.llm.generate(prompts, sampling_params=sampling_params, use_tqdm=False)
