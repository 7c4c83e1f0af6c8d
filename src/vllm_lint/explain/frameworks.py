"""RL framework configs and launches: the engine a pack builds, told in the framework's keys."""

from __future__ import annotations

from vllm_lint.explain.report import (
    EngineReport,
    Explainer,
    Where,
    add_checked_settings,
    engine_report,
    json_value,
    note_assumptions,
    request_settings,
)
from vllm_lint.facts import UNKNOWN, EngineFacts, Known, Origin


def framework_config_reports(ctx, kind: str, data: bytes, where: Where, reported: set) -> list[EngineReport]:
    from vllm_lint.frameworks import config_packs
    from vllm_lint.frameworks.engine import ConfigSyntaxError, config_engines
    from vllm_lint.frameworks.pack import PackError

    try:
        built_engines = config_engines(ctx.source, ctx.path, kind, ctx.version, config_packs(data, ctx.path), ctx.version_source)
    except (ConfigSyntaxError, PackError):
        return []
    return framework_reports([(built, None) for built in built_engines], where, reported)


def framework_reports(built_engines: list, where: Where, reported: set) -> list[EngineReport]:
    """``built_engines``: ((pack, Built, target version, Applied), (first line, last line) or None)."""
    from vllm_lint.checker import check_facts

    reports = []
    for (pack, built, target, applied), lines in built_engines:
        engine = built.engine
        explainer = Explainer(where, target)
        _add_framework_steps(engine, built, pack, where)
        why = _FrameworkReasons(built)
        defaults = _FrameworkDefaults(built, pack, applied)
        kind = f"{pack.name} config" if lines is None else f"{pack.name} launch"
        report = engine_report(engine, target, where, explainer, why.field, kind=kind)
        if lines is not None:
            report.line, report.end_line = lines
        pinned = applied.reason.partition("; target vLLM from ")[2]
        if pinned:
            report.target_version_from = pinned
        defaults.apply(report, explainer)
        note_assumptions(report.settings, engine)
        report.framework = pack.name
        engine_findings = check_facts([engine], [], target)
        report.findings = sorted(
            {
                f.code
                for f in engine_findings + check_facts([], built.requests, target)
                if any(code == f.code for code, _, _ in reported)
            }
        )
        checked = [f for f in engine_findings if any(code == f.code for code, _, _ in reported)]
        add_checked_settings(report, engine, target, checked, explainer, why.field)
        for request, decided in zip(built.requests, built.request_decided):
            settings = request_settings(request, explainer, _FrameworkReasons(built, decided).field, target)
            defaults.apply_request(settings, request, decided)
            note_assumptions(settings, engine)
            report.requests.append(
                {
                    "path": where.path,
                    "line": request.anchor.line,
                    "settings": settings,
                    "findings": sorted({f.code for f in check_facts([], [request], target) if any(code == f.code for code, _, _ in reported)}),
                }
            )
        reports.append(report)
    return reports


def _add_framework_steps(engine: EngineFacts, built, pack, where: Where) -> None:
    """Each argument (and request parameter) a framework key set: the key that mapped to it."""
    _mapped_by_keys(engine, built.decided_by, "engine", pack)
    for request, decided in zip(built.requests, built.request_decided):
        _mapped_by_keys(request, decided, "request", pack)


def _mapped_by_keys(facts, decided_by: dict, scope: str, pack) -> None:
    from vllm_lint.facts import Step, moved

    for name, fact in list(facts.fields.items()):
        decided = decided_by.get((scope, name))
        if not isinstance(fact, Known) or fact.origin is None or decided is None:
            continue
        key, entry = decided
        origin = fact.origin
        if entry.provenance == "override":
            origin = Origin(origin.span, "override", origin.container, origin.path, origin.via)
        step = Step("framework-key", origin.span, origin.path, f"{pack.name}: {key} -> {name}")
        facts.fields[name] = Known(fact.value, moved(origin, step))


class _FrameworkDefaults:
    """Arguments that come from the framework's own defaults, not from the file: state ``default``."""

    def __init__(self, built, pack, applied) -> None:
        self.built = built
        self.pack = pack
        self.applied = applied

    def apply(self, report: EngineReport, explainer: Explainer) -> None:
        for name in report.settings:
            decided = self.built.decided_by.get(("engine", name))
            if decided is None:
                continue
            key, entry = decided
            fact = self.built.engine.fields.get(name)
            if not isinstance(fact, Known):
                continue
            if entry.provenance == "default":
                report.settings[name] = {
                    "state": "default",
                    "value": json_value(fact.value),
                    "from": f"{self.pack.name}'s default for {key} ({self.applied.defaults})",
                }
            elif entry.provenance == "framework":
                report.settings[name] = {"state": "known", "value": json_value(fact.value), "from": f"{self.pack.name} sets it"}


    def apply_request(self, settings: dict, request, decided: dict) -> None:
        for name in settings:
            found = decided.get(("request", name))
            fact = request.fields.get(name)
            if found is None or not isinstance(fact, Known):
                continue
            key, entry = found
            if entry.provenance == "default":
                settings[name] = {
                    "state": "default",
                    "value": json_value(fact.value),
                    "from": f"{self.pack.name}'s default for {key} ({self.applied.defaults})",
                }
            elif entry.provenance == "framework" or fact.origin is None:
                settings[name] = {"state": "known", "value": json_value(fact.value), "from": f"{self.pack.name} sets it ({key})"}


class _FrameworkReasons:
    def __init__(self, built, request_decided: dict | None = None) -> None:
        self.built = built
        self.request_decided = request_decided  # a request's keys, when explaining a request

    def field(self, name: str) -> str:
        if self.request_decided is not None:
            decided = self.request_decided.get(("request", name))
            if decided is None:
                return "no key sets it and the framework has no default: it chooses at run time"
        else:
            decided = self.built.decided_by.get(("engine", name))
            why = self.built.unknown_why.get(name)
            if why:
                return why
        if decided is not None:
            key, entry = decided
            if entry.value == "???":
                return f"{key} is mandatory (???): set when the job is launched"
            if entry.provenance == "default" and entry.why and entry.value is UNKNOWN:
                return entry.why
            if entry.provenance == "default" and self.built.engine.open:
                # The framework's default, made unknown by a base config that could not be read.
                return f"a base config that could not be read may set {key}"
            return f"{key} is resolved at run time (an interpolation or a value set at launch)"
        if self.built.engine.open:
            return "a base config that could not be read may set it"
        return "the framework decides it at run time"


