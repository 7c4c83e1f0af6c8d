"""## What it does
Checks for `return_sampling_mask=True` where the effective `logprobs_mode` is
not exactly `"processed_logprobs"`. A missing `logprobs_mode` counts: vLLM's
default is `"raw_logprobs"`.

## Why is this bad?
Returned logprobs must be normalised over the same nucleus as the mask. vLLM
refuses to start with a `ValueError`.

## Example
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True)
```

## Use instead
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Fix safety
Safe: `"processed_logprobs"` is the only value vLLM accepts with the mask. The
fix replaces a wrong value where it is written, or adds the keyword.

## Versions
0.28+.
"""

from vllm_lint.facts import ABSENT, Known
from vllm_lint.rules.base import Rule, replay_on, spell
from vllm_lint.versions import since

REQUIRED = "processed_logprobs"
DEFAULT = "raw_logprobs"
VLLM_ERROR = (
    "sampling distribution replay requires logprobs_mode='processed_logprobs' so that returned logprobs "
    "are normalized over the same nucleus as the sampling mask"
)


def check(facts, version):
    if not replay_on(facts):
        return
    mode = facts.get("logprobs_mode")
    if mode is ABSENT or (isinstance(mode, Known) and mode.value is None):
        problem = f"(vLLM's default is \"{DEFAULT}\")"
    elif isinstance(mode, Known) and isinstance(mode.value, str) and mode.value != REQUIRED:
        problem = f'(it is "{mode.value}")'
    else:
        return
    yield RULE.finding(
        f"{spell(facts, 'return_sampling_mask')} needs {spell(facts, 'logprobs_mode', REQUIRED)} {problem}",
        facts.location_of("logprobs_mode"),
        facts.written.get("logprobs_mode"),
        action="set-processed-logprobs",
        vllm_error=VLLM_ERROR,
    )


RULE = Rule(
    code="VLM105",
    name="replay-logprobs-mode",
    summary='sampling distribution replay without logprobs_mode="processed_logprobs"',
    versions=since("0.28"),
    scope="engine",
    check=check,
    doc=__doc__,
    fix_safety="safe",
    vllm_errors=(VLLM_ERROR,),
)
