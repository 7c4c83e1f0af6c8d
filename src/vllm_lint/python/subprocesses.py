"""Servers started from Python: argv lists given to ``subprocess`` and ``os.exec*``.

The Python resolver (``python/analyzer.py``) evaluates the call's arguments
(lists built with literals, names, ``+``, ``+=``, ``.append``, ``.extend``;
``env=`` dicts) and hands them to ``subprocess_call``, which reads the argv
with the command-line front end and adds the engine to the module's engines.

Each argv element is exactly one argument (no shell splitting): an element
of unknown value is one unknown word; a list that may hold more elements than
the ones seen (``cmd.extend(extra)``) ends with an unknown number of unknown
words.  ``env=`` replaces the environment: keys not in it are unset, unless
the dict spreads ``**os.environ``.  ``shell=True`` strings are read as shell
scripts.  ``--config`` files are read relative to the Python file.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from vllm_lint.facts import ABSENT, UNKNOWN, EngineFacts, Origin, Span
from vllm_lint.launch.words import NONE, Word, open_word

SUBPROCESS_CALLS = frozenset(
    {
        "subprocess.run",
        "subprocess.Popen",
        "subprocess.call",
        "subprocess.check_call",
        "subprocess.check_output",
        "os.execv",
        "os.execvp",
        "os.execve",
        "os.execvpe",
        "os.execl",
        "os.execlp",
        "os.execle",
        "os.execlpe",
        "asyncio.create_subprocess_exec",
        "asyncio.create_subprocess_shell",
        "os.system",
        "os.popen",
    }
)
# The calls that run one command text through ``/bin/sh -c``, and the name of that parameter.
SHELL_TEXT_CALLS = {"asyncio.create_subprocess_shell": "cmd", "os.system": "command", "os.popen": "cmd"}


def _span(node: ast.AST) -> Span:
    return Span(node.lineno, node.col_offset)


def subprocess_call(analysis, path: str, node: ast.Call) -> object:
    """Evaluate a process-starting call; record the vLLM engine it starts, if any."""
    from vllm_lint.python.values import DictObj, ListObj, StdName, joined_words

    values: dict[int, object] = {}
    for arg in node.args:
        inner = arg.value if isinstance(arg, ast.Starred) else arg
        values[id(arg)] = analysis._eval(inner)
    keywords = {}
    for keyword in node.keywords:
        values[id(keyword.value)] = analysis._eval(keyword.value)
        if keyword.arg is not None:
            keywords[keyword.arg] = keyword.value
    call_span = _span(node)

    def value_of(expr: ast.AST | None) -> object:
        return UNKNOWN if expr is None else values.get(id(expr), UNKNOWN)

    argv_words: list[Word] | None = None
    script: tuple[str, Span] | None = None
    joined: tuple[str, list[int], list[Span]] | None = None
    env_node = keywords.get("env")
    name = path.rsplit(".", 1)[1]
    if path.startswith("subprocess."):
        target = node.args[0] if node.args and not isinstance(node.args[0], ast.Starred) else keywords.get("args")
        argv = value_of(target)
        shell_value = value_of(keywords.get("shell")) if "shell" in keywords else False
        if shell_value is True:
            joined, script = _shell_text(argv, target, ListObj)
            if joined is None and script is None and type(argv).__name__ == "ShellJoined":
                argv_words = _list_words(argv.argv, target, call_span, ListObj)
        elif shell_value is False:
            argv_words = _list_words(argv, target, call_span, ListObj)
    elif path in SHELL_TEXT_CALLS:
        target = node.args[0] if node.args and not isinstance(node.args[0], ast.Starred) else keywords.get(SHELL_TEXT_CALLS[path])
        if target is not None:
            joined, script = _shell_text(value_of(target), target, ListObj)
    elif path == "asyncio.create_subprocess_exec":
        argv_words = _elements(node.args, values, call_span, ListObj)
    elif name.startswith("execl"):
        positional = list(node.args[1:])
        if name.endswith("e") and positional:
            env_node = positional.pop()
        argv_words = _elements(positional, values, call_span, ListObj)
    else:  # execv, execvp, execve, execvpe
        if len(node.args) >= 2:
            argv_words = _list_words(value_of(node.args[1]), node.args[1], call_span, ListObj)
        if name.endswith("e") and len(node.args) >= 3:
            env_node = node.args[2]

    env, env_open = _environment(analysis, env_node, values, DictObj, StdName)
    engines = _Engines(analysis, call_span)
    if joined is not None:
        engines.script(joined[0], _span(node.args[0] if node.args else node), env, env_open, joined[1], joined[2])
    elif script is not None:
        engines.script(script[0], script[1], env, env_open)
    elif argv_words is not None:
        engines.launch(argv_words, env, env_open)
    return UNKNOWN


# The keys of a Kubernetes container (``core/v1 Container``) that a dict must have, besides
# ``image`` and ``command``/``args``, to be read as one: a dict with only those three is also one.
CONTAINER_KEYS = frozenset({
    "name", "image", "command", "args", "env", "envFrom", "ports", "resources", "volumeMounts",
    "securityContext", "imagePullPolicy", "livenessProbe", "readinessProbe", "startupProbe",
    "workingDir", "lifecycle", "stdin", "tty", "terminationMessagePath", "terminationMessagePolicy",
    "volumeDevices", "resizePolicy", "restartPolicy",
})


def container_dict(analysis, node: ast.Dict, container) -> None:
    """A Kubernetes container written as a Python dict (``{"name": "main", "image": ...,
    "command": ["vllm", "serve", ...], "args": [...], "env": [...]}``), as operators, manifest
    renderers and end-to-end tests build them: the process the container runs is its
    ``command`` followed by its ``args``; ``args`` alone on an image whose entrypoint is vLLM's
    server (``images.starts_vllm_server``) follow ``vllm serve``.  Its ``env`` list of
    ``{"name": ..., "value": ...}`` is the environment; ``valueFrom`` and ``envFrom`` are unknown."""
    from vllm_lint.facts import ABSENT as _ABSENT
    from vllm_lint.images import starts_vllm_server
    from vllm_lint.python.values import DictObj, ListObj, joined_spans

    if not container.complete or not set(container.items) <= CONTAINER_KEYS:
        return
    image = container.get_value("image")
    command = container.get_value("command")
    args = container.get_value("args")
    if command is _ABSENT:
        if args is _ABSENT or not (isinstance(image, str) and starts_vllm_server(image)):
            return
        argv = ListObj(["vllm", "serve"], exact=True)
        argv.spans = [_span(node)] * 2  # the image's entrypoint, located at the container
    elif isinstance(command, ListObj):
        argv = command
    else:
        return
    if args is not _ABSENT:
        if not isinstance(args, ListObj):
            return
        joined = ListObj(list(argv.elems) + list(args.elems), argv.exact and args.exact)
        joined.spans = joined_spans(argv, args)
        argv = joined
    words = _list_words(argv, node, _span(node), ListObj)
    if words is None:
        return
    env, env_open = _container_env(container.get_value("env"), DictObj, ListObj)
    if "envFrom" in container.items:
        env_open = True
    _Engines(analysis, _span(node)).launch(words, env, env_open)


def _container_env(value, dict_type, list_type) -> tuple[dict[str, object], bool]:
    from vllm_lint.facts import ABSENT as _ABSENT

    if value is _ABSENT:
        return {}, False
    if not isinstance(value, list_type):
        return {}, True
    env: dict[str, object] = {}
    open_ = not value.exact
    for item in value.elems:
        if not isinstance(item, dict_type):
            open_ = True
            continue
        name = item.get_value("name")
        if not isinstance(name, str):
            open_ = True
            continue
        text = item.get_value("value")
        env[name] = text if isinstance(text, str) else UNKNOWN  # valueFrom: a secret or a field
    return env, open_


def _shell_text(value, target: ast.AST, list_type) -> tuple[tuple | None, tuple[str, Span] | None]:
    """What a shell reads of a command text (``subprocess.*(..., shell=True)``, ``os.system``): a
    ``" ".join(cmd)`` (each word at its element), a string, or an f-string with unknown values."""
    from vllm_lint.python.values import joined_words

    argv = joined_words(value)
    if argv is not None:
        return _joined_script(argv, _span(target), list_type), None
    if isinstance(value, str):
        return None, (value, _span(target))
    template = _template_text(value)
    return None, ((template, _span(target)) if template is not None else None)


# Serving frameworks that run the argv a method of the service class returns, as its process:
# BentoML's ``__command__`` (``_bentoml_impl``: ``cmd_getter()``, each element through
# ``string.Template(...).substitute(os.environ)``, then ``anyio.open_process(cmd)``: no shell).
COMMAND_HOOKS = {"__command__": "bentoml"}


def imports_module(tree: ast.Module, module: str) -> bool:
    """``import module``/``from module... import ...`` anywhere in the module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(alias.name.split(".")[0] == module for alias in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == module:
            return True
    return False


def command_hook(analysis, node: ast.Return, value: object) -> bool:
    """``return [...]`` of a service class's command hook (``def __command__(self)`` in a module
    that imports BentoML): the framework runs that argv; its engine is added like a subprocess's.
    The environment is the method's (the framework's worker process, whose variables are not known)."""
    from vllm_lint.python.values import ListObj, Prefixed

    scope = analysis.scope
    framework = COMMAND_HOOKS.get(getattr(scope.node, "name", ""))
    if scope.kind != "function" or scope.class_node is None or framework is None or node.value is None:
        return False
    imports = analysis.__dict__.setdefault("_hook_frameworks", {})
    if framework not in imports:
        imports[framework] = imports_module(analysis.tree, framework)
    if not imports[framework] or not isinstance(value, ListObj):
        return False
    expanded = ListObj([_expand_variables(elem, Prefixed) for elem in value.elems], value.exact, value.node)
    expanded.spans, expanded.optional, expanded.through = value.spans, value.optional, value.through
    words = _list_words(expanded, node.value, _span(node), ListObj)
    if words is None:
        return False
    env, env_open = _clean(dict(analysis.state.env)), analysis.state.env_open
    _Engines(analysis, _span(node)).launch(words, env, env_open)
    return True


def _expand_variables(elem: object, prefixed_type) -> object:
    """An element as ``string.Template(elem).substitute(os.environ)`` leaves it: ``$NAME`` and
    ``${NAME}`` are the worker's variables, unknown here."""
    if not isinstance(elem, str) or "$" not in elem:
        return elem
    prefix = elem.split("$", 1)[0]
    return prefixed_type(prefix) if prefix else UNKNOWN


def _located(value: object, span: Span) -> Word:
    """The word of one argv element: its text, or the certain start of it (``f"--port={port}"``)."""
    from vllm_lint.python.values import Prefixed

    word = Word(value if isinstance(value, str) else None, style=NONE)
    if isinstance(value, Prefixed):
        word.prefix = value.prefix
    word.extra["span"] = span
    word.extra["element"] = True  # exactly one argument, whatever its value
    return word


# Stands for an element of unknown value in the text a shell runs: like an unquoted ``$(cmd)``,
# one value where one value stands, any number of words where a flag's name stands.
_UNKNOWN_TEXT = "$(:)"
_QUOTING = frozenset("'\"\\`$")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def _template_text(value) -> str | None:
    """An f-string with unknown values run by a shell (``f"vllm serve {model} --port 8000"``):
    its text with each unknown value standing as an unquoted ``$(cmd)`` would, as in a joined
    list.  None where that stand-in would read differently: after a backslash or a ``$``, where
    a single quote or a backquote may enclose it, or right after another unknown value."""
    pieces = getattr(value, "pieces", None)
    if not pieces:
        return None
    known = [piece for piece in pieces if piece is not None]
    if any(_QUOTING.intersection(piece) - {'"', "$"} for piece in known):
        return None
    for before, piece in zip(pieces, pieces[1:]):
        if piece is None and before is not None and before.endswith("$"):
            return None
        if piece is None and before is None:
            return None  # ``{model}{extra_flags}``: where the words begin is not known
    return "".join(_UNKNOWN_TEXT if piece is None else piece for piece in pieces)


def _joined_script(argv, fallback: Span, list_type) -> tuple[str, list[int], list[Span]] | None:
    """``" ".join(cmd)`` run with ``shell=True``: the text the shell reads, each character's element
    (-1 for the blanks between them), and where each element was written."""
    from vllm_lint.python.values import Prefixed

    if not isinstance(argv, list_type):
        return None
    spans = argv.spans if argv.spans is not None and len(argv.spans) == len(argv.elems) else [None] * len(argv.elems)
    optional = argv.optional if argv.optional is not None and len(argv.optional) == len(argv.elems) else None
    pieces: list[str] = []
    owners: list[int] = []
    assignments = True  # still in the words before the command: ``NAME=value`` sets a variable
    for index, elem in enumerate(argv.elems):
        maybe = bool(optional and optional[index])
        known_text = elem if isinstance(elem, str) else elem.prefix if isinstance(elem, Prefixed) else None
        assignment = _ASSIGNMENT.match(known_text) if known_text is not None and not _QUOTING.intersection(known_text) else None
        assignments = assignments and assignment is not None
        if isinstance(elem, str) and not maybe:
            text = elem
        elif isinstance(elem, Prefixed) and not maybe and not _QUOTING.intersection(elem.prefix):
            text = elem.prefix + _UNKNOWN_TEXT  # `f"--port={port}"`; a quote opened there may close in the rest
        elif assignments:
            # An assignment some paths leave out (``cmd.append(f"NAME={value}")`` under an ``if``):
            # the variable is unknown for the command; the command itself is still the next word.
            text = assignment.group(0) + _UNKNOWN_TEXT
        else:
            text = _UNKNOWN_TEXT
        if pieces:
            pieces.append(" ")
            owners.append(-1)
        pieces.append(text)
        owners.extend([index] * len(text))
    if not argv.exact and optional is None:
        pieces.append(" " + _UNKNOWN_TEXT)  # more elements, of unknown value
        owners.extend([-1] * (len(_UNKNOWN_TEXT) + 1))
    return "".join(pieces), owners, [span or fallback for span in spans]


def _list_words(value, node, call_span: Span, list_type) -> list[Word] | None:
    if not isinstance(value, list_type):
        return None
    spans = getattr(value, "spans", None)
    if spans is None or len(spans) != len(value.elems):
        spans = [None] * len(value.elems)
    fallback = _span(node) if node is not None and hasattr(node, "lineno") else call_span
    words = [_located(elem, span or fallback) for elem, span in zip(value.elems, spans)]
    optional = getattr(value, "optional", None)
    if not value.exact and optional is not None and len(optional) == len(words):
        for word, maybe in zip(words, optional):
            word.maybe = maybe  # rendered on some paths only: the others leave it out
    elif not value.exact:
        words.append(_rest(value))
    return words


def _rest(value) -> Word:
    """The unknown end of a list; ``sys.argv[1:]`` there is the process's own arguments, read as
    carrying nothing the code decides (``facts.Reading``)."""
    from vllm_lint.facts import Reading

    word = open_word()
    through = value.through
    if through is not None and Reading.lenient():
        word.extra["channel"] = "pass-through"
        word.extra["written"] = ast.unparse(through)
        word.extra["span"] = _span(through)
    return word


def _elements(args: list, values: dict, call_span: Span, list_type) -> list[Word]:
    words: list[Word] = []
    for arg in args:
        value = values.get(id(arg), UNKNOWN)
        if isinstance(arg, ast.Starred):
            inner = _list_words(value, arg, call_span, list_type)
            words.extend(inner if inner is not None else [open_word()])
        else:
            words.append(_located(value, _span(arg)))
    return words


def _environment(analysis, env_node, values: dict, dict_type, std_type) -> tuple[dict[str, object], bool]:
    inherited = dict(analysis.state.env), analysis.state.env_open
    if env_node is None:
        return _clean(inherited[0]), inherited[1]
    value = values.get(id(env_node))
    if value is None:
        value = analysis._eval(env_node)
    if not isinstance(value, dict_type):
        return {}, True
    items = {key: slot.value for key, slot in value.items.items()}
    if value.complete:
        return _clean(items), False
    # {**os.environ, "KEY": "value"}: the process environment plus the keys written after it.
    if isinstance(env_node, ast.Dict) and any(key is None for key in env_node.keys):
        splats = [v for k, v in zip(env_node.keys, env_node.values) if k is None]
        if all(_is_environ(analysis, splat, std_type) for splat in splats):
            env = _clean(inherited[0])
            env.update(_clean(items))
            return env, inherited[1]
    return _clean(items), True


def _is_environ(analysis, node, std_type) -> bool:
    if isinstance(node, (ast.Name, ast.Attribute)):
        value = analysis._eval(node)
        return isinstance(value, std_type) and value.path == "os.environ"
    return False


def _clean(env: dict) -> dict[str, object]:
    return {key: (value if isinstance(value, str) or value is ABSENT else UNKNOWN) for key, value in env.items() if key != "*cleared*"}


def _passed_through(word: Word, decided_after: set):
    """``the arguments passed through at sys.argv[1:], line 12,``."""
    from vllm_lint.facts import Assumption

    written, span = word.extra.get("written"), word.extra.get("span")
    where = f" at {written}, line {span.line}," if written and span is not None else ""
    return Assumption(f"the arguments passed through{where}", decided_after=frozenset(decided_after))


@dataclass
class ArgvEngineFacts(EngineFacts):
    """An engine started from an argv list: ``parsed`` (``launch.flags.Parsed``) keeps its
    words, each with the span of the list element it was written in, for the fixer."""

    parsed: object = None
    call: Span | None = None  # the call that starts the process (``vllm-lint explain PATH:LINE``)


class _Engines:
    """Builds EngineFacts for the launches of one call and adds them to the analysis."""

    def __init__(self, analysis, call_span: Span) -> None:
        from vllm_lint.launch.wrappers import WrapperFinder

        self.analysis = analysis
        self.call_span = call_span
        self.wrappers = WrapperFinder(getattr(analysis, "path", None))  # python -m project.server ...

    def launch(self, words: list[Word], env: dict, env_open: bool, elements: bool = True) -> None:
        """``elements``: each word is one element of a Python list (not a word of a script string)."""
        from vllm_lint.launch.launchers import Launch, Script, find_launch

        found = find_launch(words, env, env_open, self.wrappers)
        if isinstance(found, Script):
            if found.word.text is not None:  # a script with the outer shell's unknown values: not read here
                self.script(found.word.text, found.word.extra.get("span", self.call_span), found.env, found.env_open)
        elif isinstance(found, Launch):
            self.add(found, elements)
        else:
            self.framework_launch(words)

    def framework_launch(self, words: list[Word]) -> None:
        """An RL framework's entry point with Hydra overrides in an argv list (checked with the target version later)."""
        from vllm_lint.frameworks import may_be_launch
        from vllm_lint.frameworks.pack import PackError

        try:
            candidate = may_be_launch(" ".join(w.text or "" for w in words).encode(), self.analysis.path)
        except PackError:
            candidate = False  # the declared pack's diagnostic comes with its config files
        if candidate:
            self.analysis.framework_launches.append((words, self.call_span))

    def script(self, text: str, span: Span, env: dict, env_open: bool, owners: list[int] | None = None,
               element_spans: list[Span] | None = None) -> None:
        """``owners``: for text joined from a list's elements, each character's element, whose
        span (``element_spans``) its words point at."""
        from vllm_lint.launch import shell

        state = shell.ShellState(
            vars={k: v for k, v in env.items() if isinstance(v, str) or v is ABSENT},
            env=dict(env),
            env_open=env_open,
            exported=set(env),
        )

        def on_command(command) -> None:
            for word in command.words:
                owner = word.start if element_spans is not None else -1
                word.start = word.end = -1
                word.offs = None
                word.style = NONE
                word.extra["span"] = element_spans[owner] if 0 <= owner < len(element_spans) else span
                if owner >= 0:
                    word.extra["element"] = True  # written in a Python list, as its elements are
            self.launch(command.words, command.env, command.env_open, elements=False)

        try:
            shell.analyse(text, on_command, shell.Mapper(owners if owners is not None else [-1] * len(text)), state, False)
        except shell.ShellSyntaxError:
            return

    def add(self, launch, elements: bool = True) -> None:
        from vllm_lint.launch.flags import ParseFailure, interpret

        anchor_words = [w for w in launch.anchor if "span" in w.extra]
        anchor = anchor_words[0].extra["span"] if anchor_words else self.call_span

        def origin_of(word: Word) -> Origin:
            target = word.extra.get("part_of", word)
            return Origin(target.extra.get("span", anchor), target.kind)

        try:
            parsed = interpret(launch.args, launch.dialect, self.analysis_version(), origin_of, self.load_config)
        except ParseFailure:
            return
        mask = parsed.mask_word
        if mask is not None and "span" in mask.extra:
            anchor = mask.extra["span"]
        # No end position: the anchor is a string in a list, not a call a Python fix could edit.
        facts = ArgvEngineFacts(kind=launch.dialect.name, anchor=Span(anchor.line, anchor.col), open=parsed.open, source="command-line")
        if elements and getattr(self.analysis, "_foreign_path", None) is None:
            facts.parsed = parsed  # the list is written in this file: its elements may be edited
        facts.call = self.call_span
        facts.fields = parsed.fields
        facts.written = parsed.written
        facts.options = parsed.options
        facts.env = _clean(launch.env)
        facts.env_open = launch.env_open
        facts.assumed = tuple(_passed_through(word, after) for word, after in parsed.assumed)
        facts.release_unknown = launch.container is not None  # `docker exec NAME ...`: that container's vLLM
        self.analysis.engines.append(facts)

    def load_config(self, word: Word, dialect) -> list[Word] | None:
        """``--config PATH`` relative to the Python file; None (unknown) when not found."""
        import os

        from vllm_lint.launch.configfile import read_config_file

        path = getattr(self.analysis, "path", None)
        if not path or word.text is None or os.path.isabs(word.text):
            return None
        full = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), word.text))
        display = os.path.normpath(os.path.join(os.path.dirname(path), word.text))
        return read_config_file(full, dialect, self.analysis_version(), display)

    def analysis_version(self):
        from vllm_lint.versions import NEWEST_VERSION

        # Flag spellings depend on the release only for --disable-x (0.33+); the
        # rules themselves run with the target version later.
        return getattr(self.analysis, "target_version", None) or NEWEST_VERSION
