"""## What it does
Checks for replay flags the target vLLM release does not have:
`return_sampling_mask` before 0.28, `enable_trace_replay` and
`enable_batch_sharded_sampling` before 0.29. The keyword is reported whatever
its value.

## Why is this bad?
`EngineArgs` is a plain dataclass: vLLM raises a `TypeError`; the server's
argument parser stops with `unrecognized arguments`. Upgrade vLLM or drop the
flag.

## Example
```python
# target-version: 0.27
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Use instead
```python
# target-version: 0.28
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Fix safety
No automatic fix: upgrade vLLM (pin `vllm>=0.28`) rather than drop the feature.

## Versions
All releases; which flags it reports depends on the release.
"""

from vllm_lint.rules.base import Rule, name_of, unknown_setting_error
from vllm_lint.versions import ALL_VERSIONS, Version

FIRST_RELEASE = {
    "return_sampling_mask": Version(0, 28),
    "enable_trace_replay": Version(0, 29),
    "enable_batch_sharded_sampling": Version(0, 29),
}


def check(facts, version):
    for name, first in FIRST_RELEASE.items():
        if version.release >= first.release:
            continue
        if not facts.present(name):
            continue
        yield RULE.finding(
            f"{name_of(facts, name)} does not exist in vLLM {version.major}.{version.minor} (added in "
            f"{first.major}.{first.minor}); upgrade vLLM or remove it",
            facts.location_of(name),
            vllm_error=unknown_setting_error(facts, name),
        )


RULE = Rule(
    code="VLM301",
    name="flag-unavailable",
    summary="a replay flag the target vLLM release does not have",
    versions=ALL_VERSIONS,
    scope="engine",
    check=check,
    doc=__doc__,
    vllm_errors=tuple(
        f"EngineArgs.__init__() got an unexpected keyword argument '{name}'" for name in FIRST_RELEASE
    ) + tuple(f"unrecognized arguments: --{name.replace('_', '-')}" for name in FIRST_RELEASE),
)
