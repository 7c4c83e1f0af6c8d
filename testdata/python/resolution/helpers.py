"""Same-module helpers: kwargs dicts, SamplingParams factories, **kwargs pass-through."""
import vllm
from vllm import SamplingParams


def engine_kwargs(model):
    return {"model": model, "return_sampling_mask": True, "gpu_memory_utilization": 0.9}


def create_engine(**kwargs):
    return vllm.LLM(**kwargs)  # expect: VLM105


def sampling_params(greedy=False):
    if greedy:
        return SamplingParams(temperature=0.0, max_tokens=512)  # expect: VLM201
    return SamplingParams(temperature=1.0, top_k=64, max_tokens=512)


def rollout(prompts):
    llm = create_engine(**engine_kwargs("Qwen/Qwen3-8B"))
    llm.generate(prompts, sampling_params())
    return llm.generate(prompts, sampling_params(greedy=True))


def valid(prompts):
    kwargs = engine_kwargs("Qwen/Qwen3-8B")
    kwargs["logprobs_mode"] = "processed_logprobs"
    return create_engine(**kwargs)


def mutates(kwargs):
    kwargs["logprobs_mode"] = "processed_logprobs"


def fixed_by_a_helper():
    kwargs = engine_kwargs("Qwen/Qwen3-8B")
    mutates(kwargs)
    return vllm.LLM(**kwargs)


def build(model, mode):
    return vllm.LLM(model, return_sampling_mask=True, logprobs_mode=mode)


def from_arguments(args):
    # The mode comes from a parameter at both levels: unknown.
    return build(args.model, args.logprobs_mode)
