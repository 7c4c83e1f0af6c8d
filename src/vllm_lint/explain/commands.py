"""Command lines (shell scripts, Dockerfiles, YAML, vLLM ``--config`` files): the servers they launch."""

from __future__ import annotations

from vllm_lint.explain.frameworks import framework_config_reports, framework_reports
from vllm_lint.explain.report import (
    EngineReport,
    Explainer,
    Where,
    add_checked_settings,
    engine_report,
    launcher_name,
    note_assumptions,
    reported_codes,
    reported_findings,
    source_of,
)
from vllm_lint.facts import EngineFacts, Known, reading


def command_reports(path: str, kind: str, result, resolver, where: Where, reported: set) -> list[EngineReport]:
    from vllm_lint.checker import check_facts
    from vllm_lint.commandline import Context, ParseError, _framework_prefilter, analyse
    from vllm_lint.launch.words import Source

    source = source_of(path, result)
    if source is None:
        return []
    version, version_source = resolver.for_path(path)
    ctx = Context(Source(path, source), version, path, resolve_configs=kind == "shell")
    ctx.explicit_version = getattr(resolver.for_path(path), "explicit", False)
    ctx.version_source = version_source
    reports: list[EngineReport] = []
    data = source.encode("utf-8")
    framework_config, _launches = _framework_prefilter(data, kind, path)
    if framework_config:
        reports += framework_config_reports(ctx, kind, data, where, reported)
    ctx.framework_launches = _framework_prefilter(data, kind, path)[1]
    ctx.framework_engines = []
    try:
        with reading(resolver.for_path(path)):
            analyse(ctx, kind)
    except ParseError:
        return reports  # ``check`` reported the file already
    reports += framework_reports(ctx.framework_engines, where, reported)
    for record in ctx.records:
        engine = record.facts
        record_version = record.version or version
        explainer = Explainer(where, record_version)
        why = _CommandReasons(record, ctx.source)
        _add_config_steps(engine, record, ctx)
        report = engine_report(
            engine, record_version, where, explainer, why.field,
            kind=launcher_name(engine.kind),
        )
        note_assumptions(report.settings, engine)
        if record.version_from:
            report.target_version_from = record.version_from
        elif record_version != version:
            report.target_version_from = "the tag of the vLLM image the command runs in"
        written = [w for w in [*record.words, *record.argv] if w.start >= 0 and w.path is None]
        lines = [ctx.source.position(w.start)[0] for w in written] + [ctx.source.position(w.end)[0] for w in written]
        if lines:
            report.line, report.end_line = min(lines), max(lines)
        engine_findings = check_facts([engine], [], record_version)
        report.findings = reported_codes(engine_findings, reported)
        add_checked_settings(report, engine, record_version, reported_findings(engine_findings, reported), explainer, why.field)
        reports.append(report)
    reports.sort(key=lambda r: (r.line, r.end_line))
    return reports


def _add_config_steps(engine: EngineFacts, record, ctx) -> None:
    """Values read from a ``--config`` file: the ``--config`` option they came through."""
    from vllm_lint.facts import Step, moved

    groups = getattr(record.parsed, "groups", {}) or {}
    for name, fact in list(engine.fields.items()):
        if not isinstance(fact, Known) or fact.origin is None or name not in groups or not groups[name]:
            continue
        flag_word = groups[name][-1][0]
        option = flag_word.extra.get("config_option")
        if option is None or option.start < 0 or option.path is not None:
            continue
        step = Step("config-file", ctx.source.span(option.start, option.end))
        engine.fields[name] = Known(fact.value, moved(fact.origin, step))


class _CommandReasons:
    def __init__(self, record, source) -> None:
        self.record = record
        self.source = source

    def field(self, name: str) -> str:
        facts = self.record.facts
        if facts.kind == "config" and name in facts.written:
            return "written here, but the command line that reads this file may override it"
        if facts.kind == "config":
            return "set by the command line that reads this --config file"
        if name in facts.fields and not facts.open:
            return "runtime data: a shell variable or substitution"
        return f"{self._open_words()} may set it"

    def _open_words(self) -> str:
        """The words of the command vllm-lint cannot expand, as written (not those read as one
        value, nor the script's own arguments, read as none)."""
        from vllm_lint.launch.flags import glued, one_value, passed_through

        written = []
        for word in self.record.argv:
            if one_value(word) or glued(word) or passed_through(word):
                continue
            if word.open and word.start >= 0 and word.path is None and word.end > word.start:
                text = self.source.text[word.start : word.end]
                line = self.source.position(word.start)[0]
                written.append(f"{text} (line {line})")
        if written:
            return "unresolved " + ", ".join(dict.fromkeys(written))
        return "a part of the command vllm-lint cannot read (a variable, substitution or --config file)"


