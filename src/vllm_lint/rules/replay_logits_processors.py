"""## What it does
Checks for `return_sampling_mask=True` with a non-empty engine-level
`logits_processors` list. `[]` and `None` are fine, and per-request
`SamplingParams(logits_processors=...)` is not engine-level.

## Why is this bad?
Custom processors change the distribution after the mask is taken. vLLM
refuses to start with a `ValueError`.
Up to 0.30 custom processors also demote the engine to Model Runner V1, so
vLLM reports VLM101's error first; both findings are shown.

## Example
```python
from vllm import LLM

llm = LLM(
    "Qwen/Qwen3-4B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    logits_processors=["my_pkg.processors:NoRepeat"],
)
```

## Use instead
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Fix safety
Unsafe: the fix removes the `logits_processors` argument or entry, which
changes what is generated.

## Versions
0.28+.
"""

from vllm_lint.facts import Known, truthiness
from vllm_lint.rules.base import Rule, name_of, replay_on, spell
from vllm_lint.versions import since

VLLM_ERROR = "sampling distribution replay does not support custom logits processors"


def check(facts, version):
    if not replay_on(facts):
        return
    processors = facts.get("logits_processors")
    if isinstance(processors, Known) and truthiness(processors.value) is True:
        yield RULE.finding(
            f"{spell(facts, 'return_sampling_mask')} cannot be combined with engine-level "
            f"{name_of(facts, 'logits_processors')}; "
            "remove them or turn replay off",
            facts.location_of("logits_processors"),
            facts.written.get("logits_processors"),
            action="remove",
            vllm_error=VLLM_ERROR,
        )


RULE = Rule(
    code="VLM104",
    name="replay-logits-processors",
    summary="sampling distribution replay with custom engine-level logits processors",
    versions=since("0.28"),
    scope="engine",
    check=check,
    doc=__doc__,
    fix_safety="unsafe",
    vllm_errors=(VLLM_ERROR,),
)
