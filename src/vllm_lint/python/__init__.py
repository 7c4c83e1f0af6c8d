"""The Python front end: ``ast`` in, findings out."""

from __future__ import annotations

import ast
import re

from vllm_lint.checker import check_facts
from vllm_lint.findings import Finding
from vllm_lint.versions import Version

# Every finding needs one of these settings written somewhere in the file, and
# every engine needs an import from vllm: files without both are skipped unparsed.
_RELEVANT = re.compile(r"sampling.mask|trace.replay|trace_decode_token_ids|batch.sharded.sampling")
_RELEVANT_BYTES = re.compile(_RELEVANT.pattern.encode())


def may_have_findings(source: str | bytes) -> bool:
    """A cheap test that skips files which cannot contain a finding."""
    if isinstance(source, bytes):
        return b"vllm" in source and _RELEVANT_BYTES.search(source) is not None
    return "vllm" in source and _RELEVANT.search(source) is not None


def analyze_tree(tree: ast.Module, version: Version) -> list[Finding]:
    from vllm_lint.python.analyzer import analyze_module

    analysis = analyze_module(tree)
    findings = check_facts(analysis.engines, analysis.requests, version)
    for finding in findings:
        origin = finding.origin
        if origin is not None and origin.container is not None and analysis.shared_container(origin.container):
            # The dict feeds more than this engine: report, but do not offer an edit.
            finding.fix_action = None
            finding.fix_safety = None
    return findings
