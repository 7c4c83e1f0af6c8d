"""The Python front end: ``ast`` in, findings out."""

from __future__ import annotations

import ast
import re

from vllm_lint.checker import check_facts
from vllm_lint.findings import Finding
from vllm_lint.sources import MAX_ANALYSED_BYTES, NAME_BYTES
from vllm_lint.versions import Version

# Every finding needs an engine construction, a server launch or one of these
# settings written somewhere in the file, and every engine needs an import from
# vllm: files without both are skipped unparsed.
# The settings are sampling[_-]mask, trace[_-]replay, trace_decode_token_ids and
# batch[_-]sharded[_-]sampling.  A substring test (``find``) is a fast search and a regular
# expression without a literal prefix would try every position of the file, so each setting is
# found through a word it holds ("sampling" or "trace": two searches for the four settings), and
# only where that word stands is the rest of the setting matched.
# Identifiers, keys and flags only: "sampling mask" in prose is not a setting.
_AFTER_SAMPLING = re.compile(rb"[_-]mask")
_BEFORE_SAMPLING = re.compile(rb"batch[_-]sharded[_-]")
_AFTER_TRACE = re.compile(rb"[_-]replay|_decode_token_ids")


def _setting_matches(text: bytes):
    """The ``(start, end)`` of each replay setting in ``text``."""
    index = text.find(b"sampling")
    while index >= 0:
        match = _AFTER_SAMPLING.match(text, index + 8)
        if match is not None:
            yield index, match.end()
        elif index >= 14 and _BEFORE_SAMPLING.fullmatch(text, index - 14, index):
            yield index - 14, index + 8
        index = text.find(b"sampling", index + 8)
    index = text.find(b"trace")
    while index >= 0:
        match = _AFTER_TRACE.match(text, index + 5)
        if match is not None:
            yield index, match.end()
        index = text.find(b"trace", index + 5)


# The names a setting is given a value by in code (keywords, fields, attributes, config keys): vLLM's
# arguments and request fields that hold a setting's word, in every release of the schema, and the
# spellings of forks vLLM never had (``rules.flag_unavailable.NOT_UPSTREAM``); ``tests/test_prefilter.py``
# checks the list against them.  ``sampling_mask_tensors = ...`` in vLLM's own code is no setting.
SETTING_NAMES = frozenset(
    {
        b"return_sampling_mask",
        b"enable_trace_replay",
        b"enable_batch_sharded_sampling",
        b"trace_decode_token_ids",
        b"enable_return_sampling_mask",
        b"return_sampling_mask_logprobs",
    }
)
# The bytes of a setting's spellings: a name's, and dashes (flags and config keys).
_IDENTIFIER_BYTES = NAME_BYTES | {ord("-")}
# After a setting's name: an assignment or keyword (``=``, not ``==``), an in-place ``|=``/``&=``, a walrus,
# or an annotation or key with something after it on the line (``return_sampling_mask: bool = True``,
# ``enable_trace_replay: true`` in YAML text); not a colon that ends the line (``if x.enable_trace_replay:``).
_WRITTEN_AFTER = re.compile(rb"\s*(?:=(?!=)|[|&]=|:=)|[ \t]*:[ \t]*[^\s#]")


def _writes_setting(text: bytes) -> bool:
    """A replay setting in a form that gives it a value: a keyword or an assignment, a field or
    a key (``name: ...``), a quoted key or name (``{"return_sampling_mask": True}``,
    ``setattr(a, "enable_trace_replay", True)``), or a flag (``--return-sampling-mask``).
    A message that starts with one (``"trace_decode_token_ids is set but ...``) is prose; a name
    given a value must be a setting's own (``SETTING_NAMES``), not one that holds its words.
    A setting only read (``params.return_sampling_mask``, ``if cfg.enable_trace_replay:``) gives no
    engine a value: a file whose settings are all read is not let through for them."""
    for start, end in _setting_matches(text):
        while start and text[start - 1] in _IDENTIFIER_BYTES:
            start -= 1
        while end < len(text) and text[end] in _IDENTIFIER_BYTES:
            end += 1
        if text[start : start + 1] == b"-":
            return True  # a flag
        if start and text[start - 1] in b"\"'" and text[end : end + 1] == text[start - 1 : start]:
            return True  # a quoted name: a key, setattr's name, a parametrised argument
        if text[start:end].replace(b"-", b"_") in SETTING_NAMES and _WRITTEN_AFTER.match(text, end) is not None:
            return True
    return False


def _builds_or_launches(source: bytes) -> bool:
    """Any engine construction or server launch: every argument is checked against the schema."""
    return b"EngineArgs(" in source or _calls_llm(source) or _launches_server(source)


def _launches_server(source: bytes) -> bool:
    """``"serve"``, ``'serve'`` or ``openai.api_server``: each occurrence of "serve" (one search)
    is looked at where it stands."""
    index = source.find(b"serve")
    while index >= 0:
        quote = source[index - 1 : index] if index else b""
        if (quote in (b'"', b"'") and source[index + 5 : index + 6] == quote) or (
            index >= 11 and source.startswith(b"openai.api_server", index - 11)
        ):
            return True
        index = source.find(b"serve", index + 5)
    return False


def _calls_llm(source: bytes) -> bool:
    """``LLM(`` not at the end of another name (``class AsyncLLM(``)."""
    index = source.find(b"LLM(")
    while index >= 0:
        if index == 0 or source[index - 1] not in NAME_BYTES:
            return True
        index = source.find(b"LLM(", index + 1)
    return False


_project = None


def project_modules():
    """The per-process cache of project modules followed through imports."""
    global _project
    if _project is None:
        from vllm_lint.python.project import ProjectModules

        _project = ProjectModules()
    return _project


def forget_project_modules() -> None:
    """Drop the cache: a long-running host (the language server) reads the modules again."""
    global _project
    _project = None


_STARTS_PROCESSES = re.compile(rb"subprocess|os\.exec|os\.system|os\.popen|__command__")
# A launchpad node, which constructs its first argument later (``deferred.py``): a program
# function builds nodes of the classes its callers hand it.  Processes, threads and executors'
# ``submit`` are too common to let a file through on their own (the files they import are read).
_DEFERS = re.compile(rb"\b(?:CourierNode|PyNode|PyClassNode)\(")  # deferred.COPYING_SPELLINGS (not imported here: start-up)


def needs_analysis(source: bytes, path: str | None) -> bool:
    """The one prefilter of every entry point (``check``, the flake8 and pylint plugins, the
    language server, ``explain``): a file that builds or launches an engine, or writes a replay
    setting, with vLLM in it; or a file with half of it that imports a project module with the other
    half: vLLM here and the settings there, or the settings here passed to a module that builds engines;
    or a file that starts a process with a replay flag (a project's own vLLM server module).
    And in every case a file whose bytes could hold what the analysis starts from (``precheck``:
    a vLLM engine, args or request name, a process-starting call, an import of a project module)."""
    if not _may_be_relevant(source, path):
        return False
    if len(source) > MAX_ANALYSED_BYTES or b"\0" in source:
        return True  # not read as Python: its one diagnostic says why (``sources.not_analysable``)
    from vllm_lint.python.precheck import byte_triggers

    real_path = path if path is not None and path not in ("-", "stdin") else None
    return byte_triggers(source, real_path, project_modules() if real_path is not None else None)


def _may_be_relevant(source: bytes, path: str | None) -> bool:
    mentions_vllm = b"vllm" in source
    if mentions_vllm and _builds_or_launches(source):
        return True
    mentions_setting = _writes_setting(source)
    if mentions_vllm and mentions_setting:
        return True
    if path is not None and mentions_setting and _STARTS_PROCESSES.search(source) is not None:
        return True
    if path is None or path in ("-", "stdin") or b"import" not in source:
        return False
    if mentions_vllm:
        # A substring test first: the pattern's word boundary makes it a slow pass over every file.
        if b"Node(" in source and _DEFERS.search(source) is not None:
            return True  # ``lp.CourierNode(actor_cls, vllm_args)``: the class may be any its callers pass
        return project_modules().imports_relevant_module(path, source, _writes_setting)
    if mentions_setting:
        return project_modules().imports_relevant_module(path, source, _mentions_vllm)
    if _sends_through_self(source):
        # A subclass whose methods send requests through an engine its base class, in another
        # project module, keeps on ``self``: the file need not name vLLM or a setting at all.
        return project_modules().imports_relevant_module(path, source, _keeps_replay_engine)
    return False


def _mentions_vllm(text: bytes) -> bool:
    return b"vllm" in text


_SELF_REQUEST = re.compile(rb"self\.\w+\.(?:generate|chat|add_request)\(")
# One pass for the three request methods: half the cost of three substring tests.
_REQUEST_CALL = re.compile(rb"\.(?:generate|chat|add_request)\(")


def _sends_through_self(source: bytes) -> bool:
    """A class with a base that sends a request through an attribute of ``self``
    (``self.llm.generate(``); the longer pattern runs only on files with such a call at all."""
    return b"class " in source and _REQUEST_CALL.search(source) is not None and _SELF_REQUEST.search(source) is not None


def _keeps_replay_engine(text: bytes) -> bool:
    """A module that builds a vLLM engine with a replay setting (a base class that keeps it on ``self``)."""
    return b"vllm" in text and _writes_setting(text)


def could_find(tree: ast.Module, path: str | None, source: str | None = None) -> bool:
    """The precheck after parse (``precheck.could_find``): False when nothing in the module can reach
    an engine, a request or a launch, so ``analyze_tree`` would certainly report nothing.
    ``source``, the text of ``tree`` when the caller has it, makes it cheaper."""
    from vllm_lint.python import precheck

    real_path = path if path and path not in ("-", "stdin") else None
    return precheck.could_find(tree, source, real_path, project_modules() if real_path is not None else None)


def analyze_tree(tree: ast.Module, version: Version, path: str | None = None, version_source: str = "") -> list[Finding]:
    """``version_source`` says where ``version`` came from: an RL framework launch in an
    argv list uses the vLLM its framework pins when the project names none."""
    from vllm_lint.python.analyzer import analyze_module

    version = image_release(tree, version)
    real_path = path if path and path not in ("-", "stdin") else None
    if real_path is None:
        analysis = analyze_module(tree)
    else:
        project = project_modules()
        with project.analysing(real_path):
            analysis = analyze_module(tree, real_path, project, bind_callers=True)
    findings = check_facts(_not_reported_elsewhere(analysis, version, real_path), analysis.requests, version)
    framework_findings = _framework_findings(analysis, version, real_path, version_source)
    if framework_findings:
        findings = sorted(findings + framework_findings, key=lambda f: (f.span.line, f.span.col, f.code))
    for finding in findings:
        origin = finding.origin
        # A dict of another file may have readers there too: the fixer counts them all.
        local = origin is not None and origin.path is None
        if local and origin.container is not None and analysis.shared_container(origin.container):
            # The dict feeds more than this engine: report, but do not offer an edit.
            finding.fix_action = None
            finding.fix_safety = None
    return findings


# A Triton Python backend model (``model_repository/<name>/<n>/model.py``) defines this class.
TRITON_MODEL_CLASS = "TritonPythonModel"
TRITON_IMAGE = "the Triton server image a Triton Python backend model runs in: no pin names its vLLM"


def image_release(tree: ast.Module, version: Version) -> Version:
    """The releases a module may run on when no pin names one: a Triton Python backend model
    runs in the Triton server image, whose vLLM (0.4 in 24.06, newer in later images) the
    project does not pin, so every release may, the ones older than the schema too."""
    if not version.assumed or not is_triton_model(tree):
        return version
    from vllm_lint.launch.schema import any_release

    return any_release()


def is_triton_model(tree: ast.Module) -> bool:
    return any(isinstance(node, ast.ClassDef) and node.name == TRITON_MODEL_CLASS for node in tree.body)


def _framework_findings(analysis, version: Version, path: str | None, version_source: str = "") -> list[Finding]:
    """Findings of RL framework launches in argv lists, located at the list's elements."""
    if not analysis.framework_launches:
        return []
    from vllm_lint.frameworks import lint_launch

    found: dict[tuple, Finding] = {}
    for words, call_span in analysis.framework_launches:
        findings, _applied = lint_launch(
            words, None, path or "-", version, lambda word, first, last: word.extra.get("span"), call_span, version_source
        )
        for finding in findings:
            key = (finding.code, finding.span, finding.message)
            if key in found:
                # One list that starts two launches: one finding at its element, and no edit
                # unless both launches want the same one.
                if found[key].argv_fix != finding.argv_fix:
                    found[key].argv_fix = None
                continue
            found[key] = finding
    return list(found.values())


def _by_its_own_code(facts):
    """An engine of the module's own code with what its callers pass unknown: a finding a
    caller's value decides is reported where that caller writes it (its own analysis runs the
    function for the call), not here."""
    from dataclasses import replace

    from vllm_lint.facts import UNKNOWN, Choice, Known

    def passed(fact) -> bool:
        if isinstance(fact, Known):
            return fact.origin is not None and fact.origin.from_caller
        if isinstance(fact, Choice):
            return any(passed(option) for option in fact.options)
        return False

    if not any(passed(fact) for fact in facts.fields.values()):
        return facts
    fields = {name: UNKNOWN if passed(fact) else fact for name, fact in facts.fields.items()}
    written = {name: origin for name, origin in facts.written.items() if not origin.from_caller}
    return replace(facts, fields=fields, written=written)


def _not_reported_elsewhere(analysis, version: Version, path: str | None) -> list:
    """The engines to report here: one built for a call (a class constructed, another module's
    function) adds only what the construction's own analysis does not already report."""
    engines = [engine if engine.built_at is not None else _by_its_own_code(engine) for engine in analysis.engines]
    if not any(engine.built_at is not None for engine in engines):
        return engines
    own: dict[str | None, set] = {}

    def reported(where: str | None) -> set:
        if where not in own:
            if where is None:
                source = [e for e in engines if e.built_at is None]
            else:
                source = [_by_its_own_code(e) for e in project_modules().engines_as_linted(where)]
            own[where] = {
                (finding.code, engine.anchor.line, engine.anchor.col)
                for engine in source
                # Built by the code as written, whatever calls it: not for one call's arguments.
                if engine.built_at is None and engine.call_depth == 0
                for finding in check_facts([engine], [], version)
            }
        return own[where]

    result = []
    nearest: dict[tuple, int] = {}  # (construction, code) -> the shortest call chain reaching it
    found: list[tuple] = []
    for engine in engines:
        if engine.built_at is None:
            result.append(engine)
            continue
        where, span = engine.built_at
        codes = {code for code, line, col in reported(where) if (line, col) == (span.line, span.col)}
        if codes:
            engine = _without_codes(engine, codes)
        key = (where, span.line, span.col)
        own_codes = {f.code for f in check_facts([engine], [], version)} - codes
        for code in own_codes:
            nearest[key + (code,)] = min(nearest.get(key + (code,), engine.call_depth), engine.call_depth)
        found.append((engine, key, own_codes))
    for engine, key, own_codes in found:
        # The same construction reached through a longer chain of calls adds nothing.
        farther = {code for code in own_codes if engine.call_depth > nearest[key + (code,)]}
        result.append(_without_codes(engine, farther) if farther else engine)
    return result


def _without_codes(engine, codes: set):
    """An engine whose findings of ``codes`` belong to the construction's own file."""
    from dataclasses import replace

    return replace(engine, suppressed=frozenset(codes) | engine.suppressed)
