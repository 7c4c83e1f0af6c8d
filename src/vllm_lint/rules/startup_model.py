"""## What it does
Checks for model arguments that vLLM's `ModelConfig` rejects between
themselves, such as `checkpoint_prepare_on_startup` without
`enable_sleep_mode`.

## Why is this bad?
The model configuration is validated before any weight is loaded; vLLM
refuses to start with a `ValueError` quoting the message below.

## Example
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", checkpoint_prepare_on_startup=True)
```

## Use instead
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", checkpoint_prepare_on_startup=True, enable_sleep_mode=True)
```

## Fix safety
No automatic fix.

## Versions
Every release the data was generated from that has the check.
"""

from vllm_lint.rules.startup_checks import make_rule

RULE = make_rule("VLM404", "startup-model", "model arguments vLLM's model config rejects together", __doc__)
