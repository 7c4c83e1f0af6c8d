"""Names no vLLM release has (VLM302)."""
from vllm import AsyncEngineArgs

args = AsyncEngineArgs(
    model="Qwen/Qwen3-4B",
    enable_return_sampling_mask=True,  # expect: VLM302:5
    return_sampling_mask_logprobs=True,  # expect: VLM302:5
    logprobs_mode="processed_logprobs",
)


def forked_server_flags(namespace):
    # prime-rl's own knob lives on its own config object, not on a vLLM constructor.
    namespace.enable_return_sampling_mask = True
    return namespace
