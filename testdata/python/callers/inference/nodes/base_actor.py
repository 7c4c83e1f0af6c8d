"""The base of the program's actors: it keeps the engine keywords it is constructed with and
builds the engine in ``init``, retrying while the model downloads.  Its subclasses live in other
modules and are handed to the program as values; the engines are judged where the program
constructs them (``program.py``)."""
import abc
import time

import vllm


class ActorBase(abc.ABC):
    def __init__(self, ipc_server, vllm_args, args):
        self.args = args
        self.ipc_server = ipc_server
        self.vllm_args = vllm_args

    def init(self, actor_id):
        self.actor_id = actor_id
        self.vllm_args.update({"seed": time.time_ns() % 2**32})
        wait = 5
        for _ in range(10):
            try:
                self.llm = vllm.LLM(**self.vllm_args, return_sampling_mask=True)
                break
            except OSError:
                time.sleep(wait)
                wait *= 1.2
        else:
            raise RuntimeError("vllm cannot load the model")
        self.tokenizer = self.llm.get_tokenizer()

    @abc.abstractmethod
    def step(self, prompts):
        ...
