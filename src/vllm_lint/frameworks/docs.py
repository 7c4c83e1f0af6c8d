"""The documentation page of each built-in pack, rendered from its data (``docs/frameworks/NAME.md``).

Regenerate with ``python -m vllm_lint.frameworks.docs docs/frameworks``; a test
checks the committed pages match, so the docs cannot drift from the packs.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

from vllm_lint.frameworks import packs


def _json(value) -> str:
    return json.dumps(value)


def _by_release(value) -> bool:
    return isinstance(value, dict) and bool(value) and all(isinstance(k, str) and k[:1].isdigit() for k in value)


def _conditions_text(conditions) -> str:
    """Tables whose being written makes a value unknown (``unless`` their keys say otherwise)."""
    names, unless_texts = [], []
    for condition in conditions:
        if isinstance(condition, str):
            names.append(f"`{condition}`")
            continue
        names.append(f"`{condition['key']}`")
        unless = "; ".join(f"`{key}` is one of {', '.join(f'`{v}`' for v in values)}" for key, values in condition.get("unless", {}).items())
        if unless and unless not in unless_texts:
            unless_texts.append(unless)
    tail = f" (unless its {' or '.join(unless_texts)})" if unless_texts else ""
    return ", ".join(names) + tail


def _accepted_text(rule) -> str:
    """The values a framework lets through: a list, or bounds (``{"ge": 1}``)."""
    if isinstance(rule, list):
        return "one of " + ", ".join(f"`{_json(v)}`" for v in rule)
    return " and ".join(f"{'>=' if op == 'ge' else '<='} {limit}" for op, limit in rule.items())


def _key_qualifiers(entry: dict) -> str:
    """What the framework does with one key's value on its way to vLLM."""
    parts = []
    if entry.get("reaches") == "serve-argv":
        parts.append("a `vllm serve` option: false is left out")
    if "values" in entry:
        parts.append("sent as " + ", ".join(f"`{_json(v)}` for `{_json(k)}`" for k, v in entry["values"].items())
                     + (f", `{_json(entry['otherwise'])}` for any other" if "otherwise" in entry else ""))
    if "above" in entry:
        parts.append(f"true when above {entry['above']}")
    if "when" in entry:
        when = entry["when"]
        test = f"is `{_json(when['is'])}`" if "is" in when else f"is above {when['above']}"
        parts.append(f"only when `{when['key']}` {test}")
    accepts = entry.get("framework_accepts")
    if isinstance(accepts, dict):
        parts.append(f"the framework sizes its own workers with it first: only a number {_accepted_text(accepts)} reaches vLLM")
    elif accepts is not None:
        parts.append("the framework itself rejects values other than " + ", ".join(f"`{_json(v)}`" for v in accepts))
    if entry.get("null") == "run-time":
        parts.append("null: decided at run time")
    if entry.get("replaced"):
        parts.append("may be replaced at run time when " + " or ".join(f"`{p}`" for p in entry["replaced"]))
    if entry.get("unless_empty"):
        parts.append("only when set (not empty)")
    if entry.get("repeated") == "error":
        parts.append("given under a prefix above too, the framework's own call fails")
    return f" ({'; '.join(parts)})" if parts else ""


def _engine_lines(pack: dict) -> list[str]:
    """The engine entries, engine_unknown, sets, switches and transforms of a pack (or a backend's variant)."""
    out: list[str] = []
    if not pack["engine"]:
        out.append("None: no setting of this framework reaches `return_sampling_mask`, so nothing is reported.")
    for entry in pack["engine"]:
        if "prefix" in entry:
            popped = entry.get("except")
            extra = f" (except {', '.join(f'`{x}`' for x in popped)}, which the framework pops)" if popped else ""
            reaches = {
                "engine-args": "the vLLM engine argument of the same name",
                "serve-argv": "the `vllm serve` option of the same name (rendered as `--key value`, a true boolean as the bare flag and a false one left out: its parser rejects an unknown one)",
                "engine-argv": "the vLLM engine option of the same name (rendered as `--key value`, a boolean as `--key`/`--no-key`, a mapping as JSON, for a parser of `AsyncEngineArgs`' options: it rejects an unknown one)",
                "serve-namespace": "the `vllm serve` argument of the same name (set on the parsed arguments: an unknown one is ignored)",
            }[entry.get("reaches", "engine-args")]
            accepts = entry.get("framework_accepts", {})
            if accepts:
                typed = ", ".join(f"`{name}` ({_accepted_text(rule)})" for name, rule in accepts.items())
                extra += f"; the framework validates {typed} itself first: a value it rejects never reaches vLLM (unknown)"
            out.append(f"- every key under `{entry['prefix']}` -> {reaches}{extra}")
        else:
            out.append(f"- `{entry['key']}` -> `{entry['arg']}`{_key_qualifiers(entry)}")
    if pack.get("engine_unknown"):
        out.append(f"- set by the framework at run time (unknown unless written): {', '.join(f'`{x}`' for x in pack['engine_unknown'])}")
    for spec in pack.get("sets", []):
        args = ", ".join(f"`{k} = {_json(v)}`" for k, v in spec.get("args", {}).items())
        env = ", ".join(f"`{k}={v}`" for k, v in spec.get("env", {}).items())
        unless = " (unless written)" if spec.get("unless_set") else ""
        when = f"when `{spec['when']}` is on, " if spec.get("when") else ""
        sets = " and ".join(part for part in (args + unless if args else "", f"the environment {env}" if env else "") if part)
        out.append(f"- {when}the framework sets {sets}")
    for spec in pack.get("switches", []):
        conditions = " or ".join(
            f"`{c['key']}` < {c['below']}" if "below" in c else f"`{c['key']}` is set" for c in spec["when_any"]
        )
        where = f" (read in each `{spec['items']}` table over `{spec.get('inherit') or '(root)'}`)" if spec.get("items") else ""
        requires = f", when `{spec['requires']}` is present" if spec.get("requires") else ""
        unknown = spec.get("item_unknown_if", []) + spec.get("unknown_if_written", [])
        unknown_text = f"; unknown when {_conditions_text(unknown)} is written" if unknown else ""
        out.append(f"- the entry point sets `{spec['key']} = {_json(spec.get('value', True))}` itself when {conditions}{where}{requires}{unknown_text}")
    for name_, transform in pack.get("transforms", {}).items():
        out.append(f"- `{name_}`: {transform.replace('-', ' ')}")
    return out


def render(name: str) -> str:
    module = importlib.import_module(f"vllm_lint.frameworks.packs.{packs.BUILTIN[name][0]}")
    pack = module.PACK
    _title, _, body = module.__doc__.strip().partition("\n")
    out = [f"# {name} pack", "", body.strip(), "", f"Read from: {pack['read_from']}.", "", "## Recognised", ""]
    if pack.get("detect"):
        formats = ", ".join(pack.get("formats", ["yaml"]))
        out.append(f"Config files ({formats}) with one of the key paths " + ", ".join(" together with ".join(f"`{part}`" for part in d.split("+")) for d in pack["detect"]) + ".")
    if pack.get("own_configs"):
        out.append(
            "The framework's own config files, wherever its repository (or a fork) is linted: "
            + ", ".join(f"`{k}` (read at `{v or '(root)'}`)" for k, v in pack["own_configs"].items())
            + "."
        )
    launchers = pack.get("launchers", {})
    if launchers.get("modules"):
        options = (
            "its options as argparse reads them (`--a.b value`, a bare `--flag`)" if launchers.get("style") == "argparse"
            else "Hydra overrides (`key=value`, `+key=value`, `++key=value`, `~key`)"
        )
        out.append("Launch commands running " + ", ".join(f"`python -m {m}`" for m in launchers["modules"]) + f", with {options}.")
    if launchers.get("engine_modules"):
        out.append(
            "Launch commands running " + ", ".join(f"`python -m {m}`" for m in launchers["engine_modules"])
            + " build the same engines but do not send the config's requests: only the engine is checked."
        )
    if launchers.get("composes"):
        markers = " or ".join(" and ".join(f"`{m}`" for m in group) for group in launchers["composes"])
        reaches = " or ".join(" and ".join(f"`{m}`" for m in group) for group in launchers.get("reaches", []))
        out.append(
            "With the framework's source in the linted tree or installed, `python -m` of any module "
            "(or, in the tree, `python`/`uv run` of any script) whose "
            f"source holds {markers}"
            + (f", and which holds {reaches} itself or imports a module that does," if reaches else "")
            + " is an entry point too (the engine is checked)."
        )
    if launchers.get("config_names"):
        names = ", ".join(f"`{name}`" for name in launchers["config_names"])
        out.append(
            f"A module whose `@hydra.main(config_path=..., config_name=...)` names {names}, or whose own config "
            "(`config_name` in its `config_path`, relative to the module, or a package's folder: `pkg://myproj.conf`, "
            "found in the project's tree or the installed package) composes one in its `defaults:` list, is an "
            "entry point too; its launches compose over the module's own config (`--config-name` is looked up in the "
            "module's `config_path`, a relative `--config-path` is relative to the module)."
        )
    if launchers.get("sends"):
        sends = " or ".join(" and ".join(f"`{m}`" for m in group) for group in launchers["sends"])
        out.append(f"Such an entry point whose source holds {sends} sends the config's requests too: they are checked.")
    if launchers.get("commands"):
        style = (
            " (`@ file.toml` merged left to right, `--section @ file.toml`, dotted kebab-case `--key value`, `--flag`, `--no-flag`)"
            if launchers.get("style") == "pydantic-config" else ""
        )
        out.append("Launch commands running " + ", ".join(f"`{c}` (or `uv run {c}`)" for c in launchers["commands"]) + f"{style}.")
        for command, mount in launchers.get("mounts", {}).items():
            out.append(f"`{command}` reads its config and options at `{mount}`.")
        if launchers.get("engine_commands"):
            out.append(
                ", ".join(f"`{c}`" for c in launchers["engine_commands"])
                + " builds the same engine but sends requests the pack does not model: only the engine is checked."
            )
    if launchers.get("scripts"):
        out.append("Launch commands running " + ", ".join(f"`{s}`" for s in launchers["scripts"]) + ", with their overrides.")
    if pack.get("config_root"):
        out.append(
            f"Hydra `defaults:` lists and `group=option` overrides choose options from `{pack['config_root']}` "
            "(in the linted tree or the installed package); its own options stand for the recorded defaults: "
            + ", ".join(f"`{option}` at `{mount}`" for option, mount in pack.get("groups", {}).items()) + "."
        )
    out += ["", "## Engine arguments", "", "Applied in this order; a later entry wins, `null` values are dropped.", ""]
    out += _engine_lines(pack)
    if pack.get("passes") is not None:
        out += ["", "What the framework passes to vLLM on its own, as the start-up checks (VLM4xx) read it; an argument "
                "not listed here or written in the config is left at vLLM's default:", ""]
        unknown: dict[bool, list[str]] = {False: [], True: []}
        mapped = {entry["arg"]: entry["key"] for entry in pack["engine"] if "key" in entry}
        for spec in pack["passes"]:
            over = spec.get("wins") == "framework"
            if "value" not in spec and "key" not in spec and spec["arg"] in mapped:
                continue  # listed with the engine entries' arguments below
            if "value" in spec:
                out.append(f"- `{spec['arg']} = {_json(spec['value'])}`" + (" (replaces a value written in the config)" if over else ""))
            elif "key" in spec:
                out.append(f"- `{spec['arg']}` from `{spec['key']}`" + (" (replaces a value written in the config)" if over else ""))
            else:
                unknown[over].append(f"`{spec['arg']}`")
        if unknown[False]:
            out.append(f"- decided at run time (unknown unless written in the config): {', '.join(unknown[False])}")
        if unknown[True]:
            out.append(f"- decided at run time, over any value written in the config (unknown): {', '.join(unknown[True])}")
        always = {spec["arg"] for spec in pack["passes"] if "value" not in spec and "key" not in spec}
        if any(arg in always for arg in mapped):
            out.append(
                "- always, from its own keys as the engine entries above read them (unknown where the key is neither "
                f"written nor has a recorded default): {', '.join(f'`{arg}`' for arg in mapped if arg in always)}"
            )
        if any(arg not in always for arg in mapped):
            out.append(
                "- from its own keys where the config writes them (or a default is recorded): "
                + ", ".join(f"`{arg}`" for arg in mapped if arg not in always)
            )
    out += ["", "## Request parameters", ""]
    if not pack["request"]:
        out.append("None.")
    for entry in pack["request"]:
        null = f" (`null` becomes `{entry['null']}`)" if "null" in entry else ""
        if entry.get("present"):
            group = f" ({entry['group']} requests, when `{entry['present']}` is written)"
        else:
            group = f" ({entry['group']} requests, when configured)" if entry.get("group") else ""
        for rule in entry.get("null_when", []):
            null += f" (`null` becomes `{rule['value']}` when `{rule['key']}` < {rule['below']})"
        items = entry.get("items")
        if items:
            group += f"; unknown when a `{items['list']}` table sets {_conditions_text(items.get('keys', []))}"
            if items.get("unknown_if_written"):
                group += f", or when {_conditions_text(items['unknown_if_written'])} is written"
        out.append(f"- `{entry['key']}` -> `{entry['param']}`{null}{group}")
    out += ["", "## Defaults", ""]
    if not pack["defaults"]:
        out.append("None recorded: an unwritten key is absent (engine) or unknown (request).")
    for key, value in pack["defaults"].items():
        if _by_release(value):
            releases = "; ".join(f"from {name} {release}: `{_json(v)}`" for release, v in value.items())
            out.append(f"- `{key}`: {releases} (unknown when the project pins no release)")
        else:
            out.append(f"- `{key}`: `{_json(value)}`")
    if pack.get("vllm_pins"):
        from vllm_lint.frameworks.defaults import single_profile

        lines = []
        for release, pin in pack["vllm_pins"].items():
            for extra, spec in (pin.items() if isinstance(pin, dict) else [(None, pin)]):
                target = single_profile(spec)
                via = f"`{name}[{extra}]`" if extra else f"`{name}`"
                effect = f"target vLLM {target}" if target else "no target (the vLLM releases it admits differ for the rules)"
                lines.append(f"- {via} {release}.x requires `vllm{spec if not spec[:1].isdigit() else '==' + spec}`: {effect}")
        out += [
            "", "## Pinned vLLM", "",
            "When the project pins the framework (with that extra) and names no vLLM version of its own:", "", *lines,
        ]
    if pack.get("backend"):
        backend = pack["backend"]
        values = ", ".join(f"`{v}`" for v in [*backend["values"], *pack.get("backends", {})])
        out += ["", f"Only a vLLM backend is checked: `{backend['key']}` certainly set to another value than {values} means nothing is reported."]
        for value, override in pack.get("backends", {}).items():
            variant = {**pack, **override}
            out += [
                "", f"## Backend `{value}`", "",
                f"`{backend['key']}: {value}` runs vLLM another way; the engine is read as follows (the requests, defaults and "
                f"launches as above). Read from: {variant['read_from']}.", "",
                *_engine_lines(variant),
            ]
            if variant.get("passes") is None:
                out.append("- the start-up checks (VLM4xx) read every engine argument the config does not write as unknown")
            for release, pin in override.get("vllm_pins", {}).items():
                out.append(f"- a project that pins `{pack.get('distribution') or name}` {release}.x and no vLLM: target vLLM `{pin}`")
    return "\n".join(out) + "\n"


def main(folder: str) -> None:
    for name in packs.BUILTIN:
        Path(folder, f"{name}.md").write_text(render(name), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/frameworks")
