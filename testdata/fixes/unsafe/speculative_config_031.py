# target-version: 0.31
"""VLM102 before vLLM 0.32: the whole speculative configuration is removed."""
from vllm import LLM, EngineArgs, LLMEngine

llm = LLM(
    "Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config={"method": "eagle3", "model": "yuhuili/EAGLE3-Qwen3-8B", "num_speculative_tokens": 3},
    seed=0,
)

kwargs = {
    "model": "Qwen/Qwen3-8B",
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "speculative_config": {"method": "eagle3", "num_speculative_tokens": 3},
}
engine = LLMEngine.from_engine_args(EngineArgs(**kwargs))


def from_attribute():
    args = EngineArgs(model="Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    args.speculative_config = {"method": "ngram", "num_speculative_tokens": 3}
    return LLMEngine.from_engine_args(args)
