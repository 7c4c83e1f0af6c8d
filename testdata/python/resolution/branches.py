"""Branches: a fact is known when every path agrees; constant conditions are followed."""
import vllm

DEBUG = False


def agree(use_tp):
    kwargs = {"model": "Qwen/Qwen3-8B", "return_sampling_mask": True}
    if use_tp:
        kwargs["tensor_parallel_size"] = 2
        kwargs["logprobs_mode"] = "raw_logprobs"
    else:
        kwargs["logprobs_mode"] = "raw_logprobs"
    return vllm.LLM(**kwargs)  # expect: VLM105


def disagree(args):
    kwargs = {"model": "Qwen/Qwen3-8B", "return_sampling_mask": True}
    if args.processed:
        kwargs["logprobs_mode"] = "processed_logprobs"
    return vllm.LLM(**kwargs)


def conditional_expression(args):
    mode = "raw_logprobs" if args.raw else "processed_logprobs"
    return vllm.LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode=mode)


def constant_condition():
    kwargs = {"model": "Qwen/Qwen3-8B", "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    if DEBUG:
        kwargs["logprobs_mode"] = "raw_logprobs"
    return vllm.LLM(**kwargs)


def raises_on_bad_input(args):
    kwargs = {"model": "Qwen/Qwen3-8B", "return_sampling_mask": True}
    if not args.model:
        raise ValueError("no model")
    return vllm.LLM(**kwargs)  # expect: VLM105


def both_branches_same_ternary(args):
    mask = True if args.a else True
    return vllm.LLM("Qwen/Qwen3-8B", return_sampling_mask=mask, logprobs_mode="raw_logprobs")  # expect: VLM105
