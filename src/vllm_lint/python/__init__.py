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
# The same test, fast: a regular expression without a literal prefix tries every
# position of the file, so each alternative is guarded by a plain substring test
# (``in`` is a fast search) and the pattern runs only on files that pass it.
_GUARDS = (
    ("mask", re.compile(r"sampling.mask")),
    ("replay", re.compile(r"trace.replay")),
    ("sharded", re.compile(r"batch.sharded.sampling")),
    ("trace_decode_token_ids", None),
)
_GUARDS_BYTES = tuple(
    (fragment.encode(), None if pattern is None else re.compile(pattern.pattern.encode()))
    for fragment, pattern in _GUARDS
)


def may_have_findings(source: str | bytes) -> bool:
    """A cheap test that skips files which cannot contain a finding."""
    if isinstance(source, bytes):
        if b"vllm" not in source:
            return False
        guards: tuple = _GUARDS_BYTES
    else:
        if "vllm" not in source:
            return False
        guards = _GUARDS
    for fragment, pattern in guards:
        if fragment in source and (pattern is None or pattern.search(source) is not None):
            return True
    return False


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
