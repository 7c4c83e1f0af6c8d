"""A method of the class that returns on every path (a cache key, a config lookup) is called
before the engine is built: the caller goes on after it, with what it returned."""
from vllm import LLM, SamplingParams


class VerifierModel:
    _model_cache = {}

    def __init__(self, model_path, use_vllm=False):
        self.use_vllm = use_vllm
        self.model_path = model_path

    def _cache_key(self, model_path):
        if self.use_vllm:
            return f"vllm_{model_path}_16384"
        return f"transformers_{model_path}"

    def load_model_vllm(self, model_path):
        cache_key = self._cache_key(model_path)
        if cache_key in VerifierModel._model_cache:
            self.model = VerifierModel._model_cache[cache_key]
        else:
            self.model = LLM(  # expect: VLM105
                model=model_path,
                max_model_len=16384,
                enable_chunked_prefill=True,
                return_sampling_mask=True,
            )
            VerifierModel._model_cache[cache_key] = self.model

    def _sampling(self):
        return SamplingParams(temperature=0.0, max_tokens=16)  # expect: VLM201

    def judge(self, prompts):
        params = self._sampling()
        engine = LLM(model=self.model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs")
        return engine.generate(prompts, params)

