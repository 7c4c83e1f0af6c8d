"""Which findings have a fix, what it does and how safe it is.

Nothing here imports libcst: the command line asks these questions before it
decides whether the fix machinery is needed at all.

A ``Target`` names one edit of the written configuration:

* ``set``    -- replace the value of a keyword/entry with ``"processed_logprobs"``;
* ``add``    -- add ``logprobs_mode="processed_logprobs"`` to the constructor call at ``span``;
* ``remove`` -- remove the keyword/entry/assignment at ``span``;
* ``rename`` -- rename ``enable_return_sampling_mask`` to ``return_sampling_mask``;
* ``argv``   -- edit string elements of a Python argv list (``elements``, see ``fix/argv.py``).

``kind`` is the origin's kind (``keyword``, ``dict-entry``, ``call-keyword``,
``subscript``, ``attribute``, ``call``), ``anchor`` for the call an ``add`` edits,
or ``argv``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from vllm_lint.facts import Span
from vllm_lint.findings import Finding, Fix
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
    action: str  # "set", "add", "remove", "rename", "argv"
    kind: str
    span: Span
    safety: str  # "safe" or "unsafe"
    message: str
    elements: tuple = ()  # "argv": the ElementEdits, applied together or not at all
    path: str | None = None  # the other project file the edit is in (None: the linted file)
    # "rename": the new name (default: return_sampling_mask) and, when it changes, the new
    # value's Python source (VLM301's documented renames: ``mm_processor_cache_gb=0``).
    new_name: str | None = None
    new_value: str | None = None

    @property
    def key(self) -> tuple:
        """What the edit is: two findings with the same key share one edit."""
        return (self.action, self.kind, self.span, self.elements, self.path, self.new_name, self.new_value)


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
    if finding.fix_action == "remove-argument" and finding.argument:
        return f"Remove `{finding.argument}`"
    name = _name_in(finding)
    return f"Remove `{name}`" if name else "Remove the setting"


def keep_replay_target(finding: Finding) -> Target | None:
    """The fix the rule offers (``--fix-mode keep-replay``), or None."""
    action = finding.fix_action
    if action is None or finding.fix_safety is None:
        return None
    origin = finding.origin
    if origin is not None and origin.kind not in EDITABLE_KINDS:
        return None  # written in syntax the fixer does not edit
    if action == "set-processed-logprobs":
        if origin is None:
            if finding.span.end_line is None:
                return None
            return Target("add", "anchor", finding.span, finding.fix_safety, _message(finding, "add"))
        edit = "set"
    elif origin is None:
        return None
    elif action in ("remove", "remove-adaptive-verification", "remove-speculative-config", "remove-argument"):
        edit = "remove"
    elif action == "rename-to-return-sampling-mask":
        edit = "rename"
    elif action == "rename-argument" and finding.rename is not None:
        return _rename_target(finding, origin)
    else:
        return None
    return Target(edit, origin.kind, origin.span, finding.fix_safety, _in_file(_message(finding, edit), origin), path=origin.path)


def _rename_target(finding: Finding, origin) -> Target | None:
    """VLM301: the argument replaced by the successor vLLM documents (and its documented value)."""
    from vllm_lint.launch.schema import python_literal

    rename = finding.rename
    value = python_literal(rename.value) if rename.fix == "value" and rename.value is not None else None
    if value is not None and origin.kind not in ("keyword", "dict-entry", "subscript", "attribute"):
        return None  # setdefault/setattr calls: the value is an argument of its own
    written = f"{rename.new}={value}" if value is not None else rename.new
    message = _in_file(f"Replace `{rename.old}` with `{written}`", origin)
    return Target("rename", origin.kind, origin.span, finding.fix_safety, message, path=origin.path, new_name=rename.new, new_value=value)


def _in_file(message: str, origin) -> str:
    if origin is None or origin.path is None:
        return message
    from vllm_lint.fix.crossfile import display_path

    return f"{message} in {display_path(origin.path)}"


def disable_replay_message() -> str:
    return f"Remove `{MASK}` (turns sampling distribution replay off)"


def may_have_fix(finding: Finding, mode: str) -> bool:
    """A cheap test: the finding may have a fix in this mode (the fixer decides for certain)."""
    if finding.fix is not None:
        return True
    if mode == DISABLE_REPLAY and finding.code in REPLAY_CODES:
        return True
    return finding.fix_action is not None and finding.fix_safety is not None


def command_line_fix(finding: Finding, mode: str) -> Fix | None:
    """The fix of a shell, Dockerfile or YAML finding in this mode (built with the finding)."""
    if mode == DISABLE_REPLAY and finding.code in REPLAY_CODES:
        return finding.disable_replay_fix  # removing --return-sampling-mask instead
    return finding.fix


@dataclass(frozen=True)
class Offer:
    """A finding's fix as the report shows it: what it does, and how safe it is."""

    message: str
    applicability: str  # "safe" or "unsafe"


def offers(
    source: str | None,
    findings: list[Finding],
    version: Version,
    mode: str,
    path: str | None,
    python: bool,
    elsewhere=None,
) -> dict[int, Offer]:
    """The fix each finding has in this mode, by ``id`` of the finding; no libcst.

    ``elsewhere`` (``crossfile.OtherFiles``): fixes may edit other project files."""
    found: dict[int, Offer] = {}
    pending: list[Finding] = []
    for finding in findings:
        fix = finding.fix if python else command_line_fix(finding, mode)
        if fix is not None and (fix.edits or fix.elsewhere):
            found[id(finding)] = Offer(fix.message, fix.applicability)
        elif python and fix is None and may_have_fix(finding, mode):
            pending.append(finding)
    if pending and source is not None:
        try:
            planned = plan(source, pending, version, mode, path, elsewhere)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            planned = []  # a fix we cannot plan is a fix we do not offer
        for item in planned:
            found[id(item.finding)] = Offer(item.target.message, item.target.safety)
    return found


def result_offers(results, resolver, mode: str, elsewhere=None) -> dict[int, Offer]:
    """``offers`` for every linted file (``FileResult``), by ``id`` of the finding."""
    found: dict[int, Offer] = {}
    for result in results:
        if not result.findings:
            continue
        version, _ = resolver.for_path(result.path)
        other = elsewhere if result.path != "-" else None
        found.update(offers(result.source, result.findings, version, mode, result.path, result.is_python, other))
    return found


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
    if real_path is None:
        return analyze_module(tree)
    project = project_modules()
    with project.analysing(real_path):  # as the linted file: an import cycle through it is unknown
        return analyze_module(tree, real_path, project, bind_callers=True)


def _engines_of(source: str, path: str | None, version: Version, findings: list[Finding]) -> tuple[object, dict[int, object]]:
    """The analysis, and the engine each finding is about (by ``id`` of the finding)."""
    from vllm_lint.checker import check_facts

    analysis = _analyse(source, path)
    wanted = {id(f): (f.code, f.span.line, f.span.col, f.message) for f in findings}
    engines: dict[int, object] = {}
    for engine in analysis.engines:
        keys = {(f.code, f.span.line, f.span.col, f.message) for f in check_facts([engine], [], version)}
        for finding_id, key in wanted.items():
            if key in keys:
                engines.setdefault(finding_id, engine)
    return analysis, engines


def _mask_removal(analysis, engine, path: str | None, elsewhere) -> Target | None:
    """``--fix-mode disable-replay``: remove the engine's ``return_sampling_mask`` where it is written."""
    from vllm_lint.rules.base import replay_on

    if engine is None or not replay_on(engine):
        return None
    origin = engine.written.get(MASK)
    if origin is None or origin.kind not in EDITABLE_KINDS:
        return None
    if origin.path is not None:
        if not _editable_elsewhere(analysis, engine, origin, path, elsewhere):
            return None
    elif origin.container is not None and analysis.shared_container(origin.container):
        return None
    message = _in_file(disable_replay_message(), origin)
    return Target("remove", origin.kind, origin.span, "unsafe", message, path=origin.path)


def _holders(engine, origin) -> tuple[int | None, list[int]] | None:
    """The dict the value at ``origin`` is written in, and the dicts that hold that one
    (innermost first); None when the value is not found among the engine's settings.

    A dict nested in a shared one (``COMMON = {"speculative_config": {...}}``) is
    shared too, so an edit is local only when each of them is.
    """
    from vllm_lint.facts import Known, Mapping

    def walk(fact, enclosing: list[int]) -> tuple[int | None, list[int]] | None:
        if not isinstance(fact, Known):
            return None
        # Container ids differ between two runs of the analysis: compare where it was written.
        here = fact.origin
        if here is not None and (here.span, here.kind, here.path) == (origin.span, origin.kind, origin.path):
            return here.container, enclosing[::-1]
        if isinstance(fact.value, Mapping):
            container = here.container if here is not None else None
            inner = enclosing + [container] if container is not None else enclosing
            for item in fact.value.items.values():
                found = walk(item, inner)
                if found is not None:
                    return found
        return None

    for fact in engine.fields.values():
        found = walk(fact, [])
        if found is not None:
            return found
    return None


def _inside_shared(analysis, engine, origin) -> bool:
    """The value at ``origin`` sits inside a dict (of this file) that feeds more than this engine.

    The front end checks the dict the value is written in; here the dicts that hold that one.
    """
    holders = _holders(engine, origin)
    return holders is not None and any(analysis.shared_container(container) for container in holders[1])


def _editable_elsewhere(analysis, engine, origin, path: str | None, elsewhere) -> bool:
    """A value written in another project file may be fixed there (``fix/crossfile.py``)."""
    if elsewhere is None or path is None or path in ("-", "stdin") or not elsewhere.allowed(origin.path):
        return False
    from vllm_lint.fix.crossfile import editable_elsewhere

    holders = _holders(engine, origin)
    if holders is None or holders[0] is None:
        return False  # only values written in dicts are fixed in another file
    own, enclosing = holders
    return editable_elsewhere(origin, [own, *enclosing], path, analysis.dict_feeds, elsewhere.scans)


def _argv_target(analysis, engine, finding: Finding, version: Version, mode: str, uses: dict) -> Target | None:
    """The edit of a server's argv list written in Python, when it is local to that server."""
    from vllm_lint.fix import argv

    parsed = getattr(engine, "parsed", None)
    if parsed is None:
        return None

    def planned_for(facts) -> tuple[str, str, list] | None:
        if mode == DISABLE_REPLAY and finding.code in REPLAY_CODES:
            elements = argv.mask_removal_edits(facts.parsed)
            return ("unsafe", disable_replay_message(), elements) if elements else None
        if finding.fix_safety is None:
            return None
        found = argv.keep_replay_edits(finding, facts.parsed)
        return (finding.fix_safety, found[0], found[1]) if found else None

    own = planned_for(engine)
    if own is None:
        return None
    safety, message, elements = own
    spans = {edit.span for edit in elements}
    if "module" not in uses:  # one reading of the module's lists per plan
        uses["module"] = argv.ListUses(analysis.tree)
    if not all(uses["module"].private(span) for span in spans):
        return None
    # The same list may reach other servers (a helper called twice): each must get this very fix.
    from vllm_lint.checker import check_facts

    for other in analysis.engines:
        if other is engine or not spans & argv.element_spans(other):
            continue
        if getattr(other, "parsed", None) is None:
            return None
        codes = {f.code for f in check_facts([other], [], version)}
        if finding.code not in codes or planned_for(other) != own:
            return None
    return Target("argv", "argv", elements[0].span, safety, message, tuple(elements))


def plan(
    source: str, findings: list[Finding], version: Version, mode: str, path: str | None = None, elsewhere=None
) -> list[Planned]:
    """Every finding that has a fix in this mode, with its edit (whatever its safety).

    ``elsewhere`` (``crossfile.OtherFiles``) lets edits go to other project files; without
    it, a finding whose value is written in another file has no fix.
    """
    # RL framework launches in argv lists carry their element edits (``frameworks/report.py``).
    launches = [f for f in findings if f.argv_fix is not None]
    findings = [f for f in findings if f.argv_fix is None]
    planned_launches = _framework_argv_targets(source, launches, mode)
    disabling = {id(f) for f in findings if mode == DISABLE_REPLAY and f.code in REPLAY_CODES}
    targets = {id(f): keep_replay_target(f) for f in findings if id(f) not in disabling}
    # Findings about a server started from an argv list: their edits are the list's elements.
    launched = {
        id(f) for f in findings if id(f) not in disabling and targets[id(f)] is None and f.fix_action and f.fix_safety
    }
    # Findings whose edit depends on the engine: the mask it writes, a value in a dict, an argv list.
    located = [
        f
        for f in findings
        if id(f) in disabling or id(f) in launched or (targets.get(id(f)) and targets[id(f)].action != "add")
    ]
    analysis, engines = _engines_of(source, path, version, located) if located else (None, {})
    planned: list[Planned] = []
    list_uses: dict = {}
    for finding in findings:
        engine = engines.get(id(finding))
        if getattr(engine, "parsed", None) is not None and (id(finding) in disabling or id(finding) in launched):
            target = _argv_target(analysis, engine, finding, version, mode, list_uses)
        elif id(finding) in disabling:
            target = _mask_removal(analysis, engine, path, elsewhere)
        else:
            target = targets.get(id(finding))
            if target is not None and target.action != "add":
                if engine is None:
                    target = None
                elif target.path is not None:
                    if not _editable_elsewhere(analysis, engine, finding.origin, path, elsewhere):
                        target = None
                elif _inside_shared(analysis, engine, finding.origin):
                    target = None
                elif target.action == "rename" and (
                    (target.new_name or MASK) in engine.written or (target.new_name or MASK) in engine.fields
                ):
                    target = None  # renaming would write the new name twice
        if target is not None:
            planned.append(Planned(finding, target))
    return planned + planned_launches


def _framework_argv_targets(source: str, findings: list[Finding], mode: str) -> list[Planned]:
    """The element edits of framework launches, for lists that reach that launch only."""
    if not findings or mode == DISABLE_REPLAY:
        return []
    from vllm_lint.fix import argv

    try:
        uses = argv.ListUses(ast.parse(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    planned = []
    for finding in findings:
        safety, message, elements = finding.argv_fix
        if all(uses.private(edit.span) for edit in elements):
            planned.append(Planned(finding, Target("argv", "argv", elements[0].span, safety, message, tuple(elements))))
    return planned
