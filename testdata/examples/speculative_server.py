"""An async engine with speculative decoding and replay, built from EngineArgs."""
from vllm import AsyncEngineArgs, AsyncLLMEngine

SPECULATIVE = {
    "method": "dspark",
    "model": "org/qwen3-8b-dspark-head",
    "num_speculative_tokens": 4,
    "enable_adaptive_verification": True,
}


def build_engine(model: str) -> AsyncLLMEngine:
    args = AsyncEngineArgs(
        model=model,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        speculative_config=SPECULATIVE,
        logits_processors=["rollout.processors:RepetitionGuard"],
    )
    return AsyncLLMEngine.from_engine_args(args)
