"""Embed a document corpus offline and write the vectors next to it."""
import argparse
import subprocess

from vllm import LLM, AsyncEngineArgs

ENGINE_KWARGS = {
    "model": "Qwen/Qwen3-VL-8B-Instruct",
    "cudagraph_capture_sizes": [8, 16, 32],
    "max_model_len": 8192,
}


def build_embedder(model: str) -> LLM:
    return LLM(
        model=model,
        pooler_config={"pooling_type": "MEAN", "normalize": True},  # expect: VLM301
        mm_processor_cache_gb=0,  # the cache costs too much host memory here
        task="embed",  # expect: VLM301
        use_v2_block_manager=True,  # expect: VLM301
    )


def build_captioner() -> LLM:
    return LLM(**ENGINE_KWARGS)


def server_args() -> AsyncEngineArgs:
    return AsyncEngineArgs(model="Qwen/Qwen3-8B", disable_log_requests=True)  # expect: VLM301


def start_server() -> subprocess.Popen:
    return subprocess.Popen(
        ["vllm", "serve", "Qwen/Qwen3-VL-8B-Instruct", "--mm-processor-cache-gb=0", "--cudagraph-capture-sizes=8"]
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="BAAI/bge-m3")
    build_embedder(parser.parse_args().model)
