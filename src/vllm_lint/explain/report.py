"""The explanation of one engine: its settings' states, the runner, the text table and the JSON.

Front-end-neutral: the Python, command-line and framework readers (``python.py``,
``commands.py``, ``frameworks.py``) fill an ``EngineReport`` from ``EngineFacts``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from vllm_lint.facts import ABSENT, UNKNOWN, Choice, EngineFacts, Known, Mapping
from vllm_lint.versions import Version, releases_text


# The engine arguments the replay rules and the runner choice read, in the order shown.
REPLAY_SETTINGS = (
    "model",
    "return_sampling_mask",
    "logprobs_mode",
    "speculative_config",
    "logits_processors",
    "hf_overrides",
    "enable_batch_sharded_sampling",
    "enable_trace_replay",
)
# The request parameters the request rules read.
REQUEST_SETTINGS = ("temperature", "top_k", "trace_decode_token_ids")
RUNNER_ENV_VAR = "VLLM_USE_V2_MODEL_RUNNER"


class _NotKnown:
    def __repr__(self) -> str:
        return "NOT_KNOWN"


NOT_KNOWN = _NotKnown()  # vLLM has a default, but vllm-lint does not know it

# vLLM's defaults (``EngineArgs`` / ``ModelConfig`` / ``ParallelConfig`` fields, read from the
# release wheels): (first release, value) pairs, newest last.  A setting a release lacks is
# not listed for it (the schema says which release has which keyword).
ENGINE_DEFAULTS: dict[str, tuple[tuple[tuple[int, int], object], ...]] = {
    # EngineArgs' default model changed across releases, and LLM() requires one.
    "model": (((0, 0), NOT_KNOWN),),
    "return_sampling_mask": (((0, 0), False),),
    "logprobs_mode": (((0, 0), "raw_logprobs"),),
    "speculative_config": (((0, 0), None),),
    "logits_processors": (((0, 0), None),),
    "hf_overrides": (((0, 0), {}),),
    # None: vLLM decides from the parallel configuration at start-up.
    "enable_batch_sharded_sampling": (((0, 0), None),),
    "enable_trace_replay": (((0, 0), False),),
}
REQUEST_DEFAULTS: dict[str, tuple[tuple[tuple[int, int], object], ...]] = {
    "temperature": (((0, 0), 1.0),),
    "top_k": (((0, 0), -1), ((0, 10), 0)),
    "trace_decode_token_ids": (((0, 0), None),),
}

_ORIGIN_WORDS = {
    "keyword": "keyword",
    "positional": "positional argument",
    "dict-entry": "dict entry",
    "subscript": "item assignment",
    "call-keyword": "keyword of a call",
    "attribute": "attribute assignment",
    "flag": "flag",
    "config-key": "config key",
    "override": "Hydra override",
}
_STEP_WORDS = {
    "splatted": "splatted at",
    "merged": "merged into another dict at",
    "called-from": "called from",
    "config-file": "read through --config at",
    "framework-key": "mapped by",
    "assignment": "value written at",
    "rendered": "rendered as a command-line word at",
}


# ------------------------------------------------------------------ values


def json_value(value: object) -> object:
    """A fact's value as JSON: containers recursively, ``"<unknown>"`` for unknown parts."""
    if value is UNKNOWN:
        return "<unknown>"
    if value is ABSENT:
        return "<absent>"
    if isinstance(value, Known):
        return json_value(value.value)
    if isinstance(value, Choice):
        return "<one of several>"
    if isinstance(value, Mapping):
        result = {str(key): json_value(fact) for key, fact in value.items.items()}
        if not value.complete:
            result["..."] = "<unknown>"
        return result
    if isinstance(value, dict):
        return {str(key): json_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [json_value(item) for item in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def text_value(value: object) -> str:
    """A JSON value as Python spells it (the front ends' users mostly write Python)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {text_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(text_value(item) for item in value) + "]"
    return repr(value)


def schema_candidates(version: Version) -> list[Version]:
    """The releases a file may run on that the argument schema knows: what an older one (the
    stand-in for a Triton image's vLLM) had and defaulted is not known."""
    from vllm_lint.launch.schema import releases as schema_releases

    oldest = schema_releases()[0]
    candidates = version.candidates()
    return [c for c in candidates if (c.major, c.minor) >= oldest] or list(candidates)


def _default_of(table: dict, name: str, version: Version) -> object:
    """vLLM's default for ``name`` in ``version``; NOT_KNOWN when vllm-lint does not know it."""
    changes = table.get(name)
    if changes is None:
        return NOT_KNOWN
    value = NOT_KNOWN
    for first, changed in changes:
        if (version.major, version.minor) >= first:
            value = changed
    return value


# ------------------------------------------------------------- explaining


@dataclass
class Where:
    """Formats positions of the file being explained and of the files values come from."""

    path: str  # the explained file, as the user named it

    def file(self, path: str | None) -> str:
        if path is None:
            return self.path
        if os.path.isabs(path):
            relative = os.path.relpath(path)
            return path if relative.startswith("..") else relative
        return path

    def location(self, path: str | None, line: int, col: int) -> dict:
        return {"path": self.file(path), "line": line, "col": col + 1}


@dataclass
class EngineReport:
    """One engine's explanation, JSON-ready (``as_json``) and printable (``render``)."""

    path: str
    line: int
    end_line: int
    kind: str
    target_version: str
    target_version_from: str = ""
    settings: dict = field(default_factory=dict)
    env: dict = field(default_factory=dict)
    runner: dict = field(default_factory=dict)
    # Where the checks that read the model found its config, or why it is unknown.
    model: dict = field(default_factory=dict)
    findings: list = field(default_factory=list)
    requests: list = field(default_factory=list)
    built_at: dict | None = None
    called_from: list | None = None  # the calls in this file whose code built it, innermost first
    framework: str | None = None
    argv_launch: bool = False  # a server started from a Python argv list
    call_lines: tuple | None = None  # the lines of the call that starts it
    # Built in another file (a base class of another module keeps it on ``self``): only the
    # requests, written in the explained file, are on its lines.
    elsewhere: bool = False

    def covers(self, line: int) -> bool:
        """The construction (call, command) spans the line, the call whose code builds it or a
        request it serves starts on it; for a server started from a Python argv list, also the call that starts it and a
        line that writes one of its settings."""
        if self.elsewhere:
            return any(request.get("line") == line for request in self.requests)
        if self.line <= line <= self.end_line:
            return True
        if any(step["path"] == self.path and step["line"] == line for step in self.called_from or ()):
            return True  # the call whose code builds it
        if any(request.get("path") == self.path and request.get("line") == line for request in self.requests):
            return True  # a request it serves
        if not self.argv_launch:
            return False
        if self.call_lines is not None and self.call_lines[0] <= line <= self.call_lines[1]:
            return True
        # Where a setting is written, or a step of its way (a flag rendered from a dict entry).
        return any(
            place.get("path") == self.path and place.get("line") == line
            for setting in self.settings.values()
            for place in [setting.get("origin") or {}, *(setting.get("via") or ())]
        )

    def as_json(self) -> dict:
        data = {
            "path": self.path,
            "line": self.line,
            "kind": self.kind,
            "target_version": self.target_version,
            "target_version_from": self.target_version_from,
            "settings": self.settings,
            "env": self.env,
            "runner": self.runner,
            "model": self.model,
            "findings": self.findings,
            "requests": self.requests,
        }
        if self.built_at is not None:
            data["built_at"] = self.built_at
        if self.called_from is not None:
            data["called_from"] = self.called_from
        if self.framework is not None:
            data["framework"] = self.framework
        return data


class Explainer:
    """Turns the facts of one engine into its report."""

    def __init__(self, where: Where, version: Version) -> None:
        self.where = where
        self.version = version

    def setting(self, fact: object, name: str, defaults: dict, why_unknown, written: dict | None = None, present_in=None) -> dict:
        """One setting's state; ``why_unknown(name)`` says why an unknown value is unknown;
        ``present_in``: the releases that have the argument, where the schema knows them."""
        if isinstance(fact, Choice):
            return {
                "state": "choice",
                "alternatives": [self.setting(option, name, defaults, why_unknown, present_in=present_in) for option in fact.options],
            }
        if isinstance(fact, Known):
            return self.known(fact)
        if fact is ABSENT:
            return self._default(defaults, name, present_in)
        result = {"state": "unknown", "reason": why_unknown(name)}
        origin = (written or {}).get(name)
        if origin is not None and origin.path != "<implicit>":
            # Where the value that cannot be known is written.
            result["origin"] = dict(self.where.location(origin.path, origin.span.line, origin.span.col), kind=origin.kind)
        return result

    def _default(self, defaults: dict, name: str, present_in) -> dict:
        """vLLM's default, said for every release the file may run on: the newest release's
        value, the older admitted releases' where theirs differs, and those without the argument."""
        candidates = schema_candidates(self.version)
        lacking = [(c.major, c.minor) for c in candidates if present_in and (c.major, c.minor) not in present_in]
        having = [c for c in candidates if (c.major, c.minor) not in lacking] or list(candidates)
        by_release = [(candidate, _default_of(defaults, name, candidate)) for candidate in having]
        newest, value = by_release[-1]
        if value is NOT_KNOWN:
            return {"state": "default", "from": "vLLM's default, not known to vllm-lint"}
        differing: dict[str, list] = {}
        for candidate, other in by_release[:-1]:
            if other is NOT_KNOWN or json_value(other) != json_value(value):
                label = "not known" if other is NOT_KNOWN else text_value(json_value(other))
                differing.setdefault(label, []).append((candidate.major, candidate.minor))
        if len(having) > 1 and not differing:
            said = f"vLLM {releases_text([(c.major, c.minor) for c in having])}'s default"
        else:
            said = f"vLLM {newest.major}.{newest.minor}'s default"
        notes = [f"{label} in {releases_text(releases)}" for label, releases in differing.items()]
        if lacking and len(candidates) > 1:
            notes.append(f"not an argument in {releases_text(lacking)}")
        if notes:
            said += f" ({'; '.join(notes)})"
        return {"state": "default", "value": json_value(value), "from": said}

    def known(self, fact: Known) -> dict:
        result: dict = {"state": "known", "value": json_value(fact.value)}
        origin = fact.origin
        if origin is not None and origin.path != "<implicit>":
            result["origin"] = dict(self.where.location(origin.path, origin.span.line, origin.span.col), kind=origin.kind)
            result["via"] = [self.step(step) for step in origin.via]
        return result

    def step(self, step) -> dict:
        data = {"step": step.kind, **self.where.location(step.path, step.span.line, step.span.col)}
        if step.detail:
            data["detail"] = step.detail
        return data


def origin_text(setting: dict) -> str:
    """``dict entry at train.py:3:5, splatted at train.py:4:20``."""
    origin = setting.get("origin")
    if origin is None:
        return setting.get("from", "(not written in a file)") if setting["state"] == "known" else ""
    parts = [f"{_ORIGIN_WORDS.get(origin['kind'], origin['kind'])} at {origin['path']}:{origin['line']}:{origin['col']}"]
    for step in setting.get("via", ()):
        words = _STEP_WORDS.get(step["step"], step["step"])
        if step["step"] == "framework-key":  # written where the origin is: the mapping is the news
            parts.append(f"{words} {step.get('detail', '')}")
            continue
        parts.append(f"{words} {step['path']}:{step['line']}:{step['col']}")
    return ", ".join(parts)


MAX_TEXT_VALUE = 60  # characters of a value in the text table (JSON shows it whole)


def _shown(value: object) -> str:
    text = text_value(value)
    return text if len(text) <= MAX_TEXT_VALUE else text[: MAX_TEXT_VALUE - 3] + "..."


def _setting_rows(heading: str, settings: dict) -> list[tuple[str, str, str, str]]:
    """The table rows of an engine's settings or a request's parameters, choices spelled out."""
    rows: list[tuple[str, str, str, str]] = [(heading, "state", "value", "origin / reason")]
    for name, setting in settings.items():
        state, value, where = _setting_columns(setting)
        if setting.get("note"):
            where += f" [{setting['note']}]"
        rows.append((name, state, value, where))
        if setting["state"] == "choice":
            rows.extend(_choice_lines(setting))
    return rows


def _setting_columns(setting: dict) -> tuple[str, str, str]:
    """(state, value, where/why) of one setting for the text table."""
    state, value, where = _setting_state_columns(setting)
    if setting.get("read_by"):
        where = f"{where}; read by {', '.join(setting['read_by'])}" if where else f"read by {', '.join(setting['read_by'])}"
    return state, value, where


def _setting_state_columns(setting: dict) -> tuple[str, str, str]:
    state = setting["state"]
    if state == "known":
        return state, _shown(setting["value"]), origin_text(setting)
    if state == "default":
        value = _shown(setting["value"]) if "value" in setting else "(not known)"
        return state, value, setting["from"]
    if state == "unknown":
        where = origin_text(setting)
        return state, "?", setting["reason"] + (f" ({where})" if where else "")
    alternatives = setting["alternatives"]
    values = " | ".join(_setting_columns(option)[1] for option in alternatives)
    return "choice", values, "differs between paths:"


def _choice_lines(setting: dict) -> list[tuple[str, str, str, str]]:
    rows = []
    for option in setting["alternatives"]:
        state, value, where = _setting_columns(option)
        rows.append(("", "  or " + state, value, where))
    return rows


def render(report: EngineReport) -> str:
    """A small aligned table per engine."""
    header = f"{report.path}:{report.line}: {report.kind} (vLLM {report.target_version})"
    if report.framework:
        header += f" [{report.framework}]"
    lines = [header]
    if report.target_version_from:
        lines.append(f"  target version from {report.target_version_from}")
    if report.built_at is not None:
        built = report.built_at
        lines.append(f"  built at {built['path']}:{built['line']}:{built['col']} for the call on line {report.line}")
    if report.called_from and report.built_at is None:
        calls = ", ".join(f"{step['path']}:{step['line']}:{step['col']}" for step in report.called_from)
        lines.append(f"  built by the code run for the call at {calls}")
    rows = _setting_rows("setting", report.settings)
    for name, setting in report.env.items():
        state, value, where = _setting_columns(setting)
        if state == "default" and setting.get("value") is None:
            value = "(unset)"
        rows.append((f"env {name}", state, value, where))
    lines.extend(_table(rows, "  "))
    runner = report.runner
    lines.append(f"  runner: {runner['runner']}" + (f" ({runner['reason']})" if runner.get("reason") else ""))
    model = report.model
    if model.get("state") == "known":
        lines.append(f"  model: config read from {model['from']}" + (f" ({model['data']})" if model.get("data") else ""))
    elif model:
        lines.append(f"  model: unknown ({model['reason']})")
    lines.append(f"  findings: {', '.join(report.findings) if report.findings else '(none)'}")
    for request in report.requests:
        lines.append(f"  request at {request['path']}:{request['line']}:")
        rows = _setting_rows("parameter", request["settings"])
        lines.extend(_table(rows, "    "))
        lines.append(f"    findings: {', '.join(request['findings']) if request['findings'] else '(none)'}")
    return "\n".join(lines) + "\n"


def _table(rows: list[tuple[str, ...]], indent: str) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    result = []
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths)] + [row[-1]]
        result.append((indent + "  ".join(cells)).rstrip())
    return result


# ------------------------------------------------------------------ runner


def runner_of(engine: EngineFacts, version: Version) -> dict:
    """The model runner vLLM picks for the engine, and why (``runner.choose_runner``)."""
    from vllm_lint.checker import engine_alternatives
    from vllm_lint.runner import PROFILES, choose_runner

    if version.release >= (0, 34):
        return {"runner": "V2", "reason": f"vLLM {version.major}.{version.minor} has only Model Runner V2"}
    if version.release not in PROFILES:
        return {
            "runner": "not modelled",
            "reason": f"the runner choice is modelled for the releases with replay (0.28-0.33), not {version.major}.{version.minor}",
        }
    choices = [choose_runner(alternative, version) for alternative in engine_alternatives(engine)]
    v1 = [choice for choice in choices if choice.v1]
    if v1 and len(v1) == len(choices):
        result = {"runner": "V1", "reason": v1[0].reason}
        if v1[0].setting:
            result["setting"] = v1[0].setting
        return result
    if v1:
        return {"runner": "differs between paths", "reason": f"V1 on some paths: {v1[0].reason}"}
    unknown = engine.open or any(fact is UNKNOWN for fact in engine.fields.values()) or engine.get_env(RUNNER_ENV_VAR) is UNKNOWN
    if unknown:
        return {"runner": "V2", "reason": "nothing known selects V1; an unknown value might"}
    return {"runner": "V2", "reason": "nothing in the configuration selects V1"}


def source_of(path: str, result) -> str | None:
    if result.source is not None:
        return result.source
    from vllm_lint.sources import decode_python, read_file

    try:
        data = read_file(path)
    except OSError:
        return None
    try:
        return decode_python(data) if path.endswith((".py", ".pyi")) else data.decode("utf-8").removeprefix("\ufeff")
    except (UnicodeDecodeError, SyntaxError, LookupError):
        return None


def reported_codes(facts_findings, reported: set) -> list[str]:
    return sorted({f.code for f in facts_findings if (f.code, f.span.line, f.span.col) in reported})


def reported_findings(facts_findings, reported: set) -> list:
    return [f for f in facts_findings if (f.code, f.span.line, f.span.col) in reported]


def engine_report(engine, version: Version, where: Where, explainer: Explainer, why_unknown, kind: str | None = None) -> EngineReport:
    from vllm_lint.launch.schema import keyword_releases, releases, schema_for

    schema = schema_for(version)
    # A release older than the schema's oldest had none of the arguments added since then.
    oldest = releases()[0]
    keywords_of = schema_for(Version(*oldest)).keywords if (version.major, version.minor) < oldest else schema.keywords
    constructor = engine.kind if engine.kind in keywords_of else "EngineArgs"
    known_keywords = keywords_of.get(constructor, frozenset())
    names = [name for name in REPLAY_SETTINGS if name in known_keywords or name in engine.fields]
    names += [name for name in engine.fields if name not in names]
    report = EngineReport(
        path=where.path,
        line=engine.anchor.line,
        end_line=engine.anchor.end_line or engine.anchor.line,
        kind=kind or engine.kind,
        target_version=version.releases_text,
    )
    own_keywords = schema.keywords.get(engine.kind) if engine.source == "python" and schema.exact else None
    for name in names:
        setting = explainer.setting(
            engine.get(name), name, ENGINE_DEFAULTS, why_unknown, engine.written, present_in=keyword_releases(constructor, name)
        )
        if own_keywords is not None and name not in own_keywords and name in engine.fields:
            from vllm_lint.launch.schema import history

            # The schema says which arguments each release has: a name it lacks is an error at start-up.
            present_in = keyword_releases(engine.kind, name)
            lacking = [(c.major, c.minor) for c in schema_candidates(version) if (c.major, c.minor) not in present_in]
            later = history(present_in, schema.release)
            setting["note"] = f"not an argument of {engine.kind} in vLLM {releases_text(lacking)}{later}"
        report.settings[name] = setting
    # argparse keeps the last of an option given twice (--no-enable-prefix-caching --enable-prefix-caching).
    for name, fact in dict(written_options(engine, schema)).items():
        if name in report.settings and name in engine.fields:
            continue  # the front end's own reading of the argument
        if fact is UNKNOWN:
            report.settings[name] = {"state": "unknown", "reason": "its value is written as something vllm-lint cannot read (a variable, os.environ[...])"}
        else:
            report.settings[name] = explainer.known(fact)
    report.env[RUNNER_ENV_VAR] = env_setting(engine)
    report.runner = runner_of(engine, version)
    from vllm_lint.model_facts import describe

    report.model = describe(engine)
    return report


def add_checked_settings(report: EngineReport, engine, version: Version, findings, explainer: Explainer, why_unknown) -> None:
    """The arguments each reported start-up check (VLM4xx) read, as it read them: the written
    ones, those a framework passes on its own, and vLLM's defaults."""
    from vllm_lint.rules.startup_checks import read_as_checked

    for finding in findings:
        if not finding.reads:
            continue
        for name, state, fact in read_as_checked(engine, version, finding.reads):
            setting = report.settings.get(name)
            if setting is None:
                if isinstance(fact, Known):
                    setting = explainer.known(fact)
                    if state == "passed" and "origin" not in setting:
                        setting["from"] = f"passed by {report.framework or 'the framework'} on its own"
                elif state == "default":
                    setting = explainer.setting(ABSENT, name, ENGINE_DEFAULTS, why_unknown)
                    if "value" not in setting and fact is not UNKNOWN:
                        # The start-up data records the default the check compared with.
                        setting = {"state": "default", "value": json_value(fact), "from": f"vLLM {version.major}.{version.minor}'s default"}
                elif state == "passed":
                    setting = {"state": "unknown", "reason": f"{report.framework or 'the framework'} decides it at run time"}
                else:
                    setting = {"state": "unknown", "reason": why_unknown(name)}
                report.settings[name] = setting
            read_by = setting.setdefault("read_by", [])
            if finding.code not in read_by:
                read_by.append(finding.code)


def note_assumptions(settings: dict, engine) -> None:
    """A written or defaulted setting of an engine whose channels were read as empty (a script's
    ``$@``, the command line that reads a --config file): the note says which channel could change it."""
    for name, setting in settings.items():
        if setting.get("state") not in ("known", "default"):
            continue
        notes = [f"unless {assumption.channel} {assumption.verb} it" for assumption in engine.assumed if name not in assumption.decided_after]
        if notes:
            setting["note"] = "; ".join([setting["note"]] + notes if setting.get("note") else notes)


def written_options(engine, schema) -> list[tuple[str, Known]]:
    """Every option a command line writes for certain (``engine.options``), as the argument it
    sets and its value: the value's text (a number read as one), True for a flag, False for
    its ``--no-`` form.  The rules read only some of them; the report lists them all."""
    from vllm_lint.launch.options import serve_options

    found: list[tuple[str, object]] = []
    kinds = serve_options(Version(*schema.release)) or {}
    options = engine.options or ()
    open_values = getattr(options, "open_values", ())
    for index, (option, origin, text) in enumerate(options):
        name = schema.dest(option) or option.lstrip("-").replace("-", "_")
        if name in ("config", "model_tag"):
            continue  # the --config file itself (its options are listed) and the positional model
        if index in open_values:
            found.append((name, UNKNOWN))
            continue
        if text is not None and kinds.get(option) not in ("flag", "bool"):
            value: object = _number(text)
        elif option.startswith("--no-") or (option.startswith("--disable-") and not name.startswith("disable")):
            value = False  # --disable-log-requests sets enable_log_requests (0.33+); --disable-log-stats sets disable_log_stats
        else:
            value = True
        found.append((name, Known(value, origin)))
    return found


def _number(text: str) -> object:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            continue
    return text


def request_settings(request, explainer: Explainer, why_unknown, version: Version) -> dict:
    names = list(REQUEST_SETTINGS) + [name for name in request.fields if name not in REQUEST_SETTINGS]
    return {
        name: explainer.setting(request.get(name), name, REQUEST_DEFAULTS, why_unknown, request.written)
        for name in names
    }


def env_setting(engine: EngineFacts) -> dict:
    value = engine.get_env(RUNNER_ENV_VAR)
    if isinstance(value, Known):
        value = value.value
    if isinstance(value, str):
        where = "set by the framework" if engine.source == "framework" else "the environment the engine starts in"
        return {"state": "known", "value": value, "from": where}
    if value is ABSENT:
        if engine.source == "framework":
            return {"state": "unknown", "reason": "the framework's process environment is not known"}
        return {"state": "default", "value": None, "from": "not set: vLLM decides"}
    reason = "the environment is changed by code vllm-lint does not follow" if engine.source == "python" else "the environment is not known here"
    return {"state": "unknown", "reason": reason}


def launcher_name(kind: str) -> str:
    return {
        "serve": "vllm serve",
        "config": "vLLM --config file",
        "api_server": "vLLM OpenAI api_server",
        "dynamo": "Dynamo vLLM worker",
    }.get(kind, kind)


