from vllm import LLM


def build(model: str, embed: bool) -> LLM:
    if embed:
        # Both 0.10 and 0.11 have task and runner: no finding.
        return LLM(model, task="embed", runner="pooling", swap_space=4)
    # Gone before 0.10: every admitted release rejects it.
    return LLM(model, use_v2_block_manager=True)  # expect: VLM301
