"""## What it does
Checks for a `SamplingParams` without a positive `top_k` that reaches an
engine with `return_sampling_mask=True`. A missing `top_k` counts: the
default is `0` (disabled). A greedy request reports VLM201 only.

## Why is this bad?
The mask would cover the whole vocabulary. vLLM rejects the request with a
`ValueError`.

Requests that pass no `SamplingParams` take the model's generation config,
which may set `top_k`; they are not reported.

## Example
```python
from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
params = SamplingParams(temperature=1.0, top_p=0.95)
outputs = llm.generate(["Hello"], params)
```

## Use instead
```python
from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
params = SamplingParams(temperature=1.0, top_p=0.95, top_k=256)
outputs = llm.generate(["Hello"], params)
```

## Fix safety
No automatic fix: the bound is a modelling choice.

## Versions
0.28+.
"""

from vllm_lint.facts import ABSENT, Known
from vllm_lint.rules.base import Rule, replay_on
from vllm_lint.rules.replay_request_temperature import is_greedy
from vllm_lint.versions import since

VLLM_ERROR = (
    "sampling distribution replay requires top_k > 0 to bound sampling mask size, reduce transfer "
    "overhead, and avoid potential OOMs"
)


def check(request, version):
    if not replay_on(request.engine) or is_greedy(request):
        return
    top_k = request.get("top_k")
    if top_k is ABSENT or (isinstance(top_k, Known) and top_k.value is None):
        problem = "without top_k (the default 0 disables it)"
    elif isinstance(top_k, Known) and isinstance(top_k.value, int) and not isinstance(top_k.value, bool) and top_k.value <= 0:
        problem = f"with top_k={top_k.value}"
    else:
        return
    yield RULE.finding(
        f"request {problem} to an engine with return_sampling_mask=True; set top_k > 0",
        request.location_of("top_k"),
        vllm_error=VLLM_ERROR,
    )


RULE = Rule(
    code="VLM202",
    name="replay-request-top-k",
    summary="request without a positive top_k to a replay engine",
    versions=since("0.28"),
    scope="request",
    check=check,
    doc=__doc__,
    vllm_errors=(VLLM_ERROR,),
)
