"""Engine kwargs built in dicts and spliced with ** (VLM105, VLM104)."""
import vllm

BASE = {"model": "Qwen/Qwen3-8B", "tensor_parallel_size": 2}


def literal_dict():
    kwargs = {"model": "Qwen/Qwen3-8B", "return_sampling_mask": True, "logprobs_mode": "raw_logprobs"}
    return vllm.LLM(**kwargs)  # expect: VLM105


def dict_call_then_subscript():
    kwargs = dict(model="Qwen/Qwen3-8B", return_sampling_mask=True)
    kwargs["logprobs_mode"] = "processed_logprobs"
    return vllm.LLM(**kwargs)


def update_then_pop():
    kwargs = dict(BASE)
    kwargs.update({"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"})
    kwargs.update(logits_processors=["my_pkg.processors:NoRepeat"])
    return vllm.LLM(**kwargs)  # expect: VLM104


def popped():
    kwargs = {**BASE, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    kwargs["logits_processors"] = ["my_pkg.processors:NoRepeat"]
    kwargs.pop("logits_processors")
    return vllm.LLM(**kwargs)


def deleted_then_setdefault():
    kwargs = {**BASE, "return_sampling_mask": True, "logprobs_mode": "raw_logprobs"}
    del kwargs["logprobs_mode"]
    kwargs.setdefault("logprobs_mode", "processed_logprobs")
    return vllm.LLM(**kwargs)


def setdefault_keeps_existing():
    kwargs = {**BASE, "return_sampling_mask": True, "logprobs_mode": "raw_logprobs"}
    kwargs.setdefault("logprobs_mode", "processed_logprobs")
    return vllm.LLM(**kwargs)  # expect: VLM105


def unresolved_splat(user_kwargs):
    # Keys we cannot see may set logprobs_mode: silence on the missing keyword.
    kwargs = {"return_sampling_mask": True, **user_kwargs}
    return vllm.LLM("Qwen/Qwen3-8B", **kwargs)


def unresolved_splat_in_call(overrides):
    return vllm.LLM("Qwen/Qwen3-8B", return_sampling_mask=True, **overrides)


def written_after_unresolved_splat(overrides):
    # The later key wins over whatever the splat had.
    kwargs = {**overrides, "return_sampling_mask": True, "logprobs_mode": "raw_logprobs"}
    return vllm.LLM("Qwen/Qwen3-8B", **kwargs)  # expect: VLM105


def mutated_by_helper(configure):
    kwargs = {"return_sampling_mask": True}
    configure(kwargs)  # may add logprobs_mode
    return vllm.LLM("Qwen/Qwen3-8B", **kwargs)


def mutated_in_loop(extra):
    kwargs = {"return_sampling_mask": True}
    for key, value in extra.items():
        kwargs[key] = value
    return vllm.LLM("Qwen/Qwen3-8B", **kwargs)


def merged_with_or():
    kwargs = {"model": "Qwen/Qwen3-8B"}
    kwargs |= {"return_sampling_mask": True}
    return vllm.LLM(**kwargs)  # expect: VLM105
