"""Offline engines built once per parametrised case."""
import pytest
import torch
from vllm import LLM, SamplingParams

MODEL = "Qwen/Qwen3-8B"


@pytest.mark.parametrize(
    "logprobs_mode, enforce_eager",
    [
        ("processed_logprobs", True),
        pytest.param("raw_logprobs", False, marks=pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")),
    ],
)
def test_replay_logprobs(logprobs_mode, enforce_eager):
    llm = LLM(
        model=MODEL,
        enforce_eager=enforce_eager,
        logprobs_mode=logprobs_mode,  # expect: VLM105
        return_sampling_mask=True,
    )
    outputs = llm.generate(["The capital of France is"], SamplingParams(max_tokens=4, logprobs=1, top_k=20))
    assert outputs[0].outputs[0].logprobs


@pytest.mark.parametrize("tensor_parallel_size", [1, 2])
@pytest.mark.parametrize("mode", ["processed_logprobs"])
def test_replay_every_size(tensor_parallel_size, mode):
    llm = LLM(model=MODEL, tensor_parallel_size=tensor_parallel_size, return_sampling_mask=True, logprobs_mode=mode)
    llm.generate(["Hi"], SamplingParams(max_tokens=2, top_k=20))


@pytest.fixture(params=["processed_logprobs", "raw_logprobs"])
def replay_llm(request):
    return LLM(model=MODEL, return_sampling_mask=True, logprobs_mode=request.param)  # expect: VLM105


def modes_from_environment():
    import os

    return os.environ.get("REPLAY_MODES", "raw_logprobs").split(",")


@pytest.mark.parametrize("mode", modes_from_environment())
def test_replay_modes_from_environment(mode):
    # The cases are read at collection time from the environment: not known here.
    LLM(model=MODEL, return_sampling_mask=True, logprobs_mode=mode)
