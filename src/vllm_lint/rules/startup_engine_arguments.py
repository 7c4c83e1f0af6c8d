"""## What it does
Checks for combinations that `EngineArgs.create_engine_config` rejects before
it builds the configs: fault tolerance without external load balancing,
`--nnodes` that does not divide the world size or a `--node-rank` out of
range, both data-parallel load-balancing modes at once, an external
data-parallel rank without its rank.

## Why is this bad?
`vllm serve`, `LLM` and `AsyncLLMEngine` all build their configuration through
`create_engine_config`: the engine refuses to start with a `ValueError`. The
finding quotes the release's message and names the line of
`vllm/engine/arg_utils.py` that raises it.

## Example
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-8B", tensor_parallel_size=2, nnodes=2, data_parallel_backend="ray")
```

## Use instead
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-8B", tensor_parallel_size=2, nnodes=2, node_rank=0)
```

## Fix safety
No automatic fix: the launch layout is the user's choice.

## Versions
Every release the data was generated from (0.29-0.34 today).
"""

from vllm_lint.rules.startup_checks import make_rule

RULE = make_rule("VLM402", "startup-engine-arguments", "arguments create_engine_config rejects together", __doc__)
