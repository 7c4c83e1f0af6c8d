"""## What it does
Checks for parallelism arguments that vLLM's `ParallelConfig` rejects between
themselves: elastic EP without `enable_eplb`, EPLB without
`enable_expert_parallel`, and the other checks of `vllm/config/parallel.py`
(and its `EPLBConfig`) whose conditions the generator can write in terms of
arguments. A check reading a field vLLM computes on the way (the executor
backend it picks, the external load-balancing mode it infers) is reported only
where the arguments decide that field too; otherwise it stays silent. Nsight
profiling without Ray is reported where the backend is written, or where one GPU
makes vLLM pick `uni`; with several GPUs and no backend written, vLLM picks Ray
or multiprocessing by what it finds running, and the check is silent.

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

llm = LLM("Qwen/Qwen3-30B-A3B", tensor_parallel_size=2, enable_elastic_ep=True)
```

## Use instead
```python
from vllm import LLM

llm = LLM(
    "Qwen/Qwen3-30B-A3B",
    tensor_parallel_size=2,
    enable_elastic_ep=True,
    enable_eplb=True,
    enable_expert_parallel=True,
)
```

## Fix safety
No automatic fix: which of the arguments is meant cannot be known.

## Versions
Every release the data was generated from (0.29-0.34 today); the conditions and the
messages are those of the release.
"""

from vllm_lint.rules.startup_checks import make_rule

RULE = make_rule("VLM401", "startup-parallel", "parallelism arguments vLLM's parallel config rejects together", __doc__)
