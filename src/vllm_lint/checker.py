"""Apply the rules to facts from any front end."""

from __future__ import annotations

from typing import Iterable

from vllm_lint.facts import EngineFacts, RequestFacts
from vllm_lint.findings import Finding
from vllm_lint.rules import ALL_RULES
from vllm_lint.versions import Version


def check_facts(
    engines: Iterable[EngineFacts], requests: Iterable[RequestFacts], version: Version
) -> list[Finding]:
    """Every violated precondition, not only the first one vLLM would raise."""
    engine_rules = [rule for rule in ALL_RULES if rule.scope == "engine" and rule.applies_to(version)]
    request_rules = [rule for rule in ALL_RULES if rule.scope == "request" and rule.applies_to(version)]
    findings: list[Finding] = []
    seen: set[tuple] = set()

    def add(found: Iterable[Finding]) -> None:
        for finding in found:
            key = (finding.code, finding.span.line, finding.span.col, finding.message)
            if key not in seen:
                seen.add(key)
                findings.append(finding)

    for engine in engines:
        for rule in engine_rules:
            add(rule.check(engine, version))
    for request in requests:
        for rule in request_rules:
            add(rule.check(request, version))
    findings.sort(key=lambda f: (f.span.line, f.span.col, f.code))
    return findings
