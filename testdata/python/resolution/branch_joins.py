"""Branch joins keep what every path keeps, key by key; values that differ between paths are a set."""
import os

from vllm import LLM, AsyncEngineArgs, AsyncLLMEngine

MODEL = "Qwen/Qwen3-8B"


def unrelated_key_on_one_path(cfg):
    llm_kwargs = {"model": MODEL, "seed": cfg.seed, "return_sampling_mask": True}
    if cfg.precision == "bf16":
        llm_kwargs["dtype"] = "bfloat16"
    if "attention_config" not in llm_kwargs:
        llm_kwargs["attention_config"] = {"backend": "FLASH_ATTN"}
    return LLM(**llm_kwargs)  # expect: VLM105


def key_set_on_one_path_only(cfg):
    llm_kwargs = {"model": MODEL, "return_sampling_mask": True}
    if cfg.logprobs_mode:
        llm_kwargs["logprobs_mode"] = cfg.logprobs_mode
    return LLM(**llm_kwargs)


def wrong_value_on_one_path_absent_on_the_other(cfg):
    llm_kwargs = {"model": MODEL, "return_sampling_mask": True}
    if cfg.debug:
        llm_kwargs["logprobs_mode"] = "raw_logits"
    return LLM(**llm_kwargs)  # expect: VLM105


def right_value_on_one_path(cfg):
    llm_kwargs = {"model": MODEL, "return_sampling_mask": True}
    if cfg.replay:
        llm_kwargs["logprobs_mode"] = "processed_logprobs"
    return LLM(**llm_kwargs)


def two_wrong_modes(cfg):
    mode = "raw_logprobs" if cfg.raw else "raw_logits"
    return LLM(MODEL, return_sampling_mask=True, logprobs_mode=mode)  # expect: VLM105


def two_wrong_modes_in_arms(cfg):
    engine_kwargs = dict(model=MODEL, return_sampling_mask=True)
    if cfg.raw:
        engine_kwargs["logprobs_mode"] = "raw_logprobs"
    else:
        engine_kwargs["logprobs_mode"] = "raw_logits"
    return LLM(**engine_kwargs)  # expect: VLM105


def wrong_and_right_modes(cfg):
    mode = "raw_logprobs" if cfg.raw else "processed_logprobs"
    return LLM(MODEL, return_sampling_mask=True, logprobs_mode=mode)


def mask_on_one_path_only(cfg):
    kwargs = {"model": MODEL, "logprobs_mode": "raw_logprobs"}
    if cfg.replay:
        kwargs["return_sampling_mask"] = True
    return LLM(**kwargs)


def loop_over_literal_keys(cfg):
    kwargs = {"model": MODEL, "return_sampling_mask": True}
    for key in ("seed", "max_model_len"):
        if getattr(cfg, key, None) is not None:
            kwargs[key] = getattr(cfg, key)
    return LLM(**kwargs)  # expect: VLM105


def loop_over_runtime_keys(cfg):
    kwargs = {"model": MODEL, "return_sampling_mask": True}
    for key, value in cfg.extra_engine_kwargs.items():
        kwargs[key] = value
    return LLM(**kwargs)


def loop_that_may_write_the_mode(cfg):
    kwargs = {"model": MODEL, "return_sampling_mask": True}
    for name in ("logprobs_mode", "seed"):
        if name in cfg:
            kwargs[name] = cfg[name]
    return LLM(**kwargs)


def environment_on_one_path(cfg):
    os.environ["VLLM_ALLOW_INSECURE_SERIALIZATION"] = "1"
    if cfg.eager:
        os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = "0"
    args = AsyncEngineArgs(model=MODEL, return_sampling_mask=True)  # expect: VLM105
    if cfg.seed is not None:
        args.seed = cfg.seed
    return AsyncLLMEngine.from_engine_args(args)


class Rollout:
    def __init__(self, cfg):
        if cfg.tp > 1:
            self.llm = LLM(MODEL, tensor_parallel_size=cfg.tp, return_sampling_mask=True, logprobs_mode="processed_logprobs")
        else:
            self.llm = LLM(MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def generate(self, prompts):
        from vllm import SamplingParams

        return self.llm.generate(prompts, SamplingParams(temperature=0.0, top_k=20))  # expect: VLM201


class MixedRollout:
    def __init__(self, cfg):
        if cfg.replay:
            self.llm = LLM(MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
        else:
            self.llm = LLM(MODEL)

    def generate(self, prompts):
        from vllm import SamplingParams

        # Greedy requests are fine for the engine without replay.
        return self.llm.generate(prompts, SamplingParams(temperature=0.0, top_k=20))


def loop_writing_literal_keys(lines):
    kwargs = {"model": MODEL, "return_sampling_mask": True}
    for line in lines:
        if line.startswith("seed="):
            kwargs["seed"] = int(line[5:])
    return LLM(**kwargs)  # expect: VLM105


def loop_writing_the_mode_literally(lines):
    kwargs = {"model": MODEL, "return_sampling_mask": True}
    for line in lines:
        if line.startswith("mode="):
            kwargs["logprobs_mode"] = line[5:]
    return LLM(**kwargs)
