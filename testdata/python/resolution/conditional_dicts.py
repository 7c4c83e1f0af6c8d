"""Keywords spread from a conditional expression between dicts (``**({...} if c else {})``): each
arm's keys are known, so the engine's other settings stay known and a replay setting no arm
writes keeps vLLM's default."""
import os

from vllm import LLM
from vllm.platforms import current_platform


class MultimodalRollout:
    def __init__(self, model_path, config):
        # A rollout that allows images only when the agent mode is on (both arms known).
        self.inference_engine = LLM(  # expect: VLM105
            model=model_path,
            enable_sleep_mode=True,
            max_model_len=32768,
            return_sampling_mask=True,
            **({"limit_mm_per_prompt": dict(image=config.max_images)} if config.agent_enabled and config.max_images else {}),
        )


def offloading_engine(model, attn_backend, uses_hma):
    # Several conditional dicts at one call, as connector tests write them.
    return LLM(  # expect: VLM105
        model=model,
        max_model_len=4096,
        gpu_memory_utilization=0.5,
        return_sampling_mask=True,
        **({"attention_config": {"backend": attn_backend}} if attn_backend else {}),
        **({"disable_hybrid_kv_cache_manager": False} if uses_hma else {}),
        **({"max_num_seqs": 1} if current_platform.is_rocm() else {}),
    )


def replay_engine(model, lora_rank=None):
    # The same shapes with the logprobs mode replay needs: clean.
    return LLM(
        model=model,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        **({} if lora_rank is None else {"enable_lora": True, "max_lora_rank": lora_rank}),
    )


def mode_from_either_arm(model, processed):
    # Each arm sets the mode replay needs: clean on every path.
    return LLM(
        model=model,
        return_sampling_mask=True,
        **({"logprobs_mode": "processed_logprobs", "seed": 0} if processed else {"logprobs_mode": "processed_logprobs"}),
    )


def arm_of_unknown_keys(model):
    # One arm is a mapping from the environment: its keys are not known, the engine is silent.
    extra = dict(os.environ) if os.environ.get("VLLM_EXTRA") else {}
    return LLM(model=model, return_sampling_mask=True, **({} if not extra else extra))
