"""## What it does
Checks for `enable_trace_replay=True` on an engine that vLLM runs on Model
Runner V1 (`VLLM_USE_V2_MODEL_RUNNER=0` set in the code, or a feature that
demotes the release's default runner, as in VLM101).

## Why is this bad?
Trace replay injects decode tokens in the V2 runner only. vLLM refuses to
start with a `ValueError`.

## Example
```python
# target-version: 0.33
import os

from vllm import LLM

os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"
llm = LLM("Qwen/Qwen3-4B", enable_trace_replay=True)
```

## Use instead
```python
# target-version: 0.33
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", enable_trace_replay=True)
```

## Fix safety
No automatic fix (see VLM101).

## Versions
0.29-0.33 (trace replay appeared in 0.29; 0.34 has no V1 runner).
"""

from vllm_lint.rules.base import Rule, name_of, trace_replay_on
from vllm_lint.rules.replay_requires_v2_runner import runner_advice
from vllm_lint.runner import choose_runner
from vllm_lint.versions import since

VLLM_ERROR = "trace replay requires Model Runner V2"


def check(facts, version):
    if not trace_replay_on(facts):
        return
    choice = choose_runner(facts, version)
    if choice.v1:
        yield RULE.finding(
            f"{name_of(facts, 'enable_trace_replay')} needs Model Runner V2, but {choice.reason}; {runner_advice(choice)}",
            facts.anchor,
            vllm_error=VLLM_ERROR,
        )


RULE = Rule(
    code="VLM107",
    name="trace-replay-requires-v2-runner",
    summary="trace replay on an engine that runs Model Runner V1",
    versions=since("0.29", "0.33"),
    scope="engine",
    check=check,
    doc=__doc__,
    vllm_errors=(VLLM_ERROR,),
)
