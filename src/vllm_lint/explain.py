"""``vllm-lint explain PATH[:LINE]``: the configuration each engine in a file gets, and where each value comes from.

For every engine construction (Python), server launch (shell script, Dockerfile,
YAML, vLLM ``--config`` file) or RL framework config, and the target release
chosen as ``check`` chooses it, it lists every replay-relevant setting and every
argument written anywhere, each in one of three states:

* ``known``: the value, where it was written, and the way it travelled
  (``dict entry at train.py:3, splatted at train.py:4``);
* ``default``: nothing sets it; vLLM's default for the release (or the
  framework's, for a framework config), or a plain "not known" where the
  default is not known to vllm-lint;
* ``unknown``: why (``from a parameter of make_engine``, ``unresolved **kwargs``,
  ``runtime data: args.x``).

A value that differs between the paths the code can take is a ``choice`` of
its alternatives.  Each engine also shows the model runner vLLM would pick and
the findings ``check`` reports on it.

The resolvers record the way a value travels only while this command runs
(``facts.Trace``); ``check`` never loads this module.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
from dataclasses import dataclass, field

from vllm_lint.facts import ABSENT, UNKNOWN, Choice, EngineFacts, Known, Mapping, Origin, Span, Trace
from vllm_lint.versions import Version

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

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


class ExplainError(Exception):
    """A usage error: one line, exit code 2."""


@dataclass
class Target:
    path: str
    line: int | None = None


def parse_target(text: str) -> Target:
    """``PATH`` or ``PATH:LINE`` (a file whose own name ends in ``:N`` wins)."""
    if os.path.exists(text):
        return Target(text)
    head, sep, tail = text.rpartition(":")
    if sep and head and tail.isdigit():
        line = int(tail)
        if line < 1:
            raise ExplainError(f"line numbers start at 1, got {text!r}")
        return Target(head, line)
    return Target(text)


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


def _default_of(table: dict, name: str, version: Version) -> object:
    """vLLM's default for ``name`` in ``version``; NOT_KNOWN when vllm-lint does not know it."""
    changes = table.get(name)
    if changes is None:
        return NOT_KNOWN
    value = NOT_KNOWN
    for first, changed in changes:
        if version.release >= first:
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
    findings: list = field(default_factory=list)
    requests: list = field(default_factory=list)
    built_at: dict | None = None
    called_from: list | None = None  # the calls in this file whose code built it, innermost first
    framework: str | None = None
    argv_launch: bool = False  # a server started from a Python argv list
    call_lines: tuple | None = None  # the lines of the call that starts it

    def covers(self, line: int) -> bool:
        """The construction (call, command) spans the line, or the call whose code builds it starts
        on it; for a server started from a Python argv list, also the call that starts it and a
        line that writes one of its settings."""
        if self.line <= line <= self.end_line:
            return True
        if any(step["path"] == self.path and step["line"] == line for step in self.called_from or ()):
            return True  # the call whose code builds it
        if not self.argv_launch:
            return False
        if self.call_lines is not None and self.call_lines[0] <= line <= self.call_lines[1]:
            return True
        return any(
            setting.get("origin", {}).get("path") == self.path and setting["origin"]["line"] == line
            for setting in self.settings.values()
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

    def setting(self, fact: object, name: str, defaults: dict, default_from: str, why_unknown, written: dict | None = None) -> dict:
        """One setting's state; ``why_unknown(name)`` says why an unknown value is unknown."""
        if isinstance(fact, Choice):
            return {
                "state": "choice",
                "alternatives": [self.setting(option, name, defaults, default_from, why_unknown) for option in fact.options],
            }
        if isinstance(fact, Known):
            return self.known(fact)
        if fact is ABSENT:
            value = _default_of(defaults, name, self.version)
            if value is NOT_KNOWN:
                return {"state": "default", "from": "vLLM's default, not known to vllm-lint"}
            return {"state": "default", "value": json_value(value), "from": default_from}
        result = {"state": "unknown", "reason": why_unknown(name)}
        origin = (written or {}).get(name)
        if origin is not None and origin.path != "<implicit>":
            # Where the value that cannot be known is written.
            result["origin"] = dict(self.where.location(origin.path, origin.span.line, origin.span.col), kind=origin.kind)
        return result

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


def _setting_columns(setting: dict) -> tuple[str, str, str]:
    """(state, value, where/why) of one setting for the text table."""
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
    rows: list[tuple[str, str, str, str]] = [("setting", "state", "value", "origin / reason")]
    for name, setting in report.settings.items():
        state, value, where = _setting_columns(setting)
        if setting.get("note"):
            where += f" [{setting['note']}]"
        rows.append((name, state, value, where))
        if setting["state"] == "choice":
            rows.extend(_choice_lines(setting))
    for name, setting in report.env.items():
        state, value, where = _setting_columns(setting)
        if state == "default" and setting.get("value") is None:
            value = "(unset)"
        rows.append((f"env {name}", state, value, where))
    lines.extend(_table(rows, "  "))
    runner = report.runner
    lines.append(f"  runner: {runner['runner']}" + (f" ({runner['reason']})" if runner.get("reason") else ""))
    lines.append(f"  findings: {', '.join(report.findings) if report.findings else '(none)'}")
    for request in report.requests:
        lines.append(f"  request at {request['path']}:{request['line']}:")
        rows = [("parameter", "state", "value", "origin / reason")]
        for name, setting in request["settings"].items():
            state, value, where = _setting_columns(setting)
            rows.append((name, state, value, where))
            if setting["state"] == "choice":
                rows.extend(_choice_lines(setting))
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


# ------------------------------------------------------------ file kinds


def explain_file(target: Target, resolver, settings) -> tuple[list[EngineReport], object]:
    """The reports of a file's engines, and the lint result ``check`` gets for it."""
    from vllm_lint.cli import _select
    from vllm_lint.lint import file_kind, lint_file

    path = target.path
    result = lint_file(path, resolver.for_path)
    _select([result], settings)
    if result.error is not None:
        return [], result
    kind = result.kind or file_kind(path)
    reported = {(f.code, f.span.line, f.span.col) for f in result.findings}
    version, why = resolver.for_path(path)
    where = Where(path)
    if kind == "python":
        reports = _python_reports(path, result, version, where, reported)
    elif kind is not None:
        reports = _command_reports(path, kind, result, resolver, where, reported)
    else:
        reports = []
    for report in reports:
        if not report.target_version_from:
            report.target_version_from = why
    return reports, result


def _source_of(path: str, result) -> str | None:
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


def _reported_codes(facts_findings, reported: set) -> list[str]:
    return sorted({f.code for f in facts_findings if (f.code, f.span.line, f.span.col) in reported})


# ------------------------------------------------------------------ Python


def _python_reports(path: str, result, version: Version, where: Where, reported: set) -> list[EngineReport]:
    from vllm_lint.checker import check_facts
    from vllm_lint.python import project_modules
    from vllm_lint.python.analyzer import analyze_module

    from vllm_lint.findings import FileError
    from vllm_lint.lint import syntax_error_reason

    source = _source_of(path, result)
    if source is None:
        return []
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as error:  # a file ``check`` skips unparsed (it cannot hold a finding)
        result.error = FileError(path, syntax_error_reason(error), error.lineno or 1)
        return []
    except ValueError as error:
        result.error = FileError(path, str(error))
        return []
    project = project_modules()
    with project.analysing(path):
        analysis = analyze_module(tree, path, project)
    trees = _Trees(path, tree)
    reports = []
    kept: list = []
    for engine in analysis.engines:
        # A function's construction analysed on its own and for a call that changes nothing: one report.
        if any(_same_engine(engine, other) for other in kept):
            continue
        kept.append(engine)
        requests = [r for r in analysis.requests if r.engine is engine]
        why = _PythonReasons(trees, engine)
        explainer = Explainer(where, version)
        kind = _launcher_name(engine.kind) if engine.source == "command-line" else None
        report = _engine_report(engine, version, where, explainer, why.engine_field, f"vLLM {version.major}.{version.minor}'s default", kind=kind)
        report.argv_launch = engine.source == "command-line"
        call = getattr(engine, "call", None)
        if report.argv_launch and call is not None:
            report.call_lines = (call.line, call.end_line or call.line)
        if report.argv_launch:
            for name, setting in report.settings.items():
                why.add_rendering_dict(name, setting, where)
        report.end_line = trees.end_line(engine)
        if engine.built_at is not None:
            built_path, span = engine.built_at
            report.built_at = where.location(built_path, span.line, span.col)
        if engine.via:
            report.called_from = [explainer.step(step) for step in engine.via]
        report.findings = _reported_codes(check_facts([engine], [], version), reported)
        for setting in report.settings.values():
            why.add_assignments(setting, where)
        for request in requests:
            request_why = _PythonReasons(trees, request)
            settings = _request_settings(request, explainer, request_why.engine_field, version)
            for setting in settings.values():
                request_why.add_assignments(setting, where)
            report.requests.append(
                {
                    "path": path,
                    "line": request.anchor.line,
                    "settings": settings,
                    "findings": _reported_codes(check_facts([], [request], version), reported),
                }
            )
        reports.append(report)
    reports += _python_framework_reports(analysis, path, version, where, reported)
    reports.sort(key=lambda r: (r.line, r.end_line))
    return reports


def _same_engine(engine: EngineFacts, other: EngineFacts) -> bool:
    """The same construction with the same facts (origins compare without the way they travelled)."""
    return (
        engine.anchor == other.anchor
        and engine.built_at == other.built_at
        and engine.kind == other.kind
        and engine.fields == other.fields
        and engine.env == other.env
        and engine.open == other.open
        and engine.env_open == other.env_open
    )


def _python_framework_reports(analysis, path: str, version: Version, where: Where, reported: set) -> list[EngineReport]:
    """RL framework entry points started from argv lists (``subprocess.run([..., "-m", "verl.trainer.main_ppo", *overrides])``)."""
    if not analysis.framework_launches:
        return []
    from vllm_lint.frameworks.engine import launch_engines

    built_engines = []
    for words, call_span in analysis.framework_launches:
        lines = (call_span.line, call_span.end_line or call_span.line)
        for built in launch_engines(words, None, path, version, lambda word, first, last: word.extra.get("span"), call_span):
            built_engines.append((built, lines))
    return _framework_reports(built_engines, where, reported)


def _engine_report(engine, version: Version, where: Where, explainer: Explainer, why_unknown, default_from: str, kind: str | None = None) -> EngineReport:
    from vllm_lint.launch.schema import schema_for

    schema = schema_for(version)
    constructor = engine.kind if engine.kind in schema.keywords else "EngineArgs"
    known_keywords = schema.keywords.get(constructor, frozenset())
    names = [name for name in REPLAY_SETTINGS if name in known_keywords or name in engine.fields]
    names += [name for name in engine.fields if name not in names]
    report = EngineReport(
        path=where.path,
        line=engine.anchor.line,
        end_line=engine.anchor.end_line or engine.anchor.line,
        kind=kind or engine.kind,
        target_version=f"{version.major}.{version.minor}",
    )
    own_keywords = schema.keywords.get(engine.kind) if engine.source == "python" and schema.exact else None
    for name in names:
        setting = explainer.setting(engine.get(name), name, ENGINE_DEFAULTS, default_from, why_unknown, engine.written)
        if own_keywords is not None and name not in own_keywords and name in engine.fields:
            from vllm_lint.launch.schema import history, keyword_releases, release_text

            # The schema says which arguments each release has: a name it lacks is an error at start-up.
            later = history(keyword_releases(engine.kind, name), schema.release)
            setting["note"] = f"not an argument of {engine.kind} in vLLM {release_text(schema.release)}{later}"
        report.settings[name] = setting
    report.env[RUNNER_ENV_VAR] = _env_setting(engine)
    report.runner = runner_of(engine, version)
    return report


def _request_settings(request, explainer: Explainer, why_unknown, version: Version) -> dict:
    names = list(REQUEST_SETTINGS) + [name for name in request.fields if name not in REQUEST_SETTINGS]
    default_from = f"vLLM {version.major}.{version.minor}'s default"
    return {
        name: explainer.setting(request.get(name), name, REQUEST_DEFAULTS, default_from, why_unknown, request.written)
        for name in names
    }


def _env_setting(engine: EngineFacts) -> dict:
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


class _Trees:
    """The parsed files origins point into (the explained file and project modules)."""

    def __init__(self, path: str, tree: ast.Module) -> None:
        self.path = path
        self._trees: dict[str | None, ast.Module | None] = {None: tree}
        self._parents: dict[str | None, dict[int, ast.AST]] = {}

    def tree(self, path: str | None) -> ast.Module | None:
        if path not in self._trees:
            try:
                with open(path, "rb") as handle:
                    self._trees[path] = ast.parse(handle.read(), filename=path)
            except (OSError, SyntaxError, ValueError, RecursionError):
                self._trees[path] = None
        return self._trees[path]

    def parents(self, path: str | None) -> dict[int, ast.AST]:
        if path not in self._parents:
            parents: dict[int, ast.AST] = {}
            tree = self.tree(path)
            if tree is not None:
                for node in ast.walk(tree):
                    for child in ast.iter_child_nodes(node):
                        parents[id(child)] = node
            self._parents[path] = parents
        return self._parents[path]

    def node_at(self, path: str | None, line: int, col: int, types: tuple) -> ast.AST | None:
        tree = self.tree(path)
        if tree is None:
            return None
        for node in ast.walk(tree):
            if isinstance(node, types) and getattr(node, "lineno", None) == line and getattr(node, "col_offset", None) == col:
                return node
        return None

    def enclosing_function(self, path: str | None, node: ast.AST) -> ast.AST | None:
        parents = self.parents(path)
        current = parents.get(id(node))
        while current is not None:
            if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return current
            current = parents.get(id(current))
        return None

    def end_line(self, engine) -> int:
        """The last line of the construction call in the explained file."""
        anchor = engine.anchor
        if anchor.end_line is not None:
            return anchor.end_line
        call = self.node_at(None, anchor.line, anchor.col, (ast.Call,))
        return getattr(call, "end_lineno", None) or anchor.line


def _parameters(function: ast.AST) -> set[str]:
    args = function.args
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    if args.vararg:
        names.add(args.vararg.arg)
    if args.kwarg:
        names.add(args.kwarg.arg)
    return names


class _PythonReasons:
    """Why a setting of a Python engine or request is unknown, read from the code that writes it."""

    def __init__(self, trees: _Trees, facts) -> None:
        self.trees = trees
        self.facts = facts

    def engine_field(self, name: str) -> str:
        origin = self.facts.written.get(name)
        if origin is not None and origin.path != "<implicit>":
            expression = self._written_value(origin)
            if expression is not None:
                return self._describe(origin.path, expression, 0)
            return "not resolvable where it is written"
        if name in self.facts.fields:
            return "differs between the paths the code can take, or is changed by code vllm-lint does not follow"
        return self._open_reason()

    def add_assignments(self, setting: dict, where: Where) -> None:
        """A known value passed by name (``logprobs_mode=mode``): where the name got it, when one
        assignment of a constant in the function gives exactly that value."""
        if setting["state"] == "choice":
            for option in setting["alternatives"]:
                self.add_assignments(option, where)
            return
        origin = setting.get("origin")
        if setting["state"] != "known" or origin is None or origin["kind"] not in ("keyword", "positional", "dict-entry"):
            return
        path = None if origin["path"] == where.path else origin["path"]
        expression = self._written_value(Origin(Span(origin["line"], origin["col"] - 1), origin["kind"], path=path))
        if not isinstance(expression, ast.Name):
            return
        scope = self.trees.enclosing_function(path, expression) or self.trees.tree(path)
        matches = [
            node
            for node in _assignments(scope, expression.id)
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and json_value(node.value.value) == setting["value"]
            and type(node.value.value) is type(setting["value"])
        ]
        if len(matches) == 1:
            value = matches[0].value
            step = {"step": "assignment", **where.location(path, value.lineno, value.col_offset)}
            setting["via"] = [step] + setting.get("via", [])

    def add_rendering_dict(self, name: str, setting: dict, where: Where) -> None:
        """A flag of an argv list rendered in a loop over a dict (``for key, value in args.items():
        argv += [f"--{key}", str(value)]``): the dict entry it was rendered from becomes the origin."""
        origin = setting.get("origin")
        if setting["state"] != "known" or origin is None or origin["kind"] != "flag":
            return
        path = None if origin["path"] == where.path else origin["path"]
        word = self.trees.node_at(path, origin["line"], origin["col"] - 1, (ast.JoinedStr,))
        if word is None:
            return
        parents = self.trees.parents(path)
        loop = parents.get(id(word))
        while loop is not None and not isinstance(loop, ast.For):
            loop = parents.get(id(loop))
        if loop is None or not (
            isinstance(loop.iter, ast.Call)
            and isinstance(loop.iter.func, ast.Attribute)
            and loop.iter.func.attr in ("items", "keys")
            and isinstance(loop.iter.func.value, ast.Name)
        ):
            return
        mapping = loop.iter.func.value.id
        scope = self.trees.enclosing_function(path, loop) or self.trees.tree(path)
        assigned = [node for node in _assignments(scope, mapping) if isinstance(node, ast.Assign)]
        if len(assigned) != 1 or not isinstance(assigned[0].value, ast.Dict):
            return
        wanted = name.replace("_", "-")
        for key in assigned[0].value.keys:
            if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.lstrip("-").replace("_", "-") == wanted:
                rendered = {"step": "rendered", "path": origin["path"], "line": origin["line"], "col": origin["col"]}
                setting["origin"] = dict(where.location(path, key.lineno, key.col_offset), kind="dict-entry")
                setting["via"] = [rendered] + setting.get("via", [])
                return

    def _written_value(self, origin: Origin) -> ast.AST | None:
        span = origin.span
        if origin.kind in ("keyword", "call-keyword"):
            node = self.trees.node_at(origin.path, span.line, span.col, (ast.keyword,))
            return node.value if node is not None else None
        if origin.kind == "positional":
            return self.trees.node_at(origin.path, span.line, span.col, (ast.expr,))
        if origin.kind == "dict-entry":
            key = self.trees.node_at(origin.path, span.line, span.col, (ast.Constant,))
            parent = self.trees.parents(origin.path).get(id(key)) if key is not None else None
            if isinstance(parent, ast.Dict):
                for key_node, value_node in zip(parent.keys, parent.values):
                    if key_node is key:
                        return value_node
        if origin.kind in ("subscript", "attribute"):
            tree = self.trees.tree(origin.path)
            for node in ast.walk(tree) if tree is not None else ():
                if isinstance(node, ast.Assign) and any(
                    t.lineno == span.line and t.col_offset == span.col for t in node.targets
                ):
                    return node.value
        return None

    def _describe(self, path: str | None, expression: ast.AST, depth: int) -> str:
        text = _short(expression)
        function = self.trees.enclosing_function(path, expression)
        if isinstance(expression, ast.Name):
            if function is not None and expression.id in _parameters(function):
                name = getattr(function, "name", "a lambda")
                return f"from a parameter of {name}: {expression.id}"
            assignments = _assignments(function or self.trees.tree(path), expression.id)
            if len(assignments) > 1:
                return f"differs between branches: {expression.id}"
            if len(assignments) == 1 and depth < 3 and isinstance(assignments[0], ast.Assign):
                return self._describe(path, assignments[0].value, depth + 1)
            return f"runtime data: {text}"
        if isinstance(expression, ast.IfExp):
            return f"differs between branches: {text}"
        if isinstance(expression, (ast.Attribute, ast.Subscript)):
            root = expression
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                root = root.value
            if isinstance(root, ast.Name) and function is not None and root.id in _parameters(function):
                return f"runtime data: {text} (from a parameter of {getattr(function, 'name', 'a lambda')})"
            return f"runtime data: {text}"
        if isinstance(expression, ast.Call):
            return f"runtime data: the result of {text}"
        return f"not resolvable statically: {text}"

    def _open_reason(self) -> str:
        facts = self.facts
        if not facts.open:
            return "not known"
        path = facts.built_at[0] if getattr(facts, "built_at", None) else None
        span = facts.built_at[1] if getattr(facts, "built_at", None) else facts.anchor
        call = self.trees.node_at(path, span.line, span.col, (ast.Call,))
        if call is not None:
            function = self.trees.enclosing_function(path, call)
            for keyword in call.keywords:
                if keyword.arg is None:
                    text = _short(keyword.value)
                    if isinstance(keyword.value, ast.Name) and function is not None and keyword.value.id in _parameters(function):
                        return f"unresolved **{text} (a parameter of {getattr(function, 'name', 'a lambda')})"
                    return f"unresolved **{text}"
            for arg in call.args:
                if isinstance(arg, ast.Starred):
                    return f"unresolved *{_short(arg.value)}"
            if isinstance(call.func, ast.Attribute) and call.func.attr == "from_cli_args":
                return "runtime data: a from_cli_args namespace"
        return "the arguments object is changed or passed to code vllm-lint does not follow"


def _assignments(scope: ast.AST | None, name: str) -> list[ast.AST]:
    """The statements of ``scope`` (not of nested functions) that bind ``name``."""
    if scope is None:
        return []
    found = []
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr)):
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            if isinstance(node, ast.With):
                targets = [item.optional_vars for item in node.items]
            if any(isinstance(t, ast.Name) and t.id == name for target in targets if target is not None for t in ast.walk(target)):
                found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _short(node: ast.AST, limit: int = 60) -> str:
    try:
        text = ast.unparse(node)
    except (ValueError, RecursionError):  # pragma: no cover - a tree ast produced unparses
        return "(expression)"
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ------------------------------------------------------------ command lines


def _command_reports(path: str, kind: str, result, resolver, where: Where, reported: set) -> list[EngineReport]:
    from vllm_lint.checker import check_facts
    from vllm_lint.commandline import Context, ParseError, _framework_prefilter, analyse
    from vllm_lint.launch.words import Source

    source = _source_of(path, result)
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
        reports += _framework_config_reports(ctx, kind, data, where, reported)
    ctx.framework_launches = _framework_prefilter(data, kind, path)[1]
    ctx.framework_engines = []
    try:
        analyse(ctx, kind)
    except ParseError:
        return reports  # ``check`` reported the file already
    reports += _framework_reports(ctx.framework_engines, where, reported)
    for record in ctx.records:
        engine = record.facts
        record_version = record.version or version
        explainer = Explainer(where, record_version)
        why = _CommandReasons(record, ctx.source)
        _add_config_steps(engine, record, ctx)
        report = _engine_report(
            engine, record_version, where, explainer, why.field, f"vLLM {record_version.major}.{record_version.minor}'s default",
            kind=_launcher_name(engine.kind),
        )
        if record_version != version:
            report.target_version_from = "the tag of the vLLM image the command runs in"
        lines = [ctx.source.position(w.start)[0] for w in record.argv if w.start >= 0 and w.path is None]
        if lines:
            report.line, report.end_line = min(lines), max(lines)
        report.findings = _reported_codes(check_facts([engine], [], record_version), reported)
        reports.append(report)
    reports.sort(key=lambda r: (r.line, r.end_line))
    return reports


def _launcher_name(kind: str) -> str:
    return {
        "serve": "vllm serve",
        "config": "vLLM --config file",
        "api_server": "vLLM OpenAI api_server",
        "dynamo": "Dynamo vLLM worker",
    }.get(kind, kind)


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
        """The words of the command vllm-lint cannot expand, as written."""
        written = []
        for word in self.record.argv:
            if word.open and word.start >= 0 and word.path is None and word.end > word.start:
                text = self.source.text[word.start : word.end]
                line = self.source.position(word.start)[0]
                written.append(f"{text} (line {line})")
        if written:
            return "unresolved " + ", ".join(dict.fromkeys(written))
        return "a part of the command vllm-lint cannot read (a variable, substitution or --config file)"


# ------------------------------------------------------------ frameworks


def _framework_config_reports(ctx, kind: str, data: bytes, where: Where, reported: set) -> list[EngineReport]:
    from vllm_lint.frameworks import config_packs
    from vllm_lint.frameworks.engine import ConfigSyntaxError, config_engines
    from vllm_lint.frameworks.pack import PackError

    try:
        built_engines = config_engines(ctx.source, ctx.path, kind, ctx.version, config_packs(data, ctx.path), ctx.version_source)
    except (ConfigSyntaxError, PackError):
        return []
    return _framework_reports([(built, None) for built in built_engines], where, reported)


def _framework_reports(built_engines: list, where: Where, reported: set) -> list[EngineReport]:
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
        report = _engine_report(engine, target, where, explainer, why.field, f"vLLM {target.major}.{target.minor}'s default", kind=kind)
        if lines is not None:
            report.line, report.end_line = lines
        pinned = applied.reason.partition("; target vLLM from ")[2]
        if pinned:
            report.target_version_from = pinned
        defaults.apply(report, explainer)
        report.framework = pack.name
        report.findings = sorted(
            {
                f.code
                for f in check_facts([engine], [], target) + check_facts([], built.requests, target)
                if any(code == f.code for code, _, _ in reported)
            }
        )
        for request, decided in zip(built.requests, built.request_decided):
            settings = _request_settings(request, explainer, _FrameworkReasons(built, decided).field, target)
            defaults.apply_request(settings, request, decided)
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
    """Each argument a framework key set: the key that mapped to it."""
    from vllm_lint.facts import Step, moved

    for name, fact in list(engine.fields.items()):
        decided = built.decided_by.get(("engine", name))
        if not isinstance(fact, Known) or fact.origin is None or decided is None:
            continue
        key, entry = decided
        origin = fact.origin
        if entry.provenance == "override":
            origin = Origin(origin.span, "override", origin.container, origin.path, origin.via)
        step = Step("framework-key", origin.span, origin.path, f"{pack.name}: {key} -> {name}")
        engine.fields[name] = Known(fact.value, moved(origin, step))


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
        if decided is not None:
            key, entry = decided
            if entry.value == "???":
                return f"{key} is mandatory (???): set when the job is launched"
            return f"{key} is resolved at run time (an interpolation or a value set at launch)"
        if self.built.engine.open:
            return "a base config that could not be read may set it"
        return "the framework decides it at run time"


# ------------------------------------------------------------------- command


def run_explain(args, out, err) -> int:
    from vllm_lint.cli import _settings_for
    from vllm_lint.config import ConfigError
    from vllm_lint.output import error_line

    try:
        target = parse_target(args.target)
    except ExplainError as error:
        err.write(f"vllm-lint: error: {error}\n")
        return EXIT_ERROR
    if os.path.isdir(target.path):
        err.write(f"vllm-lint: error: {target.path}: explain reads one file, not a folder\n")
        return EXIT_ERROR
    namespace = argparse.Namespace(
        paths=[target.path],
        config=args.config,
        target_version=args.target_version,
        select=None,
        extend_select=None,
        ignore=None,
        extend_ignore=None,
        exclude=None,
    )
    try:
        settings, _excludes, resolver = _settings_for(namespace)
    except ConfigError as error:
        err.write(f"vllm-lint: error: {error}\n")
        return EXIT_ERROR
    if not (os.path.exists(target.path) or os.path.islink(target.path)):
        from vllm_lint.findings import FileError

        err.write(error_line(FileError(target.path, "cannot read: no such file or directory")) + "\n")
        return EXIT_FINDINGS
    previous = Trace.active
    Trace.active = True
    try:
        reports, result = explain_file(target, resolver, settings)
    except (RecursionError, MemoryError):
        from vllm_lint.findings import FileError

        err.write(error_line(FileError(target.path, "too deeply nested to analyse")) + "\n")
        return EXIT_FINDINGS
    finally:
        Trace.active = previous
    if result.error is not None:
        err.write(error_line(result.error) + "\n")
        return EXIT_FINDINGS
    if target.line is not None:
        reports = [r for r in reports if r.covers(target.line)]
        if not reports:
            message = f"{target.path}:{target.line}: no engine is constructed or launched on this line"
            if args.output_format == "json":
                out.write(json.dumps({"engines": [], "message": message}, indent=2) + "\n")
            else:
                out.write(message + "\n")
            return EXIT_FINDINGS
    if args.output_format == "json":
        out.write(json.dumps({"engines": [r.as_json() for r in reports]}, indent=2, ensure_ascii=False) + "\n")
    elif not reports:
        out.write(f"{target.path}: no vLLM engine is constructed or launched in this file\n")
    else:
        out.write("\n".join(render(report) for report in reports))
    return EXIT_CLEAN
