"""The synchronous backend of the rollout worker: batches of prompts through the engine and the
sampling settings the base class set up."""
from mypkg.rollout.base import BaseRollout


class SyncRollout(BaseRollout):
    def generate_sequences(self, prompts):
        outputs = self.llm.generate(prompts, self.sampling_params)  # expect: VLM202:46
        return [output.outputs[0].token_ids for output in outputs]

    def logprobs_of(self, outputs):
        return [[step for step in output.outputs[0].logprobs] for output in outputs]


class ChunkedRollout(SyncRollout):
    """Two levels down: the engine and the settings still come from BaseRollout."""

    def generate_sequences(self, prompts, chunk_size=64):
        results = []
        for start in range(0, len(prompts), chunk_size):
            results.extend(self.llm.generate(prompts[start : start + chunk_size], self.sampling_params))  # expect: VLM202
        return results


class ProfiledRollout(BaseRollout):
    """Runs the base's ``__init__`` by name: its engine and settings are this rollout's."""

    def __init__(self, model_path, profiler):
        BaseRollout.__init__(self, model_path, tensor_parallel_size=2)
        self.profiler = profiler

    def generate_sequences(self, prompts):
        with self.profiler:
            return self.llm.generate(prompts, sampling_params=self.sampling_params)  # expect: VLM202
