"""## What it does
Checks for arguments vLLM rejects at start-up for the model they load, read from the
model's checkpoint config where vllm-lint finds it (a local checkpoint folder, the Hugging
Face cache of the machine, `[tool.vllm-lint.models]`, or vllm-lint's table of widely used
models; see `docs/configuration.md`):

* a `max_model_len` longer than the length vLLM derives from the config (the smallest of
  its length keys, `max_position_embeddings` and the others vLLM reads, times the RoPE
  scaling factor where the RoPE type scales it; `model_max_length` over them), unless
  `VLLM_ALLOW_LONG_MAX_MODEL_LEN` is set;
* a `tensor_parallel_size` that does not divide the number of attention heads, and
  decode context parallelism on a model without MLA that its KV heads do not allow
  (tensor parallelism wider than the KV heads, at most that many times wider, and
  query heads per KV head divisible by the size);
* expert parallelism, or the routed-experts output (`enable_return_routed_experts`), on a
  model without experts;
* a `quantization` method that reads its config from the checkpoint (`gptq`, `awq`,
  `modelopt`, ...) on a checkpoint that has neither a `quantization_config` nor the file
  the method looks for, and a method vLLM cannot build without one (`quark`);
* a `quantization` method other than a quantized checkpoint's own (its
  `quantization_config.quant_method`) that none of vLLM's quantization classes takes the
  checkpoint for: `fp8` or `awq_marlin` on a GPTQ checkpoint, say, where `gptq_marlin` is
  taken (each class's `override_quantization_method`, read from the release's source and
  evaluated on the checkpoint's config; a hook that reads the GPU or the platform, such as
  MoE WNA16's, counts as taking it, and an architecture whose own hook rewrites the
  checkpoint's method first, gpt-oss's for one, is left alone);
* default multimodal LoRA adapters (`default_mm_loras`) on a text-only architecture;
* a `float16` KV cache (`kv_cache_dtype`) for a model that runs in bfloat16 (the
  checkpoint's `torch_dtype`, with `dtype` left to `auto`; with `dtype` written, the
  arguments alone decide it, and it is reported whatever the model);
* `dtype="float16"` for a model type vLLM does not run in float16 (Gemma 2 and 3, GLM-4).

The finding names the fact of the model and where it was read
(`max_position_embeddings=8192 in /models/llama/config.json`). A model vllm-lint does
not know leaves the checks silent (`vllm-lint explain` says so), and so does a key the
config does not write: a value that transformers' config class fills in is not read.

Where the conditions come from: the attention-heads, expert-parallelism, multimodal-LoRA and
the three decode-context-parallelism checks are vLLM's own conditions, generated from its
source with the model's facts as inputs (`startup_data/<release>.model.json`, read only for an
engine whose model is known; a fact the config does not say leaves them silent). The others
are written here, over data generated from vLLM's source, because their conditions are not
expressions of arguments and facts:

* the derived length: vLLM runs a helper (`_get_and_verify_max_len`) over key lists, RoPE
  parameters and the tokenizer's config;
* the quantization file: `get_quant_config` looks up files of the checkpoint folder and builds
  the method's class;
* the routed-experts output: `VllmConfig.__post_init__` runs it after calls that hand the
  config to other code (`set_platform_defaults(self)`), whose writes the generator cannot
  bound; it reads the generated expert count (`num_experts`);
* the KV-cache dtype: it compares with `model_config.dtype`, which `_resolve_auto_dtype`
  computes from the `dtype` argument, the checkpoint's dtype, the model type and the GPU;
* float16: `_check_valid_dtype` is a module helper handed the resolved dtype, outside the
  config validators the generator reads.

## Why is this bad?
vLLM reads the model's config when it builds the engine configuration and refuses to
start, often minutes into a job on a GPU machine, after the weights' download.

## Example
```python
from vllm import LLM

llm = LLM("meta-llama/Llama-3.1-8B-Instruct", tensor_parallel_size=3)
```

## Use instead
```python
from vllm import LLM

llm = LLM("meta-llama/Llama-3.1-8B-Instruct", tensor_parallel_size=4)
```

## Fix safety
No automatic fix: which value is meant is the user's choice.

## Versions
Every release the data was generated from (0.29-0.34 today): the config keys, RoPE
types, quantization methods, their override hooks and the messages of each release are
read from its source by `tools/vllm_checkpoint_checks.py`, the generated conditions by
`tools/vllm_startup_checks.py`.
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache

from vllm_lint.facts import ABSENT, UNKNOWN, Known, Mapping
from vllm_lint.rules.base import Rule, from_other_file
from vllm_lint.versions import VersionRange

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "checkpoint_data.json")
_DICT_ARGUMENTS = ("default_mm_loras", "aux_output_config")
LONGEST = 193  # characters of a message: with its code and a space, 200


@lru_cache(maxsize=1)
def _data() -> dict:
    with open(_DATA, encoding="utf-8") as handle:
        return json.load(handle)


def _release(version) -> dict | None:
    return _data().get("%d.%d" % version.release)


class _Checks:
    """One engine's arguments and its model's facts, for one release."""

    def __init__(self, facts, version, model, data) -> None:
        from vllm_lint.rules.startup_checks import Arguments, _release_data

        self.facts, self.model, self.data, self.version = facts, model, data, version
        startup = _release_data(version)
        self.arguments = Arguments(facts, version, startup) if startup is not None else None
        self.release = data["release"].rsplit(".", 1)[0]

    def value(self, name):
        """The argument's value as vLLM gets it (its default where it is not written); UNKNOWN."""
        if self.arguments is None or not self.arguments.usable:
            return UNKNOWN
        fact = self.arguments.fact(name)
        if isinstance(fact, Known) and isinstance(fact.value, Mapping):
            return fact.value
        return self.arguments.lookup(name, None, ABSENT)

    def written(self, name, key=None) -> bool:
        return self.arguments is not None and self.arguments.written(name, key)

    def span(self, name):
        origin = self.arguments.origin(name) if self.arguments is not None else None
        if origin is not None and origin.path is None:
            return origin.span, origin
        return self.facts.location_of(name), origin

    def spell(self, name, value=True) -> str:
        """The argument as the front end writes it, with its value (a dict's name alone)."""
        if self.facts.source == "command-line":
            flag = "--" + name.replace("_", "-")
            return flag if value is True else f"{flag} {value}"
        return name if value is True and name in _DICT_ARGUMENTS else f"{name}={value!r}"

    def finding(self, name, value, because, check, error=None, note=""):
        """``because(source)`` says why, naming the fact and where it was read: the whole
        source where the message fits, then a shorter spelling of it; vLLM's location and
        ``note`` are left out before the source is shortened."""
        raised = self.data["checks"][check]
        where = f"{raised['file']}:{raised['line']}" if error is None else f"{raised['file']}, {raised['function']}"
        head = f"{self.spell(name, value)}: rejected at start-up by vLLM {self.release}: "
        tries = []
        sources = (self.model.source, self.model.short_source) if self.model is not None else ("",)
        for source in dict.fromkeys(sources):
            tries += [because(source) + note + f" ({where})", because(source) + f" ({where})", because(source)]
        message = next((head + text for text in tries if len(head + text) <= LONGEST), head + tries[-1])
        span, origin = self.span(name)
        finding = RULE.finding(message, span, vllm_error=error or raised["message"])
        finding.settings = (name,)
        finding.reads = (name,)
        return from_other_file(finding, origin) if self.facts.source == "command-line" else finding


def generated(checks: _Checks, name: str) -> bool:
    """Whether the generated condition of the raise ``checkpoint_data.json`` names ``name`` (the
    check of ``startup_data/<release>.model.json`` at the same file and line) certainly holds
    for the engine's arguments and the model's facts; False where the release has no such check,
    where a fact it reads is not known, and where the argument checks (VLM401-VLM406) already
    report that raise."""
    from vllm_lint.model_facts import read_fact
    from vllm_lint.rules.startup_checks import Arguments, Evaluator, _release_data, model_release_data

    raised = checks.data["checks"].get(name)
    data = model_release_data(checks.version)
    if raised is None or data is None or checks.model is None:
        return False
    item = next((c for c in data["checks"] if c["file"] == raised["file"] and c["line"] == raised["line"]), None)
    if item is None:
        return False
    arguments = Arguments(checks.facts, checks.version, data)
    if not arguments.usable:
        return False

    def fact(fact_name):
        found = read_fact(checks.model, fact_name, checks.data)
        return UNKNOWN if found is None else found[0]

    if Evaluator(arguments.lookup, data["nodes"], arguments.env, arguments.builds, fact).value(item["when"]) is not True:
        return False
    if item.get("argument_check") and checks.arguments is not None:
        startup = _release_data(checks.version)
        same = next((c for c in startup["checks"] if c["file"] == item["file"] and c["line"] == item["line"]), None)
        if same is not None and Evaluator(checks.arguments.lookup, startup["nodes"], checks.arguments.env, checks.arguments.builds).value(same["when"]) is True:
            return False  # reported by the argument checks
    return True


def _int(value):
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def derived_length(model, data, disable_sliding_window=False):
    """(length, fact) vLLM derives from the config, or None where it cannot be read."""
    length = data.get("length") or {}
    keys = length.get("keys")
    from vllm_lint.model_facts import plain_text_config

    text = plain_text_config(model, data)
    if not keys or text is None:
        return None
    derived, key = None, None
    for name in keys:
        value = text.get(name)
        if value is None:
            continue
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return None
        if derived is None or value < derived:
            derived, key = value, name
    override = length.get("override")
    if override and text.get(override):
        if not isinstance(text[override], (int, float)):
            return None
        derived, key = text[override], override
    if derived is None:
        return None
    sliding = text.get("sliding_window")
    if disable_sliding_window and isinstance(sliding, int) and sliding < derived:
        derived, key = sliding, "sliding_window"
    tokenizer = model.tokenizer_config or {}
    limit = tokenizer.get("model_max_length")
    extra = []
    if isinstance(limit, (int, float)) and not isinstance(limit, bool) and limit < derived:
        derived = limit
        extra.append(f"model_max_length={limit} in tokenizer_config.json")
    factor = _rope_factor(model, text, length)
    if factor is None:
        return None
    if factor != 1.0:
        derived *= factor
        extra.append(f"RoPE scaling factor {factor:g}")

    def fact(source):
        return "; ".join([model.where(key, source), *extra])

    return derived, fact


def _rope_factor(model, text, length):
    """The factor vLLM scales the derived length by; None where it cannot be read."""
    unscaled_type = length.get("unscaled_model_type")
    if unscaled_type and unscaled_type in (text.get("model_type") or model.model_type or ""):
        return 1.0
    parameters = text.get("rope_parameters") or text.get("rope_scaling")
    if parameters is None:
        return 1.0
    if not isinstance(parameters, dict):
        return None
    if parameters and all(isinstance(inner, dict) for inner in parameters.values()):
        layers = [inner for inner in parameters.values() if inner]
    else:
        layers = [parameters] if parameters else []
    factor = 1.0
    for layer in layers:
        rope_type = layer.get("rope_type", layer.get("type"))
        if not isinstance(rope_type, str):
            return None
        if rope_type not in length.get("unscaled_rope_types", ()):
            factor = layer.get("factor", factor)
    if factor is None:
        return 1.0
    return float(factor) if isinstance(factor, (int, float)) and not isinstance(factor, bool) else None


def _truthy_env(facts, name):
    """An environment variable vLLM reads as a flag: True, False, or UNKNOWN."""
    fact = facts.get_env(name)
    if fact is ABSENT:
        return False
    if isinstance(fact, Known) and isinstance(fact.value, str):
        return fact.value.strip().lower() in ("1", "true")
    return UNKNOWN


_DECIMAL = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
_BINARY = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def human_readable_int(text: str):
    """``--max-model-len``'s value as vLLM's ``human_readable_int`` reads it (``128k``, ``32K``,
    ``-1``, ``auto``); None where it rejects it (VLM305 says so)."""
    text = text.strip()
    if text == "auto":
        return -1
    match = re.fullmatch(r"(\d+(?:\.\d+)?)([kKmMgGtT])", text)
    if match:
        number, suffix = match.groups()
        if suffix in _DECIMAL:
            return int(float(number) * _DECIMAL[suffix])
        return int(number) * _BINARY[suffix] if number.isdigit() else None
    try:
        return int(text)
    except ValueError:
        return None


def _option_text(facts, name):
    """The text of the last command-line option that sets ``name``; None where not known."""
    if facts.source != "command-line" or not facts.options:
        return None
    text = None
    for option, _origin, value in facts.options:
        if option.lstrip("-").replace("-", "_") == name or option == "--" + name.replace("_", "-"):
            text = value
    return text


def _max_model_len(checks: _Checks):
    if "max_model_len" not in checks.data["checks"] or not checks.written("max_model_len"):
        return
    requested = checks.value("max_model_len")
    if checks.facts.source == "command-line":
        text = _option_text(checks.facts, "max_model_len")
        requested = human_readable_int(text) if isinstance(text, str) else None
    if _int(requested) is None or requested == -1:
        return
    disable = checks.value("disable_sliding_window")
    if disable is UNKNOWN:
        disable = False  # it only ever shortens the length: a finding without it holds with it
    derived = derived_length(checks.model, checks.data, disable is True)
    if derived is None:
        return
    length, fact = derived
    if requested <= length:
        return
    for config in (checks.model.text_config or {}, checks.model.config):
        allowed = config.get("model_max_length")
        if allowed is not None and (not isinstance(allowed, (int, float)) or requested <= allowed):
            return  # vLLM lets a length up to the config's model_max_length through
    if _truthy_env(checks.facts, "VLLM_ALLOW_LONG_MAX_MODEL_LEN") is not False:
        return
    shown = int(length) if float(length).is_integer() else length
    yield checks.finding(
        "max_model_len",
        requested,
        lambda source: f"over the model's {shown} tokens ({fact(source)})",
        "max_model_len",
        note="; VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 allows it",
    )


def _attention_heads(checks: _Checks):
    if "attention_heads" not in checks.data["checks"] or not checks.written("tensor_parallel_size"):
        return
    size = _int(checks.value("tensor_parallel_size"))
    if not generated(checks, "attention_heads"):
        return
    from vllm_lint.model_facts import read_fact

    heads = read_fact(checks.model, "total_num_attention_heads", checks.data)[0]
    yield checks.finding(
        "tensor_parallel_size",
        size,
        lambda source: f"{heads} attention heads are not divisible by it ({checks.model.where('num_attention_heads', source)})",
        "attention_heads",
    )


def _experts_fact(model):
    names = ", ".join(model.architectures or ())
    return lambda source: f"{names} in {source} has no experts"


def _expert_parallel(checks: _Checks):
    if "expert_parallel" not in checks.data["checks"] or not checks.written("enable_expert_parallel"):
        return
    if not generated(checks, "expert_parallel"):
        return
    yield checks.finding("enable_expert_parallel", True, _experts_fact(checks.model), "expert_parallel")


def _routed_experts(checks: _Checks):
    if "aux_output" not in checks.data["checks"]:
        return
    # Not generated: VllmConfig.__post_init__ runs this check after calls that hand the config
    # to other code (``set_platform_defaults(self)``), whose writes the generator cannot bound.
    from vllm_lint.model_facts import read_fact

    name = "enable_return_routed_experts"
    if checks.written(name) and checks.value(name) is True:
        pass
    elif checks.written("aux_output_config", "enable_return_routed_experts"):
        config = checks.arguments.fact("aux_output_config")
        inner = config.value.get("enable_return_routed_experts") if isinstance(config, Known) and isinstance(config.value, Mapping) else UNKNOWN
        if not (isinstance(inner, Known) and inner.value is True):
            return
        name = "aux_output_config"
    else:
        return
    if read_fact(checks.model, "num_experts", checks.data) != (0, None):
        return  # the model has experts, or its count is not known
    yield checks.finding(name, True, _experts_fact(checks.model), "aux_output")


def _checkpoint_quantization(model):
    """(the quantization config vLLM's ``_verify_quantization`` reads, the key it is under) of a
    quantized checkpoint; None where the checkpoint is not quantized; UNKNOWN where vllm-lint
    cannot tell which config vLLM reads."""
    inner = model.config.get("text_config")
    for config, prefix in ((model.config, ""), (inner if isinstance(inner, dict) else {}, "text_config.")):
        for key in ("quantization_config", "compression_config"):
            value = config.get(key)
            if value is None:
                continue
            if prefix and (model.files is None or "hf_quant_config.json" in model.files):
                return UNKNOWN  # ModelOpt's hf_quant_config.json, if there, comes first
            return (value, prefix + key) if isinstance(value, dict) else UNKNOWN
        if not prefix and "hf_quant_config.json" in (model.files or ()):
            return UNKNOWN  # vLLM reads that file as the checkpoint's quantization config
    return None


def _quantization_mismatch(checks: _Checks, method: str):
    """A method other than the quantized checkpoint's own that no quantization class claims it
    for (``override_quantization_method``: AWQ's and GPTQ's Marlin kernels, MoE WNA16, ...)."""
    overrides = checks.data.get("quantization_overrides")
    if "quantization_mismatch" not in checks.data["checks"] or not overrides:
        return
    model = checks.model
    found = _checkpoint_quantization(model)
    if not isinstance(found, tuple):
        return
    config, key = found
    # ModelOpt's configs get their method from their algorithm when vLLM reads them.
    if config.get("producer") is not None or isinstance(config.get("quantization"), dict):
        return
    written = config.get("quant_method", "")
    if not isinstance(written, str) or not written:
        return
    own = written.lower().replace("compressed_tensors", "compressed-tensors")
    user = method.lower()
    if user == own or (user not in checks.data.get("quantization", {}) and user not in checks.data.get("online_shorthands", ())):
        return  # a method the release does not have is another check's
    architectures = model.architectures
    rewriting = set(overrides.get("rewriting_architectures", ()))
    if not architectures or "*" in rewriting or rewriting & set(architectures):
        return  # the architecture's own hook may rewrite the checkpoint's method first
    from vllm_lint.quantization_overrides import claimed

    if claimed(overrides, {**config, "quant_method": own}, user, model.model_type) is not False:
        return
    yield checks.finding(
        "quantization",
        method,
        lambda source: f"the checkpoint is quantized with {own} ({key}.quant_method={json.dumps(written)} in {source}), "
        f"and no quantization method of vLLM takes it for {user}",
        "quantization_mismatch",
    )


def _quantization(checks: _Checks):
    if "quantization_file" not in checks.data["checks"] or not checks.written("quantization"):
        return
    method = checks.value("quantization")
    model = checks.model
    if checks.facts.source == "command-line":
        # Its type is not read there: the text of the option that set it (``-q`` too) is the method.
        origin = checks.arguments.origin("quantization")
        method = next((value for _option, where, value in checks.facts.options or () if where == origin), None)
        if isinstance(method, str) and method:
            yield from _quantization_mismatch(checks, method)
        return
    if isinstance(method, str) and method:
        yield from _quantization_mismatch(checks, method)
    entry = checks.data.get("quantization", {}).get(method) if isinstance(method, str) else None
    if entry is None or model.declared:
        return
    if checks.arguments.fact("quantization_config") is not ABSENT:
        return  # online quantization arguments change which path vLLM takes
    text = model.text_config or {}
    for config in (model.config, text):
        if config.get("quantization_config") is not None or config.get("compression_config") is not None:
            return  # the checkpoint is quantized: vLLM compares the methods (above)
    files, required = entry.get("files"), entry.get("required")
    if method in checks.data.get("online_shorthands", ()):
        return
    if isinstance(files, list) and files:
        if model.files is None:
            return  # the folder is not on this machine: which files it has is not known
        if any(name.endswith(wanted) for name in model.files for wanted in files):
            return
        yield checks.finding(
            "quantization",
            method,
            lambda source: f"{method} reads its config from the checkpoint: {source} has no quantization_config, "
            f"its folder none of {', '.join(files)}",
            "quantization_file",
        )
    elif files == [] and isinstance(required, list) and required and method != "fp8":
        # get_quant_config builds the method's class with no argument: Python's TypeError.
        quoted = [repr(name) for name in required]
        missing = quoted[0] if len(quoted) == 1 else " and ".join(quoted) if len(quoted) == 2 else ", ".join(quoted[:-1]) + ", and " + quoted[-1]
        plural = "s" if len(required) > 1 else ""
        error = f"{entry['class']}.__init__() missing {len(required)} required positional argument{plural}: {missing}"
        yield checks.finding(
            "quantization",
            method,
            lambda source: f"{source} has no quantization_config, and vLLM cannot build {entry['class']} without "
            f"{', '.join(required)}",
            "quantization_file",
            error=error,
        )


def _multimodal_loras(checks: _Checks):
    if "multimodal_loras" not in checks.data["checks"] or not checks.written("default_mm_loras"):
        return
    if not generated(checks, "multimodal_loras"):
        return
    architectures = checks.model.architectures
    yield checks.finding(
        "default_mm_loras",
        True,
        lambda source: f"{', '.join(architectures)} in {source} is a text-only model",
        "multimodal_loras",
    )


# vLLM's names of the dtypes (``_STR_DTYPE_TO_TORCH_DTYPE``) the KV-cache check compares.
_DTYPES = {"half": "float16", "float16": "float16", "bfloat16": "bfloat16", "float": "float32", "float32": "float32"}


def _kv_cache_dtype(checks: _Checks):
    """A 16-bit KV cache of the other 16-bit type than the model runs in."""
    if "kv_cache_dtype" not in checks.data["checks"] or not checks.written("kv_cache_dtype"):
        return
    cache = checks.value("kv_cache_dtype")
    if cache not in ("float16", "bfloat16"):
        return
    dtype = checks.value("dtype") if checks.written("dtype") else "auto"
    if not isinstance(dtype, str):
        return
    if dtype.lower() != "auto":
        model_dtype = _DTYPES.get(dtype.lower())
        if model_dtype is not None and model_dtype != cache:
            # The arguments alone decide it, whatever the model.
            yield checks.finding("kv_cache_dtype", cache, lambda source: f"the model runs in {model_dtype} (dtype={dtype!r})", "kv_cache_dtype")
        return
    if checks.model is None:
        return
    config = checks.model.config
    written = config.get("torch_dtype", config.get("dtype"))
    # "auto" keeps a bfloat16 checkpoint's dtype on every CUDA GPU vLLM supports; a float16 or
    # float32 one may be changed by the model type or the GPU.
    if written != "bfloat16" or cache == "bfloat16":
        return
    key = "torch_dtype" if "torch_dtype" in config else "dtype"
    yield checks.finding(
        "kv_cache_dtype",
        cache,
        lambda source: f"the model runs in bfloat16 ({key}=\"bfloat16\" in {source}, dtype auto)",
        "kv_cache_dtype",
    )


def _float16(checks: _Checks):
    """float16 asked for a model type vLLM does not run in float16."""
    if "float16" not in checks.data["checks"] or not checks.written("dtype"):
        return
    dtype = checks.value("dtype")
    model_type = checks.model.model_type
    if not isinstance(dtype, str) or _DTYPES.get(dtype.lower()) != "float16" or model_type not in checks.data.get("no_float16", ()):
        return
    yield checks.finding(
        "dtype", dtype, lambda source: f"vLLM does not run model type {model_type!r} in float16 ({checks.model.where('model_type', source)})", "float16"
    )


def _decode_context_parallel(checks: _Checks):
    """Decode context parallelism on a model without MLA: its KV heads bound the sizes."""
    names = ("dcp_kv_heads", "dcp_maximum", "dcp_query_heads")
    if not all(name in checks.data["checks"] for name in names) or not checks.written("decode_context_parallel_size"):
        return
    dcp, tp = _int(checks.value("decode_context_parallel_size")), _int(checks.value("tensor_parallel_size"))
    pcp = _int(checks.value("prefill_context_parallel_size"))
    if dcp is None or tp is None or pcp is None or tp <= 0 or dcp <= 0 or pcp <= 0:
        return
    # vLLM's ParallelConfig rejects these sizes first, for the sizes alone (VLM401 says so).
    if tp % dcp if pcp == 1 else dcp not in (1, pcp, tp * pcp):
        return
    check = next((name for name in names if generated(checks, name)), None)
    if check is None:
        return
    from vllm_lint.model_facts import read_fact

    model = checks.model
    (kv, key), (heads, _) = read_fact(model, "total_num_kv_heads", checks.data), read_fact(model, "total_num_attention_heads", checks.data)
    because = {
        "dcp_kv_heads": f"--tensor-parallel-size must exceed the model's {kv} KV heads",
        "dcp_maximum": f"over the {tp // kv} that {tp}-way tensor parallelism and {kv} KV heads allow",
        "dcp_query_heads": f"the model's {heads // kv} query heads per KV head are not divisible by it",
    }[check]
    yield checks.finding(
        "decode_context_parallel_size", dcp, lambda source: f"{because} ({model.where(key, source)})", check
    )


CHECKS = (_max_model_len, _attention_heads, _expert_parallel, _routed_experts, _quantization, _multimodal_loras, _kv_cache_dtype, _float16, _decode_context_parallel)


def check(facts, version):
    data = _release(version)
    if data is None:
        return
    from vllm_lint.model_facts import model_facts

    known = model_facts(facts)
    checks = _Checks(facts, version, known, data)
    if checks.arguments is None or not checks.arguments.usable:
        return
    for each in CHECKS if known is not None else (_kv_cache_dtype,):
        yield from each(checks)


def _messages() -> tuple[str, ...]:
    """The newest release's messages, for the documentation: its line alone is read (the file
    holds one release per line, oldest first), so that importing the rule costs nothing."""
    with open(_DATA, encoding="utf-8") as handle:
        lines = [line for line in handle.read().splitlines() if line.startswith('"')]
    newest = json.loads(lines[-1].split(": ", 1)[1].rstrip(","))
    return tuple(dict.fromkeys(item["message"] for name, item in sorted(newest["checks"].items()) if name != "diffusion"))


RULE = Rule(
    code="VLM407",
    name="startup-checkpoint",
    summary="arguments vLLM rejects at start-up for the model they load",
    versions=VersionRange((0, 29), None),
    scope="engine",
    check=check,
    doc=__doc__,
    vllm_errors=_messages(),
)
