"""Engines and requests kept on ``self`` by one method and used by another, in the class and its
subclasses.  An arm that builds no engine (an API client instead) never sends a request to one."""
from openai import OpenAI
from vllm import LLM, SamplingParams


class RolloutGenerator:
    def __init__(self, backend, model_path, tensor_parallel_size=1):
        if backend == "vllm":
            self.llm = LLM(
                model=model_path,
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
                gpu_memory_utilization=0.85,
            )
        elif backend == "vllm-tp":
            self.llm = LLM(
                model=model_path,
                tensor_parallel_size=tensor_parallel_size,
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
            )
        else:
            self.client = OpenAI(base_url="http://localhost:8000/v1")
        self.sampling_params = SamplingParams(temperature=0.8, top_p=0.95, max_tokens=2048)  # expect: VLM202

    def generate(self, prompts):
        outputs = self.llm.generate(prompts, self.sampling_params)
        return [output.outputs[0].text for output in outputs]


class LazyGenerator:
    """The engine is built on first use; ``None`` until then."""

    def __init__(self, model_path):
        self.model_path = model_path
        self.llm = None
        self.params = SamplingParams(temperature=0.0, max_tokens=512)  # expect: VLM201

    def _ensure_engine(self):
        if self.llm is None:
            self.llm = LLM(self.model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def greedy(self, prompts):
        self._ensure_engine()
        return self.llm.generate(prompts, self.params)


class BaseWorker:
    def __init__(self, model_path):
        self.engine = LLM(model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs")
        self.params = SamplingParams(temperature=1.0, top_k=-1)  # expect: VLM202


class ScoringWorker(BaseWorker):
    def score(self, prompts):
        return self.engine.generate(prompts, self.params)


class TunedWorker(BaseWorker):
    def __init__(self, model_path, top_k):
        super().__init__(model_path)
        self.tuned = SamplingParams(temperature=1.0, top_k=top_k)

    def sample(self, prompts):
        return self.engine.generate(prompts, self.tuned)


class PlainGenerator:
    """Replay off: the same requests are fine."""

    def __init__(self, model_path):
        self.llm = LLM(model=model_path, gpu_memory_utilization=0.85)
        self.sampling_params = SamplingParams(temperature=0.8, top_p=0.95)

    def generate(self, prompts):
        return self.llm.generate(prompts, self.sampling_params)


class ConfigurableRequests:
    """The request is replaced by a setter: which one is sent depends on call order."""

    def __init__(self, model_path):
        self.llm = LLM(model=model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs")
        self.sampling_params = SamplingParams(temperature=0.8, top_p=0.95)

    def set_sampling(self, params):
        self.sampling_params = params

    def generate(self, prompts):
        return self.llm.generate(prompts, self.sampling_params)
