from vllm import LLM


def make_engine(mask):
    return LLM("Qwen/Qwen3-4B", return_sampling_mask=mask)


policy = make_engine(True)
reference = make_engine(False)
