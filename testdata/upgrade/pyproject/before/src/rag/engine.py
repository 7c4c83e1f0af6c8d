"""The generation engine behind the retrieval service."""
from vllm import AsyncEngineArgs, AsyncLLMEngine


def make_engine(model: str) -> AsyncLLMEngine:
    args = AsyncEngineArgs(
        model=model,
        max_model_len=16384,
        cuda_graph_sizes=[1, 2, 4, 8],
        enable_multimodal_encoder_data_parallel=True,
        num_redundant_experts=0,  # expect: VLM301
    )
    return AsyncLLMEngine.from_engine_args(args)
