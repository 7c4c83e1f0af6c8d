"""## What it does
Checks for a `SamplingParams` with `temperature=0` (greedy) that reaches an
engine with `return_sampling_mask=True`.

## Why is this bad?
A greedy request has no sampling distribution to replay. vLLM rejects the
request with a `ValueError`.
Small positive temperatures are fine: `SamplingParams` raises any temperature
in `(0, 0.01)` to `0.01`, so only `0` is greedy. A negative temperature is
rejected by `SamplingParams` itself and is not reported here.

## Example
```python
from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
outputs = llm.generate(["Hello"], SamplingParams(temperature=0.0, top_k=50))
```

## Use instead
```python
from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
outputs = llm.generate(["Hello"], SamplingParams(temperature=1.0, top_k=50))
```

## Fix safety
No automatic fix: a sampling temperature is a modelling choice.

## Versions
0.28+.
"""

from vllm_lint.facts import known_number
from vllm_lint.rules.base import Rule, replay_on
from vllm_lint.versions import since

VLLM_ERROR = "sampling distribution replay requires temperature > 0"

def is_greedy(request):
    """temperature=0: vLLM samples greedily (it raises (0, 0.01) to 0.01 and rejects < 0)."""
    return known_number(request.get("temperature")) == 0


def check(request, version):
    if not replay_on(request.engine) or not is_greedy(request):
        return
    yield RULE.finding(
        "greedy request (temperature=0) to an engine with return_sampling_mask=True; use temperature > 0",
        request.location_of("temperature"),
        vllm_error=VLLM_ERROR,
    )


RULE = Rule(
    code="VLM201",
    name="replay-request-temperature",
    summary="greedy request to a replay engine",
    versions=since("0.28"),
    scope="request",
    check=check,
    doc=__doc__,
    vllm_errors=(VLLM_ERROR,),
)
