"""The rollout worker's engine set-up, shared by every vLLM backend: one replay engine and the
sampling settings of training rollouts.  Backends implement ``generate_sequences``."""
from vllm import LLM, SamplingParams


class BaseRollout:
    def __init__(self, model_path, tensor_parallel_size=1, response_length=1024):
        self.model_path = model_path
        self.llm = LLM(
            model=model_path,
            tensor_parallel_size=tensor_parallel_size,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
            enable_prefix_caching=True,
            gpu_memory_utilization=0.6,
        )
        self.sampling_params = SamplingParams(temperature=1.0, top_p=0.95, max_tokens=response_length, logprobs=0)

    def generate_sequences(self, prompts):
        raise NotImplementedError

    def validate(self, prompts):
        # ``val_params`` is set by the subclasses that validate: which one is not known here.
        return self.llm.generate(prompts, self.val_params)

    def wake_up(self):
        self.llm.wake_up()
