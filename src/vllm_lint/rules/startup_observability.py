"""## What it does
Checks for tracing and profiling arguments that vLLM's `ObservabilityConfig`
and `ProfilerConfig` reject between themselves, such as
`collect_detailed_traces` without `otlp_traces_endpoint`.

## Why is this bad?
vLLM validates them before it starts and raises a `ValueError`.

## Example
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", collect_detailed_traces=["all"])
```

## Use instead
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", collect_detailed_traces=["all"], otlp_traces_endpoint="http://localhost:4317")
```

## Fix safety
No automatic fix.

## Versions
Every release the data was generated from that has the check.
"""

from vllm_lint.rules.startup_checks import make_rule

RULE = make_rule("VLM405", "startup-observability", "tracing or profiling arguments vLLM rejects together", __doc__)
