"""Findings on framework facts, told in the framework's terms, with text fixes where the value is written.

A finding names the framework key that decides it
(``actor_rollout_ref.rollout.top_k = -1 (verl default)``) and points at that
key or override; a framework default points at the key that turned replay on.
"""

from __future__ import annotations

from dataclasses import replace

from vllm_lint.findings import Edit, Finding, Fix
from vllm_lint.frameworks.pack import Pack
from vllm_lint.frameworks.tree import Entry

# The setting each rule's finding is about.
DECIDING = {
    "VLM101": ("engine", "return_sampling_mask"),
    "VLM102": ("engine", "speculative_config"),
    "VLM103": ("engine", "model"),
    "VLM104": ("engine", "logits_processors"),
    "VLM105": ("engine", "logprobs_mode"),
    "VLM106": ("engine", "enable_batch_sharded_sampling"),
    "VLM201": ("request", "temperature"),
    "VLM202": ("request", "top_k"),
    "VLM301": ("engine", "return_sampling_mask"),
}


def describe(pack: Pack, key: str, entry: Entry) -> str:
    value = _show(entry.value)
    if entry.becomes is not None:
        value += f", which {pack.name} sends as {_show(entry.becomes)}"
    if entry.why:
        return f"{key} = {value} ({entry.why})"
    if entry.provenance == "default":
        return f"{key} = {value} ({pack.name} default)"
    if entry.provenance == "framework":
        return f"{key} = {value}"
    if entry.provenance == "override":
        return f"{key} = {value} (launch override)"
    return f"{key} = {value}"


def _show(value) -> str:
    if isinstance(value, dict):
        return "{...}" if value else "{}"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def decorate(finding: Finding, pack: Pack, decided_by: dict, source, only_written_here: bool) -> Finding | None:
    """The finding in the framework's terms; None when this file does not decide it.

    ``decided_by``: (scope, vLLM name) -> (key path, entry) for the engine and the request checked.
    """
    scope_name = DECIDING.get(finding.code)
    decided = decided_by.get(scope_name) if scope_name else None
    if finding.fix_action == "remove-adaptive-verification":
        decided = decided_by.get(("engine", "speculative_config.enable_adaptive_verification"), decided)
    replay = decided_by.get(("engine", "return_sampling_mask"))
    if only_written_here:
        here = [item for item in (decided, replay) if item is not None and item[1].provenance == "override"]
        if not here:
            return None  # the config file that holds these settings reports it
    note = ""
    if decided is not None:
        key, entry = decided
        note = describe(pack, key, entry)
        if entry.path is not None and entry.key_span is not None:
            note += f", set in {entry.path}, line {entry.key_span.line}"
    message = f"{finding.message} [{pack.name}: {note}]" if note else f"{finding.message} [{pack.name}]"
    finding = replace(finding, message=message)
    if decided is not None and decided[1].key_span is not None and decided[1].path is None:
        finding.span = decided[1].key_span  # the key or override that decides it
    finding.fix = _fix(finding, decided, source)
    return finding


def _fix(finding: Finding, decided, source) -> Fix | None:
    if decided is None or finding.fix_action is None or source is None:
        return None
    key, entry = decided
    if entry.value_span is None or entry.path is not None:
        return None
    span = entry.value_span
    start = (span.line, span.col + 1)
    end = (span.end_line or span.line, (span.end_col if span.end_col is not None else span.col) + 1)
    written = _written(source, span)
    if finding.fix_action == "set-processed-logprobs":
        content = _requote(written, "processed_logprobs")
        return Fix("safe", f"Set {key} to processed_logprobs", [Edit(start, end, content)])
    if finding.fix_action == "remove-adaptive-verification":
        content = "False" if written[:1].isupper() else "false"
        return Fix("unsafe", f"Turn {key} off", [Edit(start, end, content)])
    return None


def _written(source, span) -> str:
    start = source.offset(span.line, span.col)
    end = source.offset(span.end_line or span.line, span.end_col if span.end_col is not None else span.col)
    return source.text[start:end]


def _requote(written: str, value: str) -> str:
    if written[:1] in ("'", '"') and written[-1:] == written[:1]:
        return f"{written[0]}{value}{written[0]}"
    return value
