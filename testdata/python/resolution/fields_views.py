"""Engines built from ``vars(engine_args)`` or ``engine_args.__dict__``: an ``EngineArgs``'s own
attribute dict holds its fields, as ``dataclasses.asdict`` does, so a setting the arguments
object does not write is reported at the arguments object (VLM105)."""
from dataclasses import dataclass

from vllm import LLM, AsyncEngineArgs, EngineArgs, SamplingParams
from vllm.engine.async_llm_engine import AsyncLLMEngine


def run_throughput(prompts, model: str, tensor_parallel_size: int = 1):
    engine_args = EngineArgs(  # expect: VLM105
        model=model,
        tensor_parallel_size=tensor_parallel_size,
        max_model_len=4096,
        return_sampling_mask=True,
    )
    llm = LLM(**vars(engine_args))
    return llm.generate(prompts, SamplingParams(temperature=1.0, top_k=50, max_tokens=256))


class EmbeddingServer:
    def load(self, checkpoint: str):
        engine_args = EngineArgs(  # expect: VLM105
            model=checkpoint,
            dtype="bfloat16",
            trust_remote_code=True,
            return_sampling_mask=True,
        )
        self.llm = LLM(**engine_args.__dict__)


def to_async_engine(model: str):
    engine_args = EngineArgs(model=model, enforce_eager=True, return_sampling_mask=True)  # expect: VLM105
    # Convert EngineArgs -> AsyncEngineArgs: they share their fields.
    return AsyncLLMEngine.from_engine_args(AsyncEngineArgs(**engine_args.__dict__))


def spawn_generator(model: str):
    # A view of an object nothing else holds cannot go stale.
    serving = AsyncEngineArgs(model=model, max_num_seqs=256, return_sampling_mask=True).__dict__  # expect: VLM105
    return LLM(**serving)


def replay_ready(model: str):
    engine_args = EngineArgs(model=model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    return LLM(**vars(engine_args))


def changed_after_the_view(model: str):
    # The view is live: the later assignment is in it, so the copy read here would be stale.
    engine_args = EngineArgs(model=model, return_sampling_mask=True)
    view = vars(engine_args)
    engine_args.logprobs_mode = "processed_logprobs"
    return LLM(**view)


@dataclass
class RolloutSettings:
    model: str = "Qwen/Qwen3-8B"
    max_model_len: int = 8192


def from_project_dataclass():
    # Not an arguments object: unknown (this one is a dataclass, but slotted classes have no view).
    return LLM(return_sampling_mask=True, **vars(RolloutSettings()))


def from_unknown_object(settings):
    return LLM(return_sampling_mask=True, **vars(settings))


class Namespace:
    """A look-alike: an object that is not an arguments object or a dataclass."""

    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)


def from_plain_object(model: str):
    return LLM(model=model, return_sampling_mask=True, **Namespace(logprobs_mode="processed_logprobs").__dict__)
