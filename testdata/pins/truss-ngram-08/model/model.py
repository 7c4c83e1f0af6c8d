from vllm import LLM, SamplingParams

# Pinned to 0.8.4: the flat speculative arguments are gone by then (speculative_config).


class Model:
    def __init__(self, **kwargs):
        self.llm = None

    def load(self):
        self.llm = LLM(
            model="meta-llama/Llama-3.1-8B-Instruct",
            speculative_model="[ngram]",  # expect: VLM301
            num_speculative_tokens=8,  # expect: VLM301
        )

    def load_config(self):
        self.llm = LLM(
            model="meta-llama/Llama-3.1-8B-Instruct",
            speculative_config={"method": "ngram", "num_speculative_tokens": 8, "prompt_lookup_max": 4},
        )

    def predict(self, request):
        params = SamplingParams(temperature=0.0, max_tokens=128)
        return self.llm.generate([request["prompt"]], params)[0].outputs[0].text
