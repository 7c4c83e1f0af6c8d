"""## What it does
Checks for parallelism arguments that vLLM's `ParallelConfig` rejects between
themselves: EPLB without `enable_expert_parallel`, elastic EP without
`enable_eplb`, nsight profiling without the Ray backend,
`tensor_parallel_size` not divisible by `decode_context_parallel_size`,
`data_parallel_external_lb` with one data-parallel rank, and the other checks
of `vllm/config/parallel.py` that read only arguments.

## Why is this bad?
vLLM validates the parallel configuration before it loads the model and
refuses to start with a `ValueError` (or `NotImplementedError`). The finding
quotes the message of the release, and names the file and line of vLLM that
raises it. The checks are generated from vLLM's own source for every release
in the data (`tools/vllm_startup_checks.py`); a check that also depends on the
model or on the GPU is reported only where the arguments alone decide it.

## Example
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-8B", tensor_parallel_size=2, ray_workers_use_nsight=True)
```

## Use instead
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-8B", tensor_parallel_size=2, ray_workers_use_nsight=True, distributed_executor_backend="ray")
```

## Fix safety
No automatic fix: which of the arguments is meant cannot be known.

## Versions
Every release the data was generated from (0.30+); the conditions and the
messages are those of the release.
"""

from vllm_lint.rules.startup_checks import make_rule

RULE = make_rule("VLM401", "startup-parallel", "parallelism arguments vLLM's parallel config rejects together", __doc__)
