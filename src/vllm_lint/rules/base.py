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
    scope: str  # "engine" or "request" (rules on facts); "file" (rules on a linted file)
    check: Callable[..., Iterable[Finding]]
    doc: str
    fix_safety: str | None = None  # "safe", "unsafe" or None (no automatic fix)
    # vLLM's own error texts, verbatim: a finding carries the one it predicts, and the
    # documentation lists them all, so a search for the runtime error finds the rule.
    vllm_errors: tuple[str, ...] = ()
    # Off unless selected by its own code or a prefix longer than "VLM" (--extend-select VLM901).
    opt_in: bool = False

    def applies_to(self, version: Version) -> bool:
        return version in self.versions

    @property
    def outcome(self) -> str:
        """What vLLM does when the rule is broken, to introduce its error text."""
        return "vLLM rejects the request" if self.scope == "request" else "vLLM refuses to start"

    @property
    def documentation(self) -> str:
        """The module's documentation, with vLLM's error texts at the end of "Why is this bad?"."""
        if not self.vllm_errors:
            return self.doc
        block = "".join(f"{text}\n" for text in self.vllm_errors)
        errors = f"vLLM's error{'s' if len(self.vllm_errors) > 1 else ''}, verbatim:\n\n```text\n{block}```\n"
        why = re.search(r"^## Why is this bad\?\n.*?(?=^## |\Z)", self.doc, re.M | re.S)
        if why is None:
            return self.doc.rstrip() + "\n\n" + errors
        section = why.group(0).rstrip("\n") + "\n\n" + errors + "\n"
        return self.doc[: why.start()] + section + self.doc[why.end() :]

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

    def finding(
        self,
        message: str,
        span: Span,
        origin: Origin | None = None,
        *,
        action: str | None = None,
        vllm_error: str | None = None,
    ) -> Finding:
        """A finding; ``origin`` is the written value a fix would edit.

        ``message`` says what is wrong and what to write; ``vllm_error`` is the
        error vLLM would raise, verbatim (``full`` and JSON output show it)."""
        return Finding(
            code=self.code,
            name=self.name,
            message=message,
            span=span,
            origin=origin,
            fix_action=action,
            fix_safety=self.fix_safety if action else None,
            vllm_error=vllm_error,
        )


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


def unknown_setting_error(facts: EngineFacts, name: str) -> str:
    """What vLLM says about a setting it does not have: a TypeError from the engine
    arguments' constructor, or the server's argument parser."""
    if facts.source == "command-line":
        return f"unrecognized arguments: {name_of(facts, name)}"
    return f"got an unexpected keyword argument '{name}'"


def from_other_file(finding, origin):
    """A command-line finding about a value its ``--config`` file holds: the finding keeps
    that origin, so the message says where it is set and a run that lints the file too
    reports it once, there."""
    if origin is not None and origin.path is not None and finding.origin is None:
        finding.origin = origin
    return finding


def may_be_speculators_checkpoint(facts: EngineFacts) -> bool:
    """The model may be a speculators-format checkpoint (its ``config.json`` has
    ``speculators_config``): vLLM then builds the speculative config from it, its method and
    draft model replacing what ``speculative_config`` says (``maybe_override_with_speculators``,
    before any config is validated).  Only a model known by name, and not named as such a
    checkpoint, leaves the written speculative config as it is."""
    from vllm_lint.facts import ABSENT, Known

    model = facts.get("model")
    if model is ABSENT:
        return False
    return not (isinstance(model, Known) and isinstance(model.value, str) and "speculator" not in model.value.lower())

