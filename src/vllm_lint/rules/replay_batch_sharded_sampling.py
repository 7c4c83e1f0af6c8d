"""## What it does
Checks for `return_sampling_mask=True` together with
`enable_batch_sharded_sampling=True`.

## Why is this bad?
The batch-sharded gather does not forward sampling masks. vLLM refuses to
start with a `ValueError` (which lists any other reason batch-sharded sampling
cannot run, too).

## Example
```python
from vllm import LLM

llm = LLM(
    "Qwen/Qwen3-32B",
    tensor_parallel_size=4,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    enable_batch_sharded_sampling=True,
)
```

## Use instead
```python
from vllm import LLM

llm = LLM(
    "Qwen/Qwen3-32B",
    tensor_parallel_size=4,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
```

## Fix safety
Unsafe: the fix removes `enable_batch_sharded_sampling`, which changes how
sampling is spread over the tensor-parallel ranks.

## Versions
0.30+. In 0.29 the flag exists but does not block replay.
"""

from vllm_lint.facts import known_bool
from vllm_lint.rules.base import Rule, name_of, replay_on, spell
from vllm_lint.versions import since

VLLM_ERROR = (
    "Batch-sharded sampling was explicitly enabled via the --enable-batch-sharded-sampling flag, "
    "but is not supported in this configuration for the following reason(s): return_sampling_mask "
    "is set and the batch-sharded gather does not forward sampling masks."
)


def check(facts, version):
    if not replay_on(facts):
        return
    fact = facts.get("enable_batch_sharded_sampling")
    if known_bool(fact) is True:
        yield RULE.finding(
            f"{spell(facts, 'return_sampling_mask')} cannot be combined with "
            f"{spell(facts, 'enable_batch_sharded_sampling')}; remove {name_of(facts, 'enable_batch_sharded_sampling')}",
            facts.location_of("enable_batch_sharded_sampling"),
            facts.written.get("enable_batch_sharded_sampling"),
            action="remove",
            vllm_error=VLLM_ERROR,
        )


RULE = Rule(
    code="VLM106",
    name="replay-batch-sharded-sampling",
    summary="sampling distribution replay with batch-sharded sampling",
    versions=since("0.30"),
    scope="engine",
    check=check,
    doc=__doc__,
    fix_safety="unsafe",
    vllm_errors=(VLLM_ERROR,),
)
