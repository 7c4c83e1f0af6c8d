# target-version: 0.13
"""Engine arguments vLLM 0.13 no longer has, whose successors vLLM's deprecation text names."""
from vllm import LLM, EngineArgs

vision = LLM("Qwen/Qwen3-VL-8B-Instruct", disable_mm_preprocessor_cache=True)  # expect: VLM301:43
sharded = LLM("Qwen/Qwen3-VL-8B-Instruct", enable_multimodal_encoder_data_parallel=True)  # expect: VLM301:44
graphs = EngineArgs(model="Qwen/Qwen3-8B", cuda_graph_sizes=[8, 16, 32])  # expect: VLM301:44
kept = LLM("Qwen/Qwen3-VL-8B-Instruct", disable_mm_preprocessor_cache=False)  # expect: VLM301:41
embedder = LLM("BAAI/bge-m3", task="embed")  # expect: VLM301:31

settings = {"model": "Qwen/Qwen3-VL-8B-Instruct", "disable_mm_preprocessor_cache": True}
from_dict = LLM(**settings)  # expect: VLM301:13

# The successors, as vLLM 0.13 takes them.
fine = LLM("Qwen/Qwen3-VL-8B-Instruct", mm_processor_cache_gb=0, mm_encoder_tp_mode="data")
fine_graphs = EngineArgs(model="Qwen/Qwen3-8B", cudagraph_capture_sizes=[8, 16, 32])
fine_pooling = LLM("BAAI/bge-m3", runner="pooling", convert="embed")
