"""## What it does
Checks the values of a `vllm serve` option whose own argparse action parses
each value it is given (`--lora-modules`): an item that is neither
`name=path` nor a JSON object, a JSON object that does not parse, or one whose
keys do not build the class the action makes (`LoRAModulePath`: `name` and
`path` are required, other keys are not fields). Also the values of options
vLLM reads with its own `type=` function, `human_readable_int`
(`--max-num-batched-tokens 8k`, `--kv-cache-memory-bytes 2G`) and
`human_readable_int_or_auto` (`--max-model-len 32k`, `auto`): a word
(`--max-model-len 1a`), or a decimal number with a binary suffix
(`--max-model-len 1.5M`; `1.5m` is decimal and read). And an option that
takes a value written last or before another option (`--max-model-len --port
8000`): argparse's "expected one argument".

## Why is this bad?
The action calls `parser.error`: `vllm serve` stops before anything starts,
with "Invalid JSON format for --lora-modules" or "Invalid fields for
--lora-modules".

The option is read wherever a `vllm serve` command line is: shell scripts,
Dockerfiles, Kubernetes and compose files, and argv lists in Python.

## Example
```python
import subprocess

MODEL = "meta-llama/Llama-3.1-8B-Instruct"
subprocess.run(["vllm", "serve", MODEL, "--enable-lora", "--lora-modules", '{"name": "sql-lora"}'], check=True)
```

## Use instead
```python
import subprocess

MODEL = "meta-llama/Llama-3.1-8B-Instruct"
adapter = '{"name": "sql-lora", "path": "/adapters/sql"}'
subprocess.run(["vllm", "serve", MODEL, "--enable-lora", "--lora-modules", adapter], check=True)
```

## Fix safety
No automatic fix: what the value should say is the user's.

## Versions
Every release the schema was generated from; the form each release's action
reads is taken from its source (an `if "=" in item and "," not in item`
branch takes `name=path`; `json.loads` and the dataclass the object is given
to take the rest).
"""

from __future__ import annotations

import json
import re

import vllm_lint.launch.schema as schema
from vllm_lint.rules.base import Rule, from_other_file
from vllm_lint.versions import ALL_VERSIONS


def check(facts, version):
    if facts.source != "command-line" or facts.options is None:
        return
    yield from _missing_values(facts)
    release = schema.release_for(facts, version)
    if not release.exact or not release.items:
        return
    for option, origin, value in facts.options:
        dest = release.dest(option)
        form = release.items.get(dest) if dest else None
        if form is None or value is None:
            continue
        error = _item_error(value, form, option)
        if error is None:
            continue
        span = origin.span if origin is not None and origin.path is None else facts.anchor
        finding = RULE.finding(f"{option} {value}: {error[0]}", span, vllm_error=error[1])
        finding.argument = dest
        yield from_other_file(finding, origin)


def _missing_values(facts):
    """An option that takes a value written last, or before another option
    (``--max-model-len --port 8000``): argparse stops with "expected one argument" ("at least
    one" for several).  Only where the release's own table of ``vllm serve`` options is known
    (``launch.flags.OptionList.without_value``)."""
    without_value = getattr(facts.options, "without_value", {})
    for index, (option, origin, value) in enumerate(facts.options):
        kind = without_value.get(index)
        if kind is None or value is not None or not option.startswith("--") or origin is None:
            continue
        expected = "expected one argument" if kind == "one" else "expected at least one argument"
        span = origin.span if origin.path is None else facts.anchor
        finding = RULE.finding(f"{option} is given no value: vLLM's parser stops with \"{expected}\"", span,
                               vllm_error=f"argument {option}: {expected}")
        yield from_other_file(finding, origin)


def _parse_error(text: str, form: dict, option: str) -> tuple[str, str] | None:
    """A value vLLM's own ``type=`` function does not read (``human_readable_int``: ``1k``,
    ``2M``, ``25.6k`` or a plain integer; ``_or_auto`` also ``auto`` and ``-1``), as that
    release's function reads it: its pattern, and whether a decimal number may take an
    upper-case (binary) suffix."""
    value = text.strip()
    if form.get("auto") and (value == "-1" or value.lower() == "auto"):
        return None
    match = re.fullmatch(form["pattern"], value)
    if match:
        number, suffix = match.groups()
        if suffix.isupper() and "." in number and not form.get("binary_decimals"):
            return (
                f"a decimal number takes only a lower-case (decimal) suffix: {number}{suffix.lower()}?",
                f"argument {option}: Decimals are not allowed with binary suffixes like {suffix}",
            )
        return None
    try:
        int(value)
    except ValueError:
        words = "an integer, or one with a k/m/g/t or K/M/G/T suffix" + (" or auto" if form.get("auto") else "")
        return f"not {words}", f"argument {option}: invalid {form['parse']} value: '{text}'"
    return None


def _item_error(item: str, form: dict, option: str) -> tuple[str, str] | None:
    """(what is wrong, vLLM's error) for one value, or None when the action takes it."""
    if "parse" in form:
        return _parse_error(item, form, option)
    if item == "" or (form.get("pair") and "=" in item and "," not in item):
        return None
    try:
        parsed = json.loads(item)
    except (ValueError, RecursionError):
        shape = "name=path or a JSON object" if form.get("pair") else "a JSON object"
        return f"not {shape} vLLM reads", f"Invalid JSON format for {option}: {item}"
    if not isinstance(parsed, dict):
        return None  # the action's own code decides: not followed here
    unknown = sorted(key for key in parsed if key not in form["fields"])
    missing = [key for key in form["required"] if key not in parsed]
    if unknown:
        return f"{unknown[0]} is not a field of {form['class']}", f"Invalid fields for {option}: {item}"
    if missing:
        return f"{form['class']} needs {', '.join(missing)}", f"Invalid fields for {option}: {item}"
    return None


RULE = Rule(
    code="VLM305",
    name="unparsable-value",
    summary="a `vllm serve` option's value its own argparse action or type cannot read",
    versions=ALL_VERSIONS,
    scope="engine",
    check=check,
    doc=__doc__,
    vllm_errors=(
        "Invalid JSON format for --lora-modules: <value>",
        "Invalid fields for --lora-modules: <value>",
        "argument --max-model-len: invalid human_readable_int_or_auto value: '<value>'",
    ),
)
