"""A Modal image that one deployment upgrades to vLLM's nightly build: either may run the code."""

import os

import modal

MODE = os.getenv("OCR_MODE", "stable")

image = modal.Image.debian_slim(python_version="3.12").uv_pip_install("vllm==0.9.2")
if MODE == "nightly":
    image = image.run_commands("pip install -U vllm --pre --extra-index-url https://wheels.vllm.ai/nightly")

app = modal.App("ocr")


@app.function(image=image, gpu="L40S")
def ocr(pages: list[bytes]) -> list[str]:
    from vllm import LLM

    # Added in 0.10: missing on the stable arm's 0.9 only, so not reported.
    llm = LLM(model="deepseek-ai/DeepSeek-OCR", mm_processor_cache_gb=0, enable_prefix_caching=False)
    return [str(llm)]
