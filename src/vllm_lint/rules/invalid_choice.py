"""## What it does
Checks for a literal value outside the values the target vLLM release
accepts for an engine argument with a closed set of choices (`kv_cache_dtype`,
`logprobs_mode`, `mm_processor_cache_type`, ...), in Python keywords and dict
keys, on `vllm serve` command lines, and in the engine settings of a
framework's config (prime-rl's `[inference.vllm]`, verl's `engine_kwargs.vllm`)
or the framework's own keys that it hands to vLLM, as vLLM receives them
(verl's `rollout.dtype`; NeMo-RL's `vllm_cfg.precision`, which becomes `dtype`;
ROLL's `model_args.dtype: bf16` is sent as `bfloat16` and is valid). Keys verl
renders as `vllm serve` options are checked against the parser's choices. The
message lists the valid values.

## Why is this bad?
On the command line argparse stops with `invalid choice`; in Python, and
for command-line values argparse lets through, the config's validation
raises a `ValidationError` when the engine is built (`--lora-dtype half`:
`LoRAConfig.lora_dtype` is `Literal["auto", "float16", "bfloat16"] |
torch.dtype`; `--kv-cache-dtype foo` in 0.33+: "Invalid kv_cache_dtype:
'foo'", from the config's own validator).

## Example
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", logprobs_mode="processed_logprob")
```

## Use instead
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", logprobs_mode="processed_logprobs")
```

## Fix safety
No automatic fix: which valid value was meant is the user's choice. Over a
range of releases (a pin that admits several), the message lists the values
every one of them accepts.

## Versions
Every release the schema was generated from; silent for a release it does
not have. Only arguments whose type is a closed `Literal[...]` (alone, or with
members that take no string, such as `torch.dtype`), an explicit `choices=`
list, or a field validator that admits only the members of a `Literal` alias
(`kv_cache_dtype`, 0.33+) are checked: an argument that also accepts any
string (such as `quantization` or `tokenizer_mode`, whose plugins may add
values) is not. Up to 0.30 the word `None` is an invalid choice for an
optional `Literal` argument on the command line (`--spec-method None`:
argparse's `type` makes it Python's None, while the choices hold the string
`'None'`); from 0.31 the choices hold None and the word is accepted, except
where the argument is a list of `Literal` values (`--collect-detailed-traces
None` gives `[None]`, which the config rejects). A value argparse's choices
let through is also checked against the config field's own choices:
`--collect-detailed-traces model,worker` passes argparse up to 0.30 (it adds
the comma-joined pairs to the choices) but `ObservabilityConfig`
rejects it at start-up (0.9+: up to 0.15 the config is a pydantic dataclass
too), pydantic checking each item before anything splits the string. An
argument with no argparse type whose config field takes int choices
(`--optimization-level`, and `-O3`, which vLLM rewrites to it) is reported
when its value is not a number (`-Ofast`); pydantic's lax mode takes `2.0`.
The server's own options (`--uvicorn-log-level`,
`--fingerprint-mode`, `--tool-strict-level`, ...) are checked where the
release types them as `Literal`.

The keys of a config-valued argument (`speculative_config={"method": ...}`,
`--speculative-config '{"method": ...}'`, `--kv-transfer-config`, ...) are
checked the same way, where the release's config class types the key as a
closed `Literal` and pydantic validates it as written (no `before` validator
rewrites it): `SpeculativeConfig.method` in 0.33 (`"medusa"` is no longer a
method there), `rejection_sample_method`, `draft_sample_method`, `kv_role`.
From 0.34 `method` is open (`Literal[...] | str`: plugins register methods
with `register_speculative_method`, checked only when the engine starts), so
it is not checked there. A speculators-format checkpoint given as the model
sets the method itself, whatever the config says: the method is checked only
when the model is known by name and not named as such a checkpoint
(`...-speculator.eagle3`).
"""

import vllm_lint.launch.schema as schema
from vllm_lint.facts import Known, Mapping
from vllm_lint.rules.base import Rule, from_other_file, may_be_speculators_checkpoint
from vllm_lint.versions import ALL_VERSIONS


def check(facts, version):
    release = schema.release_for(facts, version)
    if not release.exact:
        return
    if facts.source == "command-line":
        for option, origin, value in facts.options or ():
            dest = release.dest(option)
            known = release.choices.get(dest, {}) if dest else {}
            # argparse's choices first; else the config field that validates the value at start-up.
            accepted = known.get("cli") or known.get("config")
            span = origin.span if origin is not None and origin.path is None else facts.anchor
            if value == "None" and known.get("cli") and known.get("none") == "cli":
                # Up to 0.30 optional_type makes the word None, and the choices hold the string "None".
                error = f"argument {option}: invalid choice: None (choose from {_listed([*known['cli'], 'None'])})"
                yield from_other_file(_finding(option, value, known["cli"], span, error, dest, release), origin)
                continue
            if value == "None" and known.get("config") and known.get("none") == "config":
                # From 0.31 argparse takes the word as None, and the list [None] fails the config's Literal.
                error = _startup_error(known, None, known["config"])
                yield from_other_file(_finding(option, value, known["config"], span, error, dest, release), origin)
                continue
            if not accepted or value is None or value == "None":
                continue
            converted = _as_type_of(value, accepted[0])
            if converted is not None and converted in accepted and known.get("cli") and known.get("config"):
                # argparse lets it through, the config field rejects it at start-up
                # (--collect-detailed-traces model,worker up to 0.30: each item must be a member).
                accepted = known["config"]
                if converted not in accepted:
                    error = _startup_error(known, converted, accepted)
                    yield from_other_file(_finding(option, value, accepted, span, error, dest, release), origin)
                continue
            if converted is None and not known.get("cli") and _not_a_number_for(value, accepted):
                # No argparse type: the config's int field gets the word and cannot parse it
                # (--optimization-level O3, and -Ox, which vLLM rewrites to it).
                error = _startup_error(known, value, accepted)
                yield from_other_file(_finding(option, value, accepted, span, error, dest, release), origin)
                continue
            if converted is None or converted in accepted:
                continue
            if known.get("cli"):
                error = f"argument {option}: invalid choice: '{value}'"
            else:
                error = _startup_error(known, converted, accepted)
            finding = _finding(option, value, accepted, span, error, dest, release)
            yield from_other_file(finding, origin)
        for option, origin, value in facts.options or ():
            if value is None or not value.startswith("{"):
                continue
            dest = release.dest(option)
            entry = release.keys.get(dest) if dest else None
            if not entry or not entry.get("choices"):
                continue
            parsed = schema.json_object(value)
            if parsed is None:
                continue
            span = origin.span if origin is not None and origin.path is None else facts.anchor
            for key, item in parsed.items():
                accepted = entry["choices"].get(key)
                if accepted and schema.outside_choices(item, accepted) and not _locked(facts, dest, key):
                    finding = _finding(key, item, accepted, span, _startup_error({}, item, accepted), f"{dest}.{key}", release, option)
                    yield from_other_file(finding, origin)
        return
    if facts.kind not in schema.CONSTRUCTORS and facts.source != "framework":
        return  # a framework's config reaches vLLM's engine arguments: the same checks
    for name, fact in facts.fields.items():
        known = release.choices.get(name, {})
        accepted = known.get("python") or known.get("config")
        error = None
        if not accepted and facts.verbatim_to in ("serve-argv", "engine-argv") and known.get("cli"):
            # Rendered as `vllm serve` options (verl), or engine options (Dynamo's worker): argparse's choices.
            accepted = known["cli"]
            error = f"argument --{name}: invalid choice: '{fact.value}'" if isinstance(fact, Known) else None
        if not accepted or not isinstance(fact, Known):
            continue
        value = fact.value
        if value is None or isinstance(value, bool) or not isinstance(value, type(accepted[0])):
            continue  # another type (a torch.dtype, a config object): not a literal choice
        if value in accepted:
            continue
        error = error or _startup_error(known, value, accepted)
        yield _finding(name, value, accepted, facts.location_of(name), error, name, release)
    for name, fact in facts.fields.items():
        entry = release.keys.get(name)
        if not entry or not entry.get("choices") or not isinstance(fact, Known) or not isinstance(fact.value, Mapping):
            continue
        for key, accepted in entry["choices"].items():
            item = fact.value.get(key)
            if not isinstance(item, Known) or not schema.outside_choices(item.value, accepted) or _locked(facts, name, key):
                continue
            origin = item.origin
            span = origin.span if origin is not None and origin.path is None else facts.location_of(name)
            yield _finding(key, item.value, accepted, span, _startup_error({}, item.value, accepted), f"{name}.{key}", release, name)


def _locked(facts, dest: str, key: str) -> bool:
    """A key vLLM may replace before the config validates it (``may_be_speculators_checkpoint``)."""
    return dest == "speculative_config" and key == "method" and may_be_speculators_checkpoint(facts)


def _startup_error(known: dict, value, accepted) -> str:
    """vLLM's words when the config rejects the value: its validator's own message, or pydantic's."""
    if known.get("message") and not known.get("python"):
        return f"{known['message']}{value!r}"
    return "Input should be " + _listed(accepted)


def _as_type_of(text: str, example: object) -> object:
    """The value argparse's ``type`` makes of the text (the choices' own type)."""
    if isinstance(example, int) and not isinstance(example, bool):
        try:
            return int(text)
        except ValueError:
            return None
    return text if isinstance(example, str) else None


def _not_a_number_for(text: str, accepted) -> bool:
    """Whether pydantic's int parsing fails on the text for these int choices whatever their
    set: not even a number (it takes "2" and "2.0" in lax mode)."""
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in accepted):
        return False
    try:
        float(text)
    except ValueError:
        return True
    return False


def _listed(values) -> str:
    return ", ".join(repr(v) for v in values)


def _finding(name, value, accepted, span, vllm_error, dest, release, within=None):
    where = f" in {within}" if within else ""
    finding = RULE.finding(
        f"{name}={value!r}{where} is not a valid choice in vLLM {schema.release_text(release.release)}; "
        f"use one of: {_listed(accepted)}",
        span,
        vllm_error=vllm_error,
    )
    finding.argument = dest
    finding.listed, finding.listed_merge, finding.listed_text = tuple(accepted), "common", "use one of: {}"
    return finding


RULE = Rule(
    code="VLM303",
    name="invalid-choice",
    summary="an engine argument's value outside the release's choices",
    versions=ALL_VERSIONS,
    scope="engine",
    check=check,
    doc=__doc__,
    vllm_errors=(
        "argument --<flag>: invalid choice: '<value>'",
        "Input should be '<a>', '<b>' or '<c>'",
        "Invalid kv_cache_dtype: '<value>'",
    ),
)
