"""## What it does
Checks for engines with `return_sampling_mask=True` that vLLM will run on
Model Runner V1: `VLLM_USE_V2_MODEL_RUNNER=0` set in the code before the
engine is built, or a feature the release's V2 runner lacks, which makes vLLM
fall back to V1 (0.33: speculative method `suffix`/`custom_class`,
`external_launcher` with pipeline parallelism, parallel drafting, heterogeneous
vocabularies; 0.28-0.30 also custom logits processors and more speculative
methods).

## Why is this bad?
Only Model Runner V2 can return sampling masks. vLLM refuses to start with a
`ValueError`. vLLM checks this before every other replay precondition, so it
is the error you see first.

## Example
```python
# target-version: 0.33
import os
os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"

from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Use instead
```python
# target-version: 0.33
import os
os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1"

from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Fix safety
No automatic fix: the runner choice is made by the environment or by another
feature; the message names it.

## Versions
0.28-0.33. vLLM 0.34 removed Model Runner V1 and the variable.
"""

from vllm_lint.rules.base import Rule, name_of, replay_on
from vllm_lint.runner import ENV_VAR, choose_runner

VLLM_ERROR = "sampling distribution replay requires Model Runner V2"


def runner_advice(choice):
    """What to change so that vLLM selects Model Runner V2."""
    if choice.setting == ENV_VAR:
        return f"set {ENV_VAR}=1 or unset it"
    return f"remove {choice.setting} or turn replay off"
from vllm_lint.versions import since


def check(facts, version):
    if not replay_on(facts):
        return
    choice = choose_runner(facts, version)
    if choice.v1:
        yield RULE.finding(
            f"{name_of(facts, 'return_sampling_mask')} needs Model Runner V2, but {choice.reason}; {runner_advice(choice)}",
            facts.anchor,
            vllm_error=VLLM_ERROR,
        )


RULE = Rule(
    code="VLM101",
    name="replay-requires-v2-runner",
    summary="sampling distribution replay on an engine that runs Model Runner V1",
    versions=since("0.28", "0.33"),
    scope="engine",
    check=check,
    doc=__doc__,
    vllm_errors=(VLLM_ERROR,),
)
