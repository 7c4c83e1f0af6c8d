"""Python files: the engines the resolver builds, and why a value it cannot know is unknown
(read afterwards from the code that writes it, so ``check`` pays nothing for it)."""

from __future__ import annotations

import ast

from vllm_lint.explain.frameworks import framework_reports
from vllm_lint.explain.report import (
    EngineReport,
    Explainer,
    Where,
    add_checked_settings,
    engine_report,
    json_value,
    launcher_name,
    note_assumptions,
    reported_codes,
    reported_findings,
    request_settings,
    source_of,
)
from vllm_lint.facts import UNKNOWN, EngineFacts, Origin, Span
from vllm_lint.versions import Version


def _guarded(report, engine, version: Version, version_source: str) -> None:
    """A construction in a version guard's arm: the releases that run it, and the guard."""
    from vllm_lint.checker import reachable
    from vllm_lint.versions import releases_text

    runs = reachable(version.candidates(), engine.releases)
    shown = releases_text([(release.major, release.minor) for release in runs]) if runs else "none of them"
    report.target_version = shown
    report.target_version_from = f"{version_source or 'the target version'}; the version guard at {engine.guard} runs it on {shown}"


def python_reports(path: str, result, version: Version, where: Where, reported: set, version_source: str = "") -> list[EngineReport]:
    from vllm_lint.checker import check_facts
    from vllm_lint.python import project_modules
    from vllm_lint.python.analyzer import analyze_module

    from vllm_lint.findings import FileError
    from vllm_lint.lint import syntax_error_reason

    source = source_of(path, result)
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
    from vllm_lint.python import TRITON_IMAGE, image_release

    image = version.assumed and image_release(tree, version) is not version
    if image:
        version = image_release(tree, version)
    project = project_modules()
    with project.analysing(path):
        analysis = analyze_module(tree, path, project, bind_callers=True)
    trees = _Trees(path, tree)
    reports = []
    kept: list = []
    handled: set[int] = set()
    for engine in analysis.engines:
        # A function's construction analysed on its own and for a call that changes nothing: one report.
        if any(_same_engine(engine, other) for other in kept):
            continue
        # A launch analysed on its own, with a parameter unknown, and for a call that binds it without
        # naming the call (an argv list's Popen): one construction, one report, the call's.
        if any(not other.via and _refines(other, engine) for other in analysis.engines):
            continue
        kept.append(engine)
        # A request to a name bound on several paths goes to the engine of each path.
        requests = [r for r in analysis.requests if any(part is engine or _same_engine(part, engine) for part in r.engine.joined or (r.engine,))]
        why = _PythonReasons(trees, engine)
        explainer = Explainer(where, version)
        kind = launcher_name(engine.kind) if engine.source == "command-line" else None
        report = engine_report(engine, version, where, explainer, why.engine_field, kind=kind)
        report.argv_launch = engine.source == "command-line"
        if image:
            report.target_version, report.target_version_from = "any", TRITON_IMAGE
        note_assumptions(report.settings, engine)
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
        engine_findings = check_facts([engine], [], version)
        report.findings = reported_codes(engine_findings, reported)
        add_checked_settings(report, engine, version, reported_findings(engine_findings, reported), explainer, why.engine_field)
        if engine.releases is not None:
            _guarded(report, engine, version, version_source)
        for setting in report.settings.values():
            why.add_assignments(setting, where)
        for request in requests:
            request_why = _PythonReasons(trees, request)
            settings = request_settings(request, explainer, request_why.engine_field, version)
            for setting in settings.values():
                request_why.add_assignments(setting, where)
            report.requests.append(
                {
                    "path": path,
                    "line": request.anchor.line,
                    "settings": settings,
                    "findings": reported_codes(check_facts([], [request], version), reported),
                }
            )
        reports.append(report)
        handled.update(id(request) for request in requests)
    reports += _base_class_engine_reports(analysis, [r for r in analysis.requests if id(r) not in handled], project, trees, version, where, reported)
    reports += _python_framework_reports(analysis, path, version, where, reported, version_source)
    reports.sort(key=lambda r: (r.line, r.end_line))
    return reports


def _base_class_engine_reports(analysis, requests: list, project, trees, version: Version, where: Where, reported: set) -> list[EngineReport]:
    """Requests this file sends to an engine a base class of another project module builds and
    keeps on ``self``: that engine's report, at its construction in its own file (its findings
    belong to that file), with the requests written here."""
    from vllm_lint.checker import check_facts

    by_engine: dict[int, list] = {}
    for request in requests:
        by_engine.setdefault(id(request.engine), []).append(request)
    reports = []
    for group in by_engine.values():
        engine = group[0].engine
        built_in = project.file_of_engine(engine)
        if built_in is None:
            continue
        engine = _in_file(engine, built_in)
        explainer = Explainer(where, version)
        why = _PythonReasons(trees, engine)
        report = engine_report(engine, version, where, explainer, why.engine_field)
        report.path, report.elsewhere = where.file(built_in), True
        for request in group:
            request_why = _PythonReasons(trees, request)
            settings = request_settings(request, explainer, request_why.engine_field, version)
            report.requests.append(
                {
                    "path": where.path,
                    "line": request.anchor.line,
                    "settings": settings,
                    "findings": reported_codes(check_facts([], [request], version), reported),
                }
            )
        reports.append(report)
    return reports


def _in_file(engine: EngineFacts, path: str) -> EngineFacts:
    """A copy of another module's engine whose origins name that module's file."""
    from dataclasses import replace

    from vllm_lint.facts import Choice, Known, Mapping

    def origin_in(origin):
        return origin if origin is None or origin.path is not None else replace(origin, path=path)

    def fact_in(fact):
        if isinstance(fact, Known):
            return Known(fact_in(fact.value), origin_in(fact.origin))
        if isinstance(fact, Choice):
            return Choice(tuple(fact_in(option) for option in fact.options))
        if isinstance(fact, Mapping):
            return Mapping({key: fact_in(value) for key, value in fact.items.items()}, fact.complete)
        if isinstance(fact, list):
            return [fact_in(item) for item in fact]
        return fact

    return replace(
        engine,
        fields={name: fact_in(fact) for name, fact in engine.fields.items()},
        written={name: origin_in(origin) for name, origin in engine.written.items()},
    )


def _element_span(word, first: int, last: int):
    """Where an argv list element was written (as ``check`` locates framework findings in it)."""
    return word.extra.get("span")


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


def _refines(engine: EngineFacts, other: EngineFacts) -> bool:
    """``engine`` is the same construction as ``other`` with values ``other`` does not know (a
    function's parameters bound by a call): every setting ``other`` knows, ``engine`` knows alike."""
    if engine is other or (engine.anchor, engine.built_at, engine.kind) != (other.anchor, other.built_at, other.kind):
        return False
    if getattr(engine, "call", None) != getattr(other, "call", None) or (engine.open and not other.open):
        return False
    finer = False
    for facts_of in (lambda e: e.fields, lambda e: e.env):
        mine, theirs = facts_of(engine), facts_of(other)
        for name in set(mine) | set(theirs):
            fact, vague = mine.get(name), theirs.get(name)
            if vague is UNKNOWN and fact is not UNKNOWN:
                finer = True
            elif fact != vague:
                return False
    return finer


def _python_framework_reports(analysis, path: str, version: Version, where: Where, reported: set, version_source: str) -> list[EngineReport]:
    """RL framework entry points started from argv lists (``subprocess.run([..., "-m", "verl.trainer.main_ppo", *overrides])``)."""
    if not analysis.framework_launches:
        return []
    from vllm_lint.frameworks.engine import launch_engines

    built_engines = []
    for words, call_span in analysis.framework_launches:
        lines = (call_span.line, call_span.end_line or call_span.line)
        for built in launch_engines(words, None, path, version, _element_span, call_span, version_source):
            built_engines.append((built, lines))
    return framework_reports(built_engines, where, reported)


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
            # The ``**mapping`` or ``*args`` the analysis could not resolve, where it says which
            # (engines record it; requests do not); else the first ``**``, then the first ``*``.
            splats = [("**", k.value) for k in call.keywords if k.arg is None] + [("*", a.value) for a in call.args if isinstance(a, ast.Starred)]
            opened = getattr(facts, "opened_by", None)
            chosen = next((s for s in splats if opened and (s[1].lineno, s[1].col_offset) == (opened.line, opened.col)), None)
            if chosen is None and splats:
                chosen = splats[0]
            if chosen is not None:
                stars, value = chosen
                text = f"unresolved {stars}{_short(value)}"
                if stars == "**" and isinstance(value, ast.Name) and function is not None and value.id in _parameters(function):
                    return f"{text} (a parameter of {getattr(function, 'name', 'a lambda')})"
                return text
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


