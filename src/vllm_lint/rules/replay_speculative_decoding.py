"""## What it does
Checks for `return_sampling_mask=True` combined with speculative decoding
that the target release rejects: any speculative configuration
(`speculative_config`, `spec_method`, `spec_model`) up to vLLM 0.31; from 0.32
only a speculative configuration with `enable_adaptive_verification` on.

## Why is this bad?
Sampling masks need fixed verification boundaries. vLLM refuses to start with
a `ValueError`: the first text below up to 0.31, the second from 0.32.

## Example
```python
from vllm import LLM

llm = LLM(
    "Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config={"method": "dspark", "num_speculative_tokens": 4, "enable_adaptive_verification": True},
)
```

## Use instead
```python
from vllm import LLM

llm = LLM(
    "Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config={"method": "dspark", "num_speculative_tokens": 4},
)
```

## Fix safety
Unsafe: the fix removes `enable_adaptive_verification` (0.32+) or the whole
speculative configuration (older releases), which changes throughput.

## Versions
0.28+. The rule changed in 0.32 (see above).
"""

from vllm_lint.facts import Known, Mapping, known_bool
from vllm_lint.rules.base import Rule, name_of, replay_on, spell
from vllm_lint.versions import since

ADAPTIVE_ONLY = since("0.32")
SPEC_FIELDS = ("speculative_config", "spec_method", "spec_model")
VLLM_ERROR_ANY = "sampling distribution replay does not support speculative decoding"
VLLM_ERROR_ADAPTIVE = (
    "sampling distribution replay with speculative decoding requires fixed verification boundaries; "
    "disable adaptive verification"
)


def _enabled_by(facts):
    """The field that certainly switches speculative decoding on, if any."""
    for name in SPEC_FIELDS:
        fact = facts.get(name)
        if not isinstance(fact, Known) or fact.value is None:
            continue
        value = fact.value
        # `{}` fails earlier, in SpeculativeConfig's own checks; it is not this error.
        if isinstance(value, Mapping) and not value.items:
            continue
        return name
    return None


def check(facts, version):
    if not replay_on(facts):
        return
    if version in ADAPTIVE_ONLY:
        config = facts.get("speculative_config")
        if not (isinstance(config, Known) and isinstance(config.value, Mapping)):
            return
        adaptive = config.value.get("enable_adaptive_verification")
        if known_bool(adaptive) is True:
            yield RULE.finding(
                f"{spell(facts, 'return_sampling_mask')} cannot be combined with adaptive verification; remove "
                f"enable_adaptive_verification from {name_of(facts, 'speculative_config')}",
                facts.location_of("speculative_config"),
                adaptive.origin if isinstance(adaptive, Known) else None,
                action="remove-adaptive-verification",
                vllm_error=VLLM_ERROR_ADAPTIVE,
            )
        return
    name = _enabled_by(facts)
    if name is not None:
        yield RULE.finding(
            f"{spell(facts, 'return_sampling_mask')} cannot be combined with speculative decoding "
            f"({name_of(facts, name)}) before vLLM 0.32; remove {name_of(facts, name)} or upgrade vLLM",
            facts.location_of(name),
            facts.written.get(name),
            action="remove-speculative-config",
            vllm_error=VLLM_ERROR_ANY,
        )


RULE = Rule(
    code="VLM102",
    name="replay-speculative-decoding",
    summary="sampling distribution replay with speculative decoding the release rejects",
    versions=since("0.28"),
    scope="engine",
    check=check,
    doc=__doc__,
    fix_safety="unsafe",
    vllm_errors=(VLLM_ERROR_ANY, VLLM_ERROR_ADAPTIVE),
)
