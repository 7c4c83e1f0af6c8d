"""## What it does
Checks for the remaining start-up checks between arguments that the data
holds: those of the other config classes (`CompilationConfig`, `MambaConfig`,
`EngramConfig`, `AttentionConfig`, `SpeculativeConfig` and each speculative
method's own `configure`, `VllmConfig`, ...), for example an encoder CUDA
graph token budget that is not positive, an Engram shared-memory option
without CPU offload, or an n-gram `prompt_lookup_min` above
`prompt_lookup_max`.

## Why is this bad?
vLLM validates these configs before it loads the model and refuses to start
with the error quoted in the finding.

## Example
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-VL-8B-Instruct", compilation_config={"encoder_cudagraph_max_token_budget": 0})
```

## Use instead
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-VL-8B-Instruct", compilation_config={"encoder_cudagraph_max_token_budget": 8192})
```

## Fix safety
No automatic fix.

## Unknown values
A model that may be a speculators-format checkpoint (one named as such, or one
the file does not decide) brings its own speculative method and draft model,
which vLLM reads before any config is validated: the checks that read them are
silent. A key whose value is outside its field's choices is left to VLM303:
the config's own validation rejects it first.

## Versions
Every release the data was generated from; the checks differ per release.
"""

from vllm_lint.rules.startup_checks import make_rule

RULE = make_rule("VLM406", "startup-other-configs", "arguments another vLLM config class rejects together", __doc__)
