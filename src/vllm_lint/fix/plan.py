"""Which findings have a fix, what it does and how safe it is.

Nothing here imports libcst: the command line asks these questions before it
decides whether the fix machinery is needed at all.

A ``Target`` names one edit of the written configuration:

* ``set``    -- replace the value of a keyword/entry with ``"processed_logprobs"``;
* ``add``    -- add ``logprobs_mode="processed_logprobs"`` to the constructor call at ``span``;
* ``remove`` -- remove the keyword/entry/assignment at ``span``;
* ``rename`` -- rename ``enable_return_sampling_mask`` to ``return_sampling_mask``.

``kind`` is the origin's kind (``keyword``, ``dict-entry``, ``call-keyword``,
``subscript``, ``attribute``, ``call``) or ``anchor`` for the call an ``add`` edits.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from vllm_lint.facts import Span
from vllm_lint.findings import Finding
from vllm_lint.versions import Version

KEEP_REPLAY = "keep-replay"
DISABLE_REPLAY = "disable-replay"

# Rules that fire only because return_sampling_mask is on: --fix-mode disable-replay
# turns the mask off instead of removing what conflicts with it.
REPLAY_CODES = frozenset({"VLM101", "VLM102", "VLM103", "VLM104", "VLM105", "VLM106"})
# Origin kinds whose syntax the Python fixer knows how to edit.
EDITABLE_KINDS = frozenset({"keyword", "dict-entry", "call-keyword", "subscript", "attribute", "call"})

LOGPROBS_MODE = "logprobs_mode"
PROCESSED_LOGPROBS = "processed_logprobs"
MASK = "return_sampling_mask"


@dataclass(frozen=True)
class Target:
    action: str  # "set", "add", "remove", "rename"
    kind: str
    span: Span
    safety: str  # "safe" or "unsafe"
    message: str


def _name_in(finding: Finding) -> str | None:
    """The setting a VLM302/VLM104/VLM106 finding is about, from the rule's own vocabulary."""
    for name in ("enable_return_sampling_mask", "return_sampling_mask_logprobs"):
        if finding.message.startswith(name):
            return name
    return {"VLM104": "logits_processors", "VLM106": "enable_batch_sharded_sampling"}.get(finding.code)


def _message(finding: Finding, action: str) -> str:
    if action == "add":
        return f'Add `{LOGPROBS_MODE}="{PROCESSED_LOGPROBS}"`'
    if action == "set":
        return f'Set `{LOGPROBS_MODE}="{PROCESSED_LOGPROBS}"`'
    if action == "rename":
        return f"Rename `enable_return_sampling_mask` to `{MASK}`"
    if finding.fix_action == "remove-adaptive-verification":
        return "Remove `enable_adaptive_verification` from the speculative configuration"
    if finding.fix_action == "remove-speculative-config":
        return "Remove the speculative decoding configuration"
    name = _name_in(finding)
    return f"Remove `{name}`" if name else "Remove the setting"


def keep_replay_target(finding: Finding) -> Target | None:
    """The fix the rule offers (``--fix-mode keep-replay``), or None."""
    action = finding.fix_action
    if action is None or finding.fix_safety is None:
        return None
    origin = finding.origin
    if origin is not None and (origin.path is not None or origin.kind not in EDITABLE_KINDS):
        return None  # written in another file, or in syntax the fixer does not edit
    if action == "set-processed-logprobs":
        if origin is None:
            if finding.span.end_line is None:
                return None
            return Target("add", "anchor", finding.span, finding.fix_safety, _message(finding, "add"))
        return Target("set", origin.kind, origin.span, finding.fix_safety, _message(finding, "set"))
    if origin is None:
        return None
    if action in ("remove", "remove-adaptive-verification", "remove-speculative-config"):
        return Target("remove", origin.kind, origin.span, finding.fix_safety, _message(finding, "remove"))
    if action == "rename-to-return-sampling-mask":
        return Target("rename", origin.kind, origin.span, finding.fix_safety, _message(finding, "rename"))
    return None


def disable_replay_message() -> str:
    return f"Remove `{MASK}` (turns sampling distribution replay off)"


def may_have_fix(finding: Finding, mode: str) -> bool:
    """A cheap test: the finding may have a fix in this mode (the fixer decides for certain)."""
    if finding.fix is not None:
        return True
    if mode == DISABLE_REPLAY and finding.code in REPLAY_CODES:
        return True
    return finding.fix_action is not None and finding.fix_safety is not None


def applicable(safety: str | None, unsafe: bool) -> bool:
    return safety == "safe" or (safety == "unsafe" and unsafe)


# ------------------------------------------------------------------ Python findings


@dataclass
class Planned:
    finding: Finding
    target: Target


def _analyse(source: str, path: str | None):
    """The Python front end's analysis of a module (its engines), as ``analyze_tree`` runs it."""
    tree = ast.parse(source)
    try:
        from vllm_lint.python.analyzer import analyze_module
    except ImportError:  # an analyzer without cross-module analysis
        from vllm_lint.python.analyzer import ModuleAnalysis

        analysis = ModuleAnalysis(tree)
        analysis.run()
        return analysis
    from vllm_lint.python import project_modules

    real_path = path if path and path not in ("-", "stdin") else None
    return analyze_module(tree, real_path, project_modules() if real_path else None)


def _engine_mask_targets(source: str, path: str | None, version: Version, findings: list[Finding]) -> dict[int, Target]:
    """``--fix-mode disable-replay``: for each replay finding, the removal of its engine's mask."""
    from vllm_lint.checker import check_facts
    from vllm_lint.rules.base import replay_on

    wanted = {id(f): (f.code, f.span.line, f.span.col, f.message) for f in findings if f.code in REPLAY_CODES}
    if not wanted:
        return {}
    analysis = _analyse(source, path)
    result: dict[int, Target] = {}
    for engine in analysis.engines:
        if not replay_on(engine):
            continue
        origin = engine.written.get(MASK)
        if origin is None or origin.path is not None or origin.kind not in EDITABLE_KINDS:
            continue
        if origin.container is not None and analysis.shared_container(origin.container):
            continue
        keys = {(f.code, f.span.line, f.span.col, f.message) for f in check_facts([engine], [], version)}
        target = Target("remove", origin.kind, origin.span, "unsafe", disable_replay_message())
        for finding_id, key in wanted.items():
            if key in keys:
                result[finding_id] = target
    return result


def plan(source: str, findings: list[Finding], version: Version, mode: str, path: str | None = None) -> list[Planned]:
    """Every finding that has a fix in this mode, with its edit (whatever its safety)."""
    planned: list[Planned] = []
    masks = _engine_mask_targets(source, path, version, findings) if mode == DISABLE_REPLAY else {}
    for finding in findings:
        if mode == DISABLE_REPLAY and finding.code in REPLAY_CODES:
            target = masks.get(id(finding))
        else:
            target = keep_replay_target(finding)
        if target is not None:
            planned.append(Planned(finding, target))
    return planned
