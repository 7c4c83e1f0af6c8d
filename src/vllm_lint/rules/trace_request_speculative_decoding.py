"""## What it does
Checks for a `SamplingParams(trace_decode_token_ids=...)` that reaches an
engine with speculative decoding.

## Why is this bad?
vLLM 0.29-0.33 reject the request with a `ValueError`.

## Example
```python
# target-version: 0.33
from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen3-8B", enable_trace_replay=True, speculative_config={"method": "eagle3", "model": "org/eagle3-head", "num_speculative_tokens": 3})
llm.generate(["Hi"], SamplingParams(trace_decode_token_ids=[9707, 0]))
```

## Use instead
```python
# target-version: 0.33
from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen3-8B", enable_trace_replay=True)
llm.generate(["Hi"], SamplingParams(trace_decode_token_ids=[9707, 0]))
```

## Fix safety
No automatic fix.

## Versions
0.29-0.33. vLLM 0.34 accepts trace replay with speculative decoding.
"""

from vllm_lint.rules.base import Rule
from vllm_lint.rules.replay_speculative_decoding import _enabled_by
from vllm_lint.rules.trace_request_without_trace_replay import has_trace
from vllm_lint.versions import since

VLLM_ERROR = "trace_decode_token_ids is not supported with speculative decoding."


def check(request, version):
    if not has_trace(request):
        return
    name = _enabled_by(request.engine)
    if name is not None:
        yield RULE.finding(
            f"trace_decode_token_ids sent to an engine with speculative decoding ({name}); replay "
            "traces on an engine without it, or upgrade to vLLM 0.34",
            request.location_of("trace_decode_token_ids"),
            vllm_error=VLLM_ERROR,
        )


RULE = Rule(
    code="VLM204",
    name="trace-request-speculative-decoding",
    summary="trace_decode_token_ids sent to a speculative-decoding engine",
    versions=since("0.29", "0.33"),
    scope="request",
    check=check,
    doc=__doc__,
    vllm_errors=(VLLM_ERROR,),
)
