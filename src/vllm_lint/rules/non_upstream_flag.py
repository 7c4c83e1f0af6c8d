"""## What it does
Checks for `enable_return_sampling_mask` and `return_sampling_mask_logprobs`
passed to a vLLM constructor or server. No vLLM release has them: the first
was the feature's name while it was under review, the second exists only in
forks and monkey-patches.

## Why is this bad?
vLLM raises a `TypeError`; the server's argument parser stops with
`unrecognized arguments`.

## Example
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", enable_return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Use instead
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Fix safety
Safe for `enable_return_sampling_mask` (renamed to `return_sampling_mask`);
unsafe for `return_sampling_mask_logprobs` (removed).

## Versions
All releases.
"""

from vllm_lint.rules.base import Rule, name_of, unknown_setting_error
from vllm_lint.versions import ALL_VERSIONS

REPLACEMENTS = {
    "enable_return_sampling_mask": ("rename it to return_sampling_mask", "rename-to-return-sampling-mask", "safe"),
    "return_sampling_mask_logprobs": (
        "remove it (logprobs come from logprobs_mode=\"processed_logprobs\")",
        "remove",
        "unsafe",
    ),
}


def check(facts, version):
    for name, (advice, action, safety) in REPLACEMENTS.items():
        if not facts.present(name):
            continue
        finding = RULE.finding(
            f"{name_of(facts, name)} is not a vLLM option (no release has it); {advice}",
            facts.location_of(name),
            facts.written.get(name),
            action=action,
            vllm_error=unknown_setting_error(facts, name),
        )
        finding.fix_safety = safety
        yield finding


RULE = Rule(
    code="VLM302",
    name="non-upstream-flag",
    summary="a sampling-mask flag that no vLLM release has",
    versions=ALL_VERSIONS,
    scope="engine",
    check=check,
    doc=__doc__,
    fix_safety="safe",
    vllm_errors=tuple(
        f"EngineArgs.__init__() got an unexpected keyword argument '{name}'" for name in REPLACEMENTS
    ) + tuple(f"unrecognized arguments: --{name.replace('_', '-')}" for name in REPLACEMENTS),
)
