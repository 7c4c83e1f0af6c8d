from vllm import LLM


def make_engine(model, return_sampling_mask=False, **overrides):
    return LLM(
        model,
        return_sampling_mask=return_sampling_mask,
        **overrides,
    )
