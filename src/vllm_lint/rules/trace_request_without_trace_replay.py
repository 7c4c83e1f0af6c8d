"""## What it does
Checks for a `SamplingParams(trace_decode_token_ids=...)` that reaches an
engine built without `enable_trace_replay=True`.

## Why is this bad?
vLLM rejects the request with a `VLLMValidationError`.

## Example
```python
from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen3-4B")
llm.generate(["Hi"], SamplingParams(temperature=1.0, trace_decode_token_ids=[9707, 0]))
```

## Use instead
```python
from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen3-4B", enable_trace_replay=True)
llm.generate(["Hi"], SamplingParams(temperature=1.0, trace_decode_token_ids=[9707, 0]))
```

## Fix safety
No automatic fix.

## Versions
0.29+ (the request check appeared with the `SamplingParams` field).
"""

from vllm_lint.facts import Known, known_bool, truthiness
from vllm_lint.rules.base import Rule
from vllm_lint.versions import since

VLLM_ERROR = (
    "trace_decode_token_ids is set but trace replay is not enabled. Start the engine with "
    "--enable-trace-replay to use it."
)


def has_trace(request):
    trace = request.get("trace_decode_token_ids")
    return isinstance(trace, Known) and truthiness(trace.value) is True


def check(request, version):
    if not has_trace(request):
        return
    if known_bool(request.engine.get("enable_trace_replay")) is False:
        yield RULE.finding(
            "trace_decode_token_ids sent to an engine without enable_trace_replay=True; "
            "build the engine with enable_trace_replay=True",
            request.location_of("trace_decode_token_ids"),
            vllm_error=VLLM_ERROR,
        )


RULE = Rule(
    code="VLM203",
    name="trace-request-without-trace-replay",
    summary="trace_decode_token_ids sent to an engine without trace replay",
    versions=since("0.29"),
    scope="request",
    check=check,
    doc=__doc__,
    vllm_errors=(VLLM_ERROR,),
)
