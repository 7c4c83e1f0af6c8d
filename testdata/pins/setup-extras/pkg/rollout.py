from vllm import LLM


def engine(path):
    # task: every release from 0.8 to 0.12 has it.
    llm = LLM(model=path, task="generate", swap_space=8)
    # runner: 0.8 and 0.9 lack it, 0.10-0.12 have it: not every admitted release rejects it.
    pooled = LLM(model=path, runner="pooling")
    # No release from 0.8 to 0.12 has it.
    broken = LLM(model=path, enable_return_routed_experts_cache=True)  # expect: VLM301
    return llm, pooled, broken
