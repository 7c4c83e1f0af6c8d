"""The shape every rule module shares, and the vocabulary rules use."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

from vllm_lint.facts import EngineFacts, Origin, Span, known_bool
from vllm_lint.findings import Finding
from vllm_lint.versions import Version, VersionRange

DOCS_URL = "https://github.com/vllm-lint/vllm-lint/blob/main/docs/rules.md#{code}"


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    summary: str
    versions: VersionRange
    scope: str  # "engine" or "request"
    check: Callable[..., Iterable[Finding]]
    doc: str
    fix_safety: str | None = None  # "safe", "unsafe" or None (no automatic fix)

    def applies_to(self, version: Version) -> bool:
        return version in self.versions

    @property
    def url(self) -> str:
        return DOCS_URL.format(code=self.code.lower())

    def section(self, title: str) -> str:
        """One section of the rule's documentation, e.g. ``"Example"``."""
        pattern = re.compile(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", re.M | re.S)
        match = pattern.search(self.doc)
        return match.group(1).strip() if match else ""

    def code_blocks(self, title: str) -> list[str]:
        return re.findall(r"```(?:python|sh|bash|yaml)?\n(.*?)```", self.section(title), re.S)

    def finding(self, message: str, span: Span, origin: Origin | None = None, *, action: str | None = None) -> Finding:
        """A finding; ``origin`` is the written value a fix would edit."""
        return Finding(
            code=self.code,
            name=self.name,
            message=message,
            span=span,
            origin=origin,
            fix_action=action,
            fix_safety=self.fix_safety if action else None,
        )


# vLLM's own error texts, quoted in messages so a search for the runtime error finds the rule.
VLLM_ERRORS = {
    "R1": "sampling distribution replay requires Model Runner V2",
    "R2-old": "sampling distribution replay does not support speculative decoding",
    "R2-new": (
        "sampling distribution replay with speculative decoding requires fixed verification "
        "boundaries; disable adaptive verification"
    ),
    "R3": "sampling distribution replay does not support diffusion models",
    "R4": "sampling distribution replay does not support custom logits processors",
    "R5": (
        "sampling distribution replay requires logprobs_mode='processed_logprobs' so that returned "
        "logprobs are normalized over the same nucleus as the sampling mask"
    ),
    "R6": (
        "Batch-sharded sampling was explicitly enabled via the --enable-batch-sharded-sampling flag, "
        "but is not supported in this configuration for the following reason(s): return_sampling_mask "
        "is set and the batch-sharded gather does not forward sampling masks"
    ),
    "R7": "trace replay requires Model Runner V2",
    "Q1": "sampling distribution replay requires temperature > 0",
    "Q2": (
        "sampling distribution replay requires top_k > 0 to bound sampling mask size, reduce transfer "
        "overhead, and avoid potential OOMs"
    ),
    "Q3": (
        "trace_decode_token_ids is set but trace replay is not enabled. Start the engine with "
        "--enable-trace-replay to use it."
    ),
    "Q4": "trace_decode_token_ids is not supported with speculative decoding.",
}


def replay_on(facts: EngineFacts) -> bool:
    """The engine certainly has sampling distribution replay switched on."""
    return known_bool(facts.get("return_sampling_mask")) is True


def trace_replay_on(facts: EngineFacts) -> bool:
    return known_bool(facts.get("enable_trace_replay")) is True


def spell(facts: EngineFacts, name: str, value: object = True) -> str:
    """How the user writes a setting in the front end the facts came from."""
    if facts.source == "command-line":
        flag = "--" + name.replace("_", "-")
        if value is True:
            return flag
        return f"{flag} {value}"
    if isinstance(value, str):
        return f'{name}="{value}"'
    return f"{name}={value!r}"


def name_of(facts: EngineFacts, name: str) -> str:
    """A setting's name as the front end writes it: ``logits_processors`` or ``--logits-processors``."""
    if facts.source == "command-line":
        return "--" + name.replace("_", "-")
    return name


def quote(key: str, limit: int | None = None) -> str:
    text = VLLM_ERRORS[key]
    if limit is not None and len(text) > limit:
        text = text[:limit].rstrip() + " ..."
    return f'"{text}"'
