"""## What it does
Checks for arguments the `LLM` class itself rejects before it builds the
engine: `data_parallel_size` above 1 without the `external_launcher` backend.
Only the `LLM` class checks this: `vllm serve` and `EngineArgs` accept the
same value.

## Why is this bad?
One `LLM` object runs in one process; data parallelism there is not supported
and may hang, so vLLM raises a `ValueError` before the engine starts.

## Example
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", data_parallel_size=2)
```

## Use instead
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", tensor_parallel_size=2)
```

## Fix safety
No automatic fix: data parallelism offline needs one process per rank (vLLM's
`data_parallel_offline.py` example), which is a different program.

## Versions
Every release the data was generated from that has the check.
"""

from vllm_lint.rules.startup_checks import make_rule

RULE = make_rule("VLM403", "startup-llm-class", "arguments the LLM class rejects before building the engine", __doc__)
