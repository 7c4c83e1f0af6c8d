"""A rollout whose LoRA settings come through ``**kwargs`` from its one construction, which
passes a literal dict or none (``workers.py``)."""
from vllm import LLM, SamplingParams


class VLLMRollout:
    def __init__(self, model_path: str, config, **kwargs):
        self.config = config
        lora_kwargs = kwargs.pop("lora_kwargs", {})
        engine_kwargs = {}
        if config.limit_images:
            engine_kwargs["limit_mm_per_prompt"] = {"image": config.limit_images}
        self.inference_engine = LLM(  # expect: VLM105
            model=model_path,
            tensor_parallel_size=config.tensor_parallel_size,
            enable_sleep_mode=True,
            return_sampling_mask=True,
            **lora_kwargs,
            **engine_kwargs,
        )
        self.sampling_params = SamplingParams(temperature=1.0, top_k=config.top_k)
