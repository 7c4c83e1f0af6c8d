"""## What it does
Checks the values of a `vllm serve` option whose own argparse action parses
each value it is given (`--lora-modules`): an item that is neither
`name=path` nor a JSON object, a JSON object that does not parse, or one whose
keys do not build the class the action makes (`LoRAModulePath`: `name` and
`path` are required, other keys are not fields).

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

import vllm_lint.launch.schema as schema
from vllm_lint.rules.base import Rule, from_other_file
from vllm_lint.versions import ALL_VERSIONS


def check(facts, version):
    if facts.source != "command-line" or facts.options is None:
        return
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


def _item_error(item: str, form: dict, option: str) -> tuple[str, str] | None:
    """(what is wrong, vLLM's error) for one value, or None when the action takes it."""
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
    summary="a `vllm serve` option's value its own argparse action cannot read",
    versions=ALL_VERSIONS,
    scope="engine",
    check=check,
    doc=__doc__,
    vllm_errors=("Invalid JSON format for --lora-modules: <value>", "Invalid fields for --lora-modules: <value>"),
)
