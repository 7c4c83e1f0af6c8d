"""Offline batch inference on Modal: the function runs in the image built here, on vLLM 0.9."""

import modal

vllm_image = (
    modal.Image.from_registry("nvidia/cuda:12.4.1-devel-ubuntu22.04", add_python="3.11")
    .pip_install("vllm==0.9.2", "huggingface_hub[hf_transfer]==0.30.2")
    .env({"HF_HUB_ENABLE_HF_TRANSFER": "1"})
)

app = modal.App("batch-generate")

with vllm_image.imports():
    from vllm import LLM, SamplingParams


@app.function(image=vllm_image, gpu="A100", timeout=3600)
def generate(prompts: list[str]) -> list[str]:
    # num_scheduler_steps was removed in 0.10: fine on the image's 0.9.
    llm = LLM(model="Qwen/Qwen2.5-7B-Instruct", num_scheduler_steps=8, max_model_len=8192)
    cached = LLM(model="Qwen/Qwen2.5-VL-7B-Instruct", mm_processor_cache_gb=4)  # expect: VLM301
    params = SamplingParams(temperature=0.7, max_tokens=512)
    return [o.outputs[0].text for o in llm.generate(prompts, params)] + [str(cached)]
