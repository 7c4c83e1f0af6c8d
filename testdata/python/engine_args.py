"""EngineArgs / AsyncEngineArgs, from_engine_args, VllmConfig (VLM105, VLM102, VLM106)."""
from vllm import AsyncEngineArgs, AsyncLLMEngine, EngineArgs, LLM
from vllm.config import ModelConfig, ParallelConfig, SpeculativeConfig, VllmConfig
from vllm.v1.engine.async_llm import AsyncLLM

nested = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(model="Qwen/Qwen3-8B", return_sampling_mask=True))  # expect: VLM105

sync = LLM.from_engine_args(
    EngineArgs(
        model="Qwen/Qwen3-8B",
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        enable_batch_sharded_sampling=True,  # expect: VLM106:9
    )
)


def attribute_fix(model):
    args = AsyncEngineArgs(model=model, return_sampling_mask=True)
    args.logprobs_mode = "processed_logprobs"
    return AsyncLLM.from_engine_args(args)


def attribute_breaks(model):
    args = AsyncEngineArgs(model=model, return_sampling_mask=True, logprobs_mode="processed_logprobs")  # expect: VLM105
    args.logprobs_mode = "raw_logprobs"
    return AsyncLLM.from_engine_args(args)


def from_cli(parser):
    args = AsyncEngineArgs.from_cli_args(parser.parse_args())
    return AsyncLLM.from_engine_args(args)


def from_cli_then_set(parser):
    args = AsyncEngineArgs.from_cli_args(parser.parse_args())  # expect: VLM105
    args.return_sampling_mask = True
    args.logprobs_mode = "raw_logprobs"
    return AsyncLLM.from_engine_args(args)


config = VllmConfig(
    model_config=ModelConfig(  # expect: VLM105
        model="Qwen/Qwen3-8B",
        return_sampling_mask=True,
    ),
    speculative_config=SpeculativeConfig(method="dspark", num_speculative_tokens=4, enable_adaptive_verification=True),  # expect: VLM102
    parallel_config=ParallelConfig(tensor_parallel_size=2),
)

# ModelConfig alone validates nothing.
standalone = ModelConfig(model="Qwen/Qwen3-8B", return_sampling_mask=True)
