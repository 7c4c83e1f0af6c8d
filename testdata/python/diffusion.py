"""Diffusion language models (VLM103)."""
from vllm import LLM

diffusion = LLM(
    model="google/diffusiongemma-26B-A4B-it",  # expect: VLM103:5
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

positional = LLM("nvidia/DiffusionGemma-26B-A4B-it-NVFP4", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # expect: VLM103:18

overrides = LLM(
    "Qwen/Qwen3-4B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    hf_overrides={"canvas_length": 256},  # expect: VLM103:5
)

# diffusion_config alone does not make a model a diffusion model.
configured = LLM(
    "Qwen/Qwen3-4B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    diffusion_config={"canvas_length": 256},
)

# A diffusion model without replay is fine.
no_replay = LLM("google/diffusiongemma-26B-A4B-it")

# Other overrides are fine.
rope = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs", hf_overrides={"rope_theta": 1e6})
