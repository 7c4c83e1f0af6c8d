from vllm import LLM


class Model:
    def load(self):
        # vLLM 0.6 is older than every release the rules know: these may have existed then.
        self._model = LLM(
            model="meta-llama/Llama-3.1-8B-Instruct",
            speculative_model="[ngram]",
            num_speculative_tokens=8,
            ngram_prompt_lookup_max=4,
        )

    def load_replay(self):
        # Sampling replay came in 0.28: 0.6 certainly lacks it.
        return LLM(model="m", return_sampling_mask=True)  # expect: VLM301
