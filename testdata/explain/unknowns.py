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
