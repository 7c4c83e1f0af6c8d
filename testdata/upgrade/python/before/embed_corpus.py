"""Embed a document corpus offline and write the vectors next to it."""
import argparse
import subprocess

from vllm import LLM, AsyncEngineArgs

ENGINE_KWARGS = {
    "model": "Qwen/Qwen3-VL-8B-Instruct",
    "cuda_graph_sizes": [8, 16, 32],
    "max_model_len": 8192,
}


def build_embedder(model: str) -> LLM:
    return LLM(
        model=model,
        override_pooler_config={"pooling_type": "MEAN", "normalize": True},  # expect: VLM301
        disable_mm_preprocessor_cache=True,  # the cache costs too much host memory here
        task="embed",  # expect: VLM301
        use_v2_block_manager=True,  # expect: VLM301
    )


def build_captioner() -> LLM:
    return LLM(**ENGINE_KWARGS)


def server_args() -> AsyncEngineArgs:
    return AsyncEngineArgs(model="Qwen/Qwen3-8B", disable_log_requests=True)  # expect: VLM301


def start_server() -> subprocess.Popen:
    return subprocess.Popen(
        ["vllm", "serve", "Qwen/Qwen3-VL-8B-Instruct", "--disable-mm-preprocessor-cache", "--cuda-graph-sizes=8"]
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="BAAI/bge-m3")
    build_embedder(parser.parse_args().model)
