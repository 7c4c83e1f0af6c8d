import argparse

from vllm import LLM


def build(model, mask, **engine_kwargs):
    return LLM(model, return_sampling_mask=mask, **engine_kwargs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--logprobs-mode")
    args = parser.parse_args()
    llm = LLM(
        "Qwen/Qwen3-4B",
        return_sampling_mask=True,
        logprobs_mode=args.logprobs_mode,
    )
    return llm


def evaluation_engine(args):
    if args.greedy:
        mode = "processed_logprobs"
    else:
        mode = args.logprobs_mode
    return LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode=mode)
