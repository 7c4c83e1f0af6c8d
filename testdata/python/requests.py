"""SamplingParams reaching replay engines (VLM201, VLM202), per engine."""
from vllm import LLM, SamplingParams

MODEL = "Qwen/Qwen3-4B"

replay = LLM(MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")
plain = LLM(MODEL)

greedy = SamplingParams(temperature=0.0, max_tokens=256)  # expect: VLM201:25
no_top_k = SamplingParams(temperature=1.0, top_p=0.95)  # expect: VLM202:12
unbounded = SamplingParams(temperature=0.9, top_k=-1)  # expect: VLM202:45
good = SamplingParams(temperature=1.0, top_k=50, top_p=0.95, logprobs=1)
tiny_temperature = SamplingParams(temperature=0.005, top_k=20)  # raised to 0.01 by vLLM: fine

replay.generate(["Hello"], greedy)
replay.generate(["Hello"], sampling_params=no_top_k)
replay.chat([{"role": "user", "content": "Hi"}], [unbounded, good])
replay.generate(["Hello"], tiny_temperature)

# The same greedy request to a mask-off engine is fine.
plain.generate(["Hello"], SamplingParams(temperature=0.0))

# No SamplingParams: the model's generation config may set top_k.
replay.generate(["Hello"])


def rollout(engine, prompts, temperature):
    # An unknown engine and an unknown temperature: silence.
    engine.generate(prompts, SamplingParams(temperature=temperature, top_k=0))
    replay.generate(prompts, SamplingParams(temperature=temperature, top_k=20))


def default_params(prompts):
    # A bare SamplingParams() has top_k=0.
    return replay.generate(prompts, SamplingParams())  # expect: VLM202


class Rollout:
    def __init__(self, model):
        self.llm = LLM(model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
        self.params = SamplingParams(temperature=1.0, top_k=64)

    def sample(self, prompts):
        return self.llm.generate(prompts, SamplingParams(temperature=0))  # expect: VLM201
