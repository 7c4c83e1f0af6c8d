"""An evaluation harness's vLLM backend: the user's model arguments are merged, then replay is
forced on; scoring requests are greedy.  The engine exists only without data parallelism;
with it, Ray workers build their own."""
import copy
from typing import cast

import ray
from vllm import LLM, SamplingParams


class ReplayVLLM:
    def __init__(self, pretrained, dtype="auto", data_parallel_size=1, max_length=None, **kwargs):
        self.data_parallel_size = int(data_parallel_size)
        self._max_length = max_length
        self.model_args = {
            "model": pretrained,
            "dtype": dtype,
            "tensor_parallel_size": 1,
            "logprobs_mode": "processed_logprobs",
        }
        self.model_args.update(kwargs)
        self.model_args["return_sampling_mask"] = True
        if self.data_parallel_size <= 1:
            self.model = LLM(**self.model_args)
        else:
            self.model_args["worker_use_ray"] = True
            self.model = None

    def _model_generate(self, requests, generate=False, max_tokens=None, stop=None, sampling_params=None):
        if not generate or sampling_params is None:
            sampling_params = SamplingParams(temperature=0, prompt_logprobs=1, max_tokens=1, detokenize=False)  # expect: VLM201
        if self.data_parallel_size > 1:

            @ray.remote
            def run_inference_one_model(model_args, params, batch):
                llm = LLM(**model_args)
                return llm.generate(batch, params)

            batches = [requests[i :: self.data_parallel_size] for i in range(self.data_parallel_size)]
            handles = [run_inference_one_model.remote(self.model_args, sampling_params, b) for b in batches]
            return [item for chunk in ray.get(handles) for item in chunk]
        if not isinstance(sampling_params, list):
            sampling_params = cast("list[SamplingParams]", [sampling_params] * len(requests))
        return self.model.generate(requests, sampling_params=sampling_params, use_tqdm=True)

    def loglikelihood_rolling(self, requests):
        windows = [copy.deepcopy(r) for r in requests]
        return self._model_generate(windows, generate=False)

    def _loglikelihood_tokens(self, requests):
        outputs = self._model_generate(requests=requests, generate=False)
        return [output.prompt_logprobs for output in outputs]


class MergedLastVLLM:
    """The user's arguments are merged after replay is turned on: they may turn it off."""

    def __init__(self, pretrained, **kwargs):
        self.model_args = {"model": pretrained, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
        self.model_args.update(kwargs)
        self.model = LLM(**self.model_args)

    def _model_generate(self, requests, generate=False, sampling_params=None):
        if not generate or sampling_params is None:
            sampling_params = SamplingParams(temperature=0, prompt_logprobs=1, max_tokens=1)
        return self.model.generate(requests, sampling_params=[sampling_params] * len(requests))

    def loglikelihood(self, requests):
        return self._model_generate(requests, generate=False)


class SampledScoringVLLM:
    """Scoring with the caller's sampling parameters: the generating path is the only one."""

    def __init__(self, pretrained, **kwargs):
        self.model_args = dict(kwargs, model=pretrained, logprobs_mode="processed_logprobs")
        self.model_args["return_sampling_mask"] = True
        self.model = LLM(**self.model_args)

    def _model_generate(self, requests, generate=False, sampling_params=None):
        if not generate or sampling_params is None:
            sampling_params = SamplingParams(temperature=0, prompt_logprobs=1, max_tokens=1)
        return self.model.generate(requests, sampling_params=cast("list[SamplingParams]", [sampling_params] * len(requests)))

    def generate_until(self, requests, gen_kwargs):
        params = SamplingParams(**gen_kwargs)
        return self._model_generate(requests, generate=True, sampling_params=params)
