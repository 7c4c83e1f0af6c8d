"""Engine options filtered from a user's mapping by an allowlist of known keys: only those keys
can reach the engine, so a replay setting outside the allowlist is certainly unset (VLM105)."""
from vllm import LLM

SAMPLING_KEYS = ("temperature", "top_p", "max_tokens")


class RolloutWorker:
    ENGINE_KEYS = {
        "tensor_parallel_size",
        "gpu_memory_utilization",
        "max_model_len",
        "dtype",
        "enforce_eager",
    }

    def __init__(self, model_path, user_options):
        self.model_path = model_path
        self.user_options = user_options

    def allowlisted(self):
        engine_opts = {k: v for k, v in self.user_options.items() if k in self.ENGINE_KEYS}
        llm_kwargs = {"model": self.model_path, "return_sampling_mask": True, **engine_opts}
        llm_kwargs.setdefault("gpu_memory_utilization", 0.8)
        return LLM(**llm_kwargs)  # expect: VLM105

    def allowlisted_and_set(self):
        engine_opts = {
            name: value
            for name, value in self.user_options.items()
            if name in ("max_model_len", "dtype") and value is not None
        }
        return LLM(self.model_path, return_sampling_mask=True, **engine_opts)  # expect: VLM105

    def keys_only(self):
        chosen = {key: self.user_options[key] for key in self.user_options if key in SAMPLING_KEYS + ("dtype",)}
        return LLM(model=self.model_path, return_sampling_mask=True, **chosen)  # expect: VLM105

    def earlier_value_kept(self):
        # The allowlist may hold the key: the value written before it stays on the paths without it.
        engine_opts = {k: v for k, v in self.user_options.items() if k in {"logprobs_mode", "dtype"}}
        llm_kwargs = {"model": self.model_path, "return_sampling_mask": True, "logprobs_mode": "raw_logprobs"}
        return LLM(**{**llm_kwargs, **engine_opts})

    def allowlist_names_the_setting(self):
        engine_opts = {k: v for k, v in self.user_options.items() if k in {"logprobs_mode", "dtype"}}
        return LLM(self.model_path, return_sampling_mask=True, **engine_opts)

    def denylist_does_not_bound(self):
        engine_opts = {k: v for k, v in self.user_options.items() if k not in SAMPLING_KEYS}
        return LLM(self.model_path, return_sampling_mask=True, **engine_opts)

    def either_test_may_pass(self):
        engine_opts = {k: v for k, v in self.user_options.items() if k in self.ENGINE_KEYS or k.startswith("logprobs")}
        return LLM(self.model_path, return_sampling_mask=True, **engine_opts)

    def key_renamed(self):
        engine_opts = {k.replace("-", "_"): v for k, v in self.user_options.items() if k in self.ENGINE_KEYS}
        return LLM(self.model_path, return_sampling_mask=True, **engine_opts)

    def allowlist_unknown(self, allowed):
        engine_opts = {k: v for k, v in self.user_options.items() if k in allowed}
        return LLM(self.model_path, return_sampling_mask=True, **engine_opts)

    def set_when_an_allowed_key_is_given(self):
        # The user may pass dtype: on that path the setting is right, so not every path is wrong.
        engine_opts = {k: v for k, v in self.user_options.items() if k in self.ENGINE_KEYS}
        llm_kwargs = {"model": self.model_path, "return_sampling_mask": True, **engine_opts}
        if "dtype" in engine_opts:
            llm_kwargs["logprobs_mode"] = "processed_logprobs"
        return LLM(**llm_kwargs)


class SGLangWorker:
    """A look-alike: SGLang's engine takes no replay setting."""

    def start(self, user_options):
        import sglang

        opts = {k: v for k, v in user_options.items() if k in ("mem_fraction_static", "tp_size")}
        return sglang.Engine(model_path="Qwen/Qwen3-8B", **opts)
