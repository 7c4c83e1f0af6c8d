"""## What it does
Checks for `return_sampling_mask=True` on a diffusion language model: an
`hf_overrides` that sets `canvas_length`, or a model whose checkpoint config sets
`canvas_length` (vLLM's own test for a diffusion model, `ModelConfig.is_diffusion`),
read where vllm-lint finds the config (a local checkpoint folder, the Hugging Face
cache, `[tool.vllm-lint.models]`, the table of known models). A model whose config
vllm-lint does not find is taken as a diffusion model when its id contains
`diffusiongemma` (case-insensitive), the only diffusion family vLLM registers.
`diffusion_config` alone does not make a model a diffusion model.

## Why is this bad?
Diffusion models do not sample token by token from a filtered distribution.
vLLM refuses to start with a `ValueError`.

## Example
```python
from vllm import LLM

llm = LLM("google/diffusiongemma-26B-A4B-it", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Use instead
```python
from vllm import LLM

llm = LLM("google/gemma-3-27b-it", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Fix safety
No automatic fix: the model is the user's choice.

## Versions
0.28+.
"""

from vllm_lint.facts import Known, Mapping
from vllm_lint.rules.base import Rule, name_of, replay_on, spell
from vllm_lint.versions import since

DIFFUSION_MODEL_MARKER = "diffusiongemma"
VLLM_ERROR = "sampling distribution replay does not support diffusion models"


def _diffusion_reason(facts):
    overrides = facts.get("hf_overrides")
    if isinstance(overrides, Known) and isinstance(overrides.value, Mapping):
        canvas = overrides.value.get("canvas_length")
        if isinstance(canvas, Known) and canvas.value is not None:
            return "hf_overrides", f"{name_of(facts, 'hf_overrides')} sets canvas_length, which makes any model a diffusion model"
    model = facts.get("model")
    if not (isinstance(model, Known) and isinstance(model.value, str)):
        return None
    from vllm_lint.model_facts import model_facts

    known = model_facts(facts)
    if known is not None:
        # vLLM's own test (ModelConfig.is_diffusion): the checkpoint's config sets canvas_length.
        canvas = known.config.get("canvas_length")
        if canvas is None:
            return None
        return "model", f'"{model.value}" is a diffusion model ({known.where("canvas_length")})'
    if DIFFUSION_MODEL_MARKER in model.value.lower():
        return "model", f'"{model.value}" is a diffusion model'
    return None


def check(facts, version):
    if not replay_on(facts):
        return
    reason = _diffusion_reason(facts)
    if reason:
        name, why = reason
        yield RULE.finding(
            f"{spell(facts, 'return_sampling_mask')} cannot be used with a diffusion model: {why}; use an "
            "autoregressive model or turn replay off",
            facts.location_of(name),
            vllm_error=VLLM_ERROR,
        )


RULE = Rule(
    code="VLM103",
    name="replay-diffusion-model",
    summary="sampling distribution replay on a diffusion language model",
    versions=since("0.28"),
    scope="engine",
    check=check,
    doc=__doc__,
    vllm_errors=(VLLM_ERROR,),
)
