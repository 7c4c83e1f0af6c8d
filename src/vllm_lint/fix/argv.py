"""Fixes of servers started from Python argv lists: which list elements an edit changes.

``subprocess.Popen(["vllm", "serve", model, "--return-sampling-mask"])`` is read
by the command-line front end word by word, and each word keeps the span of
the list element it was written in (``python/subprocesses.py``).  A fix edits
those elements as the shell fixes edit words: it replaces a value, removes a
flag with its value, or adds ``"--logprobs-mode", "processed_logprobs"`` after
``"--return-sampling-mask"``.  The libcst transformer (``fix/python.py``) makes
the edits.

An element is edited only when it is a string literal written in a list or
tuple display (or the argument of ``cmd.append(...)``), its list reaches this
one server and nothing else, and every element the edit needs qualifies;
otherwise the finding is reported without a fix.

Nothing here imports libcst.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from vllm_lint.facts import Span
from vllm_lint.findings import Finding

REQUIRED_MODE = "processed_logprobs"
MASK_NAME = "return_sampling_mask"
SPEC_FIELDS = ("speculative_config", "spec_method", "spec_model", "spec_tokens")
REMOVED_FIELD = {
    "VLM104": "logits_processors",
    "VLM106": "enable_batch_sharded_sampling",
    "VLM302": "return_sampling_mask_logprobs",
}

# The calls that start a process from an argv, by their last name.
_LAUNCHERS = frozenset(
    {
        "run",
        "Popen",
        "call",
        "check_call",
        "check_output",
        "execv",
        "execvp",
        "execve",
        "execvpe",
        "create_subprocess_exec",
    }
)
_LAUNCHER_MODULES = frozenset({"subprocess", "os", "asyncio"})
_MAX_NAME_HOPS = 4  # cmd = [...]; full = cmd + [...]; Popen(full): names followed to the launch


@dataclass(frozen=True)
class ElementEdit:
    """One string element of an argv list, written at ``span`` with the value ``old``.

    ``new`` is its new value, or None to remove it; ``insert`` are elements to add
    after it (in its list display).
    """

    span: Span
    old: str
    new: str | None
    insert: tuple[str, ...] = ()


# ------------------------------------------------------------------ which words


def element_of(word) -> object | None:
    """The argv element a word was written as (``--flag=value`` words are part of one)."""
    element = word.extra.get("part_of", word)
    if element.text is None or element.open or element.maybe or element.path is not None:
        return None
    span = element.extra.get("span")
    if span is None or span.end_line is None:
        return None
    return element


def _removals(words) -> list[ElementEdit] | None:
    edits: dict[Span, ElementEdit] = {}
    for word in words:
        element = element_of(word)
        if element is None:
            return None
        span = element.extra["span"]
        edits[span] = ElementEdit(span, element.text, None)
    return list(edits.values()) or None


def _replacement(word, new: str) -> list[ElementEdit] | None:
    element = element_of(word)
    if element is None:
        return None
    return [ElementEdit(element.extra["span"], element.text, new)]


def _set_logprobs(parsed) -> tuple[str, list[ElementEdit]] | None:
    groups = parsed.groups.get("logprobs_mode")
    if groups:
        group = groups[-1]
        flag = group[0]
        if flag.path is None:  # written in the list (not in a --config file, which the list overrides)
            if len(group) > 1:
                edits = _replacement(group[1], REQUIRED_MODE)
            else:  # "--logprobs-mode=raw_logprobs"
                element = element_of(flag)
                if element is None or "=" not in element.text:
                    return None
                edits = _replacement(flag, element.text.split("=", 1)[0] + "=" + REQUIRED_MODE)
            return ("Set `--logprobs-mode` to `processed_logprobs`", edits) if edits else None
    mask = parsed.mask_word
    element = element_of(mask) if mask is not None else None
    if element is None:
        return None
    edit = ElementEdit(element.extra["span"], element.text, element.text, ("--logprobs-mode", REQUIRED_MODE))
    return "Add `--logprobs-mode processed_logprobs`", [edit]


def _remove_groups(parsed, names, message: str) -> tuple[str, list[ElementEdit]] | None:
    words = [word for name in names for group in parsed.groups.get(name, []) for word in group]
    edits = _removals(words) if words else None
    return (message, edits) if edits else None


_ADAPTIVE = r"\"enable[_-]adaptive[_-]verification\"\s*:\s*(?:true|false|1|0|null)"
_ADAPTIVE_ENTRY = (
    re.compile(rf",\s*{_ADAPTIVE}(?=\s*\}})"),  # the last entry: with the comma before it
    re.compile(rf"{_ADAPTIVE}\s*,\s*"),  # another entry: with the comma after it
    re.compile(rf"{_ADAPTIVE}(?=\s*\}})"),  # the only entry
)


def _without_adaptive(text: str) -> str | None:
    """The JSON text of a speculative config without its ``enable_adaptive_verification`` entry."""
    for pattern in _ADAPTIVE_ENTRY:
        matches = list(pattern.finditer(text))
        if len(matches) == 1:
            match = matches[0]
            return text[: match.start()] + text[match.end() :]
        if len(matches) > 1:
            return None
    return None


def _remove_adaptive(parsed) -> tuple[str, list[ElementEdit]] | None:
    message = "Remove `enable_adaptive_verification` from `--speculative-config`"
    groups = parsed.groups.get("speculative_config", [])
    dotted = [g for g in groups if g[0].text and "adaptive" in g[0].text and "." in g[0].text]
    if dotted:
        edits = _removals([word for group in dotted for word in group])
        return (message, edits) if edits else None
    if not groups:
        return None
    group = groups[-1]
    if len(group) > 1:
        value = group[1]
        element = element_of(value)
        new = _without_adaptive(element.text) if element is not None else None
    else:  # "--speculative-config={...}"
        element = element_of(group[0])
        if element is None or "=" not in element.text:
            return None
        flag, json_text = element.text.split("=", 1)
        rest = _without_adaptive(json_text)
        new = None if rest is None else f"{flag}={rest}"
    if element is None or new is None:
        return None
    return message, [ElementEdit(element.extra["span"], element.text, new)]


def _rename(parsed) -> tuple[str, list[ElementEdit]] | None:
    if parsed.groups.get(MASK_NAME):
        return None  # renaming would give the flag twice
    edits: list[ElementEdit] = []
    for group in parsed.groups.get("enable_return_sampling_mask", []):
        element = element_of(group[0])
        if element is None or "part_of" in group[0].extra:
            return None
        new, count = re.subn(r"enable[-_](?=return[-_]sampling[-_]mask)", "", element.text, count=1)
        if not count:
            return None
        edits.append(ElementEdit(element.extra["span"], element.text, new))
    return ("Rename to `--return-sampling-mask`", edits) if edits else None


def keep_replay_edits(finding: Finding, parsed) -> tuple[str, list[ElementEdit]] | None:
    """The fix message and element edits for a finding's own fix, or None."""
    action = finding.fix_action
    if action == "set-processed-logprobs":
        return _set_logprobs(parsed)
    if action == "remove":
        name = REMOVED_FIELD.get(finding.code)
        return _remove_groups(parsed, [name], f"Remove `--{name.replace('_', '-')}`") if name else None
    if action == "remove-speculative-config":
        return _remove_groups(parsed, SPEC_FIELDS, "Remove the speculative decoding options")
    if action == "remove-adaptive-verification":
        return _remove_adaptive(parsed)
    if action == "rename-to-return-sampling-mask":
        return _rename(parsed)
    if action == "rename-argument":
        return _rename_argument(parsed, finding)
    return None


def _rename_argument(parsed, finding: Finding) -> tuple[str, list[ElementEdit]] | None:
    """VLM301: the element's flag replaced by the successor vLLM documents (see ``commandline/fixes.py``)."""
    rename = finding.rename
    from vllm_lint.commandline.fixes import successor_written

    if rename is None or successor_written(parsed, rename.new_flag):
        return None
    elements = []
    for word in parsed.words:
        element = element_of(word)
        if element is not None and element.extra["span"] == finding.span and element is word:
            elements.append(element)
    if len(elements) != 1:
        return None
    element = elements[0]
    name, eq, inline = element.text.partition("=")
    if not name.startswith("--"):
        return None
    if rename.fix == "rename":
        new = rename.new_flag + (eq + inline)
    elif eq:
        return None
    else:
        new = f"{rename.new_flag}={rename.value}"
    return f"Replace `{name}` with `{rename.spelled(True)}`", [ElementEdit(element.extra["span"], element.text, new)]


def mask_removal_edits(parsed) -> list[ElementEdit] | None:
    """``--fix-mode disable-replay``: every ``--return-sampling-mask`` of the server goes."""
    if parsed.mask_word is None:
        return None
    words = [word for group in parsed.groups.get(MASK_NAME, []) for word in group]
    return _removals(words) if words else None


# ------------------------------------------------------------- private lists


def element_spans(engine) -> set[Span]:
    parsed = getattr(engine, "parsed", None)
    if parsed is None:
        return set()
    spans = set()
    for word in parsed.words:
        span = word.extra.get("part_of", word).extra.get("span")
        if span is not None:
            spans.add(span)
    if parsed.mask_word is not None and "span" in parsed.mask_word.extra:
        spans.add(parsed.mask_word.extra["span"])
    return spans


class ListUses:
    """Where the list an element is written in goes, read from the module's ``ast``.

    An edit is local when the element's list display (or ``cmd.append`` call) reaches a
    process-starting call through ``+``, ``*`` unpacking, ``cmd += ...``,
    ``cmd.extend(...)`` and names read exactly once, and goes nowhere else.
    """

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.parents: dict[int, ast.AST] = {}
        self.constants: dict[tuple[int, int, int | None, int | None], ast.Constant] = {}
        self.launcher_names: set[str] = set()
        self.launcher_modules: set[str] = set()
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                key = (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)
                self.constants[key] = node
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in _LAUNCHER_MODULES:
                        self.launcher_modules.add(alias.asname or alias.name)
            elif isinstance(node, ast.ImportFrom) and node.module in _LAUNCHER_MODULES and node.level == 0:
                for alias in node.names:
                    if alias.name in _LAUNCHERS:
                        self.launcher_names.add(alias.asname or alias.name)

    def _parent(self, node: ast.AST) -> ast.AST | None:
        return self.parents.get(id(node))

    def private(self, span: Span) -> bool:
        """The element at ``span`` is a string literal whose list feeds one launch only."""
        node = self.constants.get((span.line, span.col, span.end_line, span.end_col))
        if node is None:
            return False
        parent = self._parent(node)
        if isinstance(parent, (ast.List, ast.Tuple)) and any(elt is node for elt in parent.elts):
            return self._reaches_launch(parent, 0)
        if isinstance(parent, ast.Call) and self._builder_call(parent, "append") and parent.args[0] is node:
            return self._name_private(parent.func.value.id, parent, 0)
        return False

    def _builder_call(self, call: ast.Call, method: str) -> bool:
        """``name.<method>(x)`` as a statement of its own."""
        func = call.func
        return (
            isinstance(func, ast.Attribute)
            and func.attr == method
            and isinstance(func.value, ast.Name)
            and len(call.args) == 1
            and not call.keywords
            and isinstance(self._parent(call), ast.Expr)
        )

    def _launcher(self, call: ast.AST) -> bool:
        if not isinstance(call, ast.Call):
            return False
        func = call.func
        if isinstance(func, ast.Attribute):
            return func.attr in _LAUNCHERS and isinstance(func.value, ast.Name) and func.value.id in self.launcher_modules
        return isinstance(func, ast.Name) and func.id in self.launcher_names

    def _climb(self, expr: ast.AST) -> ast.AST:
        """The largest expression ``expr`` is a part of through ``+`` and ``*`` unpacking in a display."""
        while True:
            parent = self._parent(expr)
            if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add):
                expr = parent
            elif isinstance(parent, ast.Starred) and isinstance(self._parent(parent), (ast.List, ast.Tuple)):
                expr = self._parent(parent)
            else:
                return expr

    def _reaches_launch(self, expr: ast.AST, hops: int) -> bool:
        expr = self._climb(expr)
        parent = self._parent(expr)
        if isinstance(parent, ast.Call):
            if any(arg is expr for arg in parent.args):
                if self._launcher(parent):
                    return True
                if self._builder_call(parent, "extend"):
                    return self._name_private(parent.func.value.id, parent, hops)
            return False
        if isinstance(parent, ast.keyword):
            return parent.arg == "args" and self._launcher(self._parent(parent))
        if isinstance(parent, ast.Assign) and parent.value is expr:
            if len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
                return self._name_private(parent.targets[0].id, parent, hops)
            return False
        if isinstance(parent, ast.AugAssign) and parent.value is expr:
            if isinstance(parent.op, ast.Add) and isinstance(parent.target, ast.Name):
                return self._name_private(parent.target.id, parent, hops)
        return False

    def _scope(self, node: ast.AST) -> ast.AST:
        current = self._parent(node)
        while current is not None and not isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            current = self._parent(current)
        return current if current is not None else self.tree

    def _name_private(self, name: str, where: ast.AST, hops: int) -> bool:
        """The list bound to ``name`` is read once, by something that reaches a launch."""
        if hops >= _MAX_NAME_HOPS:
            return False
        readers = []
        for node in ast.walk(self._scope(where)):
            if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
                return False  # bound elsewhere too
            if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
                if not self._builds(node, name) and not self._only_looks(node):
                    readers.append(node)
        return len(readers) == 1 and self._reaches_launch(readers[0], hops + 1)

    def _only_looks(self, node: ast.Name) -> bool:
        """A read that keeps nothing of the list: ``" ".join(cmd)``, ``shlex.join(cmd)``,
        ``print(cmd)``, ``len(cmd)``, ``f"{cmd}"`` (a command logged before it starts)."""
        parent = self._parent(node)
        if isinstance(parent, ast.FormattedValue):
            return True
        if not (isinstance(parent, ast.Call) and any(arg is node for arg in parent.args)):
            return False
        func = parent.func
        if isinstance(func, ast.Name):
            return func.id in ("print", "len")
        if isinstance(func, ast.Attribute) and func.attr == "join" and len(parent.args) == 1:
            owner = func.value
            return (isinstance(owner, ast.Constant) and isinstance(owner.value, str)) or (
                isinstance(owner, ast.Name) and owner.id == "shlex"
            )
        return False

    def _builds(self, node: ast.Name, name: str) -> bool:
        """A read that only extends the list: ``name.append/extend(...)``, ``name = name + [...]``."""
        parent = self._parent(node)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            call = self._parent(parent)
            return isinstance(call, ast.Call) and call.func is parent and (
                self._builder_call(call, "append") or self._builder_call(call, "extend")
            )
        top = self._climb(node)
        if top is node:
            return False
        statement = self._parent(top)
        if isinstance(statement, ast.Assign) and statement.value is top and len(statement.targets) == 1:
            target = statement.targets[0]
            return isinstance(target, ast.Name) and target.id == name
        return False
