"""## What it does
Checks for a literal number outside the bounds of the config field an engine
argument maps to (`gpu_memory_utilization` in (0, 1], `tensor_parallel_size`
>= 1, ...), in Python keywords and dict keys, on `vllm serve` command lines,
and in the engine settings of a framework's config (prime-rl's
`[inference.vllm]`, verl's `engine_kwargs.vllm`) or the framework's own keys
that it hands to vLLM (verl's `actor_rollout_ref.rollout.gpu_memory_utilization`,
NeMo-RL's `vllm_cfg.gpu_memory_utilization`, OpenRLHF's
`--vllm.gpu_memory_utilization`): the note names the key. A value the
framework itself fails on first (a parallel size it sizes its workers with)
is not reported.

## Why is this bad?
vLLM's configs are pydantic dataclasses: building the engine raises a
`ValidationError` before any model is loaded.

## Example
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", gpu_memory_utilization=1.5)
```

## Use instead
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", gpu_memory_utilization=0.9)
```

## Fix safety
No automatic fix.

The keys of a config-valued argument are checked against the bounds of the
config's own fields, nested configs included (`watchdog_config={"timeout": 0}`:
`WatchdogConfig.timeout` must be greater than 0), in Python dicts and in the
JSON of a command line's option.

## Versions
Every release the schema was generated from; silent for a release it does
not have. The bounds are the `Field(ge=, gt=, le=, lt=)` of the config field.
"""

import vllm_lint.launch.schema as schema
from vllm_lint.facts import Known, written_pairs
from vllm_lint.rules.base import Rule, from_other_file
from vllm_lint.versions import ALL_VERSIONS



def check(facts, version):
    release = schema.release_for(facts, version)
    if not release.exact:
        return
    if facts.source == "command-line":
        last: dict[str, tuple] = {}
        for option, origin, value in facts.options or ():
            dest = release.dest(option)
            if dest is not None:
                last[dest] = (option, origin, value)  # the last one wins
        for dest, (option, origin, value) in last.items():
            bounds = release.bounds.get(dest)
            number = _number(value) if bounds and value is not None else None
            broken = _broken(number, bounds) if number is not None else None
            if broken:
                span = origin.span if origin is not None and origin.path is None else facts.anchor
                yield from_other_file(_finding(option, number, broken, span, dest, release), origin)
        for dest, (option, origin, value) in last.items():
            known = release.keys.get(dest)
            parsed = schema.json_object(value) if known and value is not None and value.startswith("{") else None
            if parsed is None:
                continue
            span = origin.span if origin is not None and origin.path is None else facts.anchor
            for path, key, name, item, entry in schema.config_keys(known, parsed.items(), schema.json_pairs):
                broken = _key_broken(item, entry, name)
                if broken:
                    yield from_other_file(_finding(_key_text(option, path, key), item, broken, span, ".".join((dest, *path, key)), release), origin)
        return
    if facts.kind not in schema.CONSTRUCTORS and facts.source != "framework":
        return  # a framework's config reaches vLLM's engine arguments: the same checks
    for name, fact in facts.fields.items():
        bounds = release.bounds.get(name)
        if not bounds or not isinstance(fact, Known):
            continue
        value = fact.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        broken = _broken(value, bounds)
        if broken:
            yield _finding(name, value, broken, facts.location_of(name), name, release)
    for dest, fact in facts.fields.items():
        known = release.keys.get(dest)
        pairs = written_pairs(fact)
        if not known or pairs is None:
            continue
        for path, key, name, item, entry in schema.config_keys(known, pairs, written_pairs):
            value = item.value if isinstance(item, Known) else None
            broken = _key_broken(value, entry, name)
            if broken:
                origin = item.origin
                span = origin.span if origin is not None and origin.path is None else facts.location_of(dest)
                yield _finding(_key_text(dest, path, key), value, broken, span, ".".join((dest, *path, key)), release)


def _key_broken(value, entry: dict, name: str) -> str | None:
    """The bound a number given to a key of a config dict breaks (``watchdog_config["timeout"]``
    must be greater than 0), as pydantic words it."""
    return schema.bound_broken(value, entry.get("bounds", {}).get(name))


def _key_text(written: str, path: tuple, key: str) -> str:
    return written + "".join(f"[{part!r}]" for part in (*path, key))


def _number(text: str) -> float | None:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return None


def _broken(value, bounds) -> str | None:
    """The first bound the value breaks, as pydantic words it."""
    return schema.bound_broken(value, bounds)


def _finding(name, value, broken, span, dest, release):
    limit = broken[len("Input should be ") :]
    where = schema.release_text(release.release)
    finding = RULE.finding(f"{name}={value!r} is out of range in vLLM {where}: it must be {limit}", span, vllm_error=broken)
    finding.argument = dest
    return finding


RULE = Rule(
    code="VLM304",
    name="out-of-range",
    summary="an engine argument's number outside its config field's bounds",
    versions=ALL_VERSIONS,
    scope="engine",
    check=check,
    doc=__doc__,
    vllm_errors=("Input should be less than or equal to 1", "Input should be greater than 0"),
)
