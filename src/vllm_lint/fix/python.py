"""Fix Python sources with libcst, keeping formatting and comments.

The rules point at what was written with ``ast`` spans (1-based lines, UTF-8
byte columns).  The transformer turns them into libcst positions (character
columns) and edits the node that starts there: a keyword in a call, an entry
of a dict literal, an assignment ``d["k"] = v`` / ``args.k = v``, a
``d.setdefault(k, v)`` call, or the constructor call that needs a keyword added.

Fixes are applied in passes: after each pass the source is linted again, and
the fixes still on offer are applied, until none is left or ``MAX_PASSES``.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from vllm_lint.facts import Span
from vllm_lint.findings import Edit, Finding, Fix
from vllm_lint.fix.argv import ElementEdit
from vllm_lint.fix.plan import LOGPROBS_MODE, MASK, PROCESSED_LOGPROBS, Target, plan
from vllm_lint.fix.text import applicable
from vllm_lint.versions import Version

MAX_PASSES = 8
_LINE_BREAK = re.compile(r"\r\n|\r|\n")

Keep = Callable[[Finding], bool]


# ------------------------------------------------------------------ positions


class _Columns:
    """Convert ``ast`` byte columns to libcst character columns."""

    def __init__(self, source: str) -> None:
        self.lines = _LINE_BREAK.split(source)

    def char(self, line: int, byte_col: int) -> int:
        if not 0 < line <= len(self.lines):
            return byte_col
        text = self.lines[line - 1]
        if text.isascii():
            return byte_col
        return len(text.encode("utf-8", "surrogatepass")[:byte_col].decode("utf-8", "replace"))

    def start(self, span: Span) -> tuple[int, int]:
        return span.line, self.char(span.line, span.col)

    def end(self, span: Span) -> tuple[int, int] | None:
        if span.end_line is None or span.end_col is None:
            return None
        return span.end_line, self.char(span.end_line, span.end_col)


@dataclass(frozen=True)
class _Where:
    index: int  # position in the target list
    action: str
    kind: str
    start: tuple[int, int]
    end: tuple[int, int] | None
    new_name: str = MASK  # "rename": the new name
    new_value: str | None = None  # "rename": the new value's source, when it changes


# ------------------------------------------------------- comma-separated lists

_EMPTY = cst.SimpleWhitespace("")
_SPACE = cst.SimpleWhitespace(" ")


def _multiline(ws: object) -> bool:
    return isinstance(ws, cst.ParenthesizedWhitespace)


def _has_comment(ws: object) -> bool:
    if not isinstance(ws, cst.ParenthesizedWhitespace):
        return False
    return ws.first_line.comment is not None or any(line.comment is not None for line in ws.empty_lines)


def _plain_break(ws: cst.ParenthesizedWhitespace) -> cst.ParenthesizedWhitespace:
    """The same line break and indentation without the comment at the end of the line."""
    return ws.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=[])


@dataclass
class _Seq:
    """The elements of a call's arguments or a dict literal, with the whitespace between them.

    ``gaps[0]`` precedes the first element, ``gaps[k]`` follows element ``k - 1`` (after its
    comma), and ``gaps[-1]`` precedes the closing bracket: always ``len(elements) + 1`` gaps.
    """

    elements: list
    gaps: list
    comma_before: list  # whitespace between each element and its comma
    trailing: bool  # the last element has a trailing comma

    def remove(self, index: int) -> None:
        count = len(self.elements)
        before, after = self.gaps[index], self.gaps[index + 1]
        last = index == count - 1
        merged = _merge_around_removed(before, after, closing=last)
        del self.elements[index]
        del self.comma_before[index]
        self.gaps[index : index + 2] = [merged]
        if not self.elements:
            self.trailing = False
            if not _has_comment(merged):
                self.gaps = [_EMPTY]

    def insert_after(self, index: int, element: object, same_line: bool = False) -> None:
        """Insert ``element`` after ``elements[index]``, in the list's layout (``same_line``: beside it)."""
        if same_line and self.elements:
            self.elements.insert(index + 1, element)
            self.comma_before.insert(index + 1, _EMPTY)
            self.gaps[index + 1 : index + 2] = [_SPACE, self.gaps[index + 1]]
            return
        if not self.elements:
            self.elements = [element]
            self.comma_before = [_EMPTY]
            self.gaps = [self.gaps[0], _EMPTY]
            return
        count = len(self.elements)
        before, after = self.gaps[index], self.gaps[index + 1]
        if index < count - 1:
            if _multiline(after):
                between = after.with_changes(empty_lines=[])
                following = after.with_changes(first_line=cst.TrailingWhitespace())
            else:
                between, following = after, after
        elif _multiline(before):
            # One element per line: the new one goes on its own line, indented like the last one.
            first = after.first_line if _multiline(after) else cst.TrailingWhitespace()
            between = before.with_changes(first_line=first, empty_lines=[])
            following = after.with_changes(first_line=cst.TrailingWhitespace()) if _multiline(after) else after
        else:
            between, following = _SPACE, after
        self.elements.insert(index + 1, element)
        self.comma_before.insert(index + 1, _EMPTY)
        self.gaps[index + 1 : index + 2] = [between, following]


def _merge_around_removed(before, after, closing: bool):
    """The whitespace that replaces ``before`` + removed element + ``after``.

    Comments on the neighbouring lines survive; the comment at the end of the removed
    element's own line goes with it.
    """
    if _multiline(before) and _multiline(after):
        return after.with_changes(first_line=before.first_line, empty_lines=[*before.empty_lines, *after.empty_lines])
    if _multiline(before):
        if closing and not _has_comment(before):
            return after  # `X)` shared its line with the bracket: the bracket moves up
        return before
    if _multiline(after):
        return after  # the removed element shared its line with the one before it
    return after if closing else before


def _call_seq(call: cst.Call) -> _Seq:
    args = list(call.args)
    gaps: list = [call.whitespace_before_args]
    comma_before: list = []
    trailing = False
    for index, arg in enumerate(args):
        comma = arg.comma
        comma_before.append(comma.whitespace_before if isinstance(comma, cst.Comma) else _EMPTY)
        if index < len(args) - 1:
            gaps.append(comma.whitespace_after if isinstance(comma, cst.Comma) else _SPACE)
        elif isinstance(comma, cst.Comma):
            trailing = True
            gaps.append(comma.whitespace_after if _is_empty(arg.whitespace_after_arg) else arg.whitespace_after_arg)
        else:
            gaps.append(arg.whitespace_after_arg)
    return _Seq(args, gaps, comma_before, trailing)


def _is_empty(ws: object) -> bool:
    return isinstance(ws, cst.SimpleWhitespace) and ws.value == ""


def _rebuild_call(call: cst.Call, seq: _Seq) -> cst.Call:
    count = len(seq.elements)
    if count == 0:
        return call.with_changes(args=[], whitespace_before_args=seq.gaps[0])
    args = []
    for index, arg in enumerate(seq.elements):
        last = index == count - 1
        if not last or seq.trailing:
            comma = cst.Comma(whitespace_before=seq.comma_before[index], whitespace_after=seq.gaps[index + 1])
            args.append(arg.with_changes(comma=comma, whitespace_after_arg=_EMPTY))
        else:
            args.append(arg.with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=seq.gaps[index + 1]))
    return call.with_changes(args=args, whitespace_before_args=seq.gaps[0])


def _bracketed_seq(elements: list, after_opening, before_closing) -> _Seq:
    """The layout of a dict, list or tuple display's elements between its brackets."""
    gaps: list = [after_opening]
    comma_before: list = []
    trailing = False
    for index, element in enumerate(elements):
        comma = element.comma
        comma_before.append(comma.whitespace_before if isinstance(comma, cst.Comma) else _EMPTY)
        if index < len(elements) - 1:
            gaps.append(comma.whitespace_after if isinstance(comma, cst.Comma) else _SPACE)
        else:
            closing = before_closing
            if isinstance(comma, cst.Comma):
                trailing = True
                if _is_empty(closing):
                    closing = comma.whitespace_after
            gaps.append(closing)
    return _Seq(elements, gaps, comma_before, trailing)


def _bracketed_elements(seq: _Seq, trailing: bool) -> list:
    """The elements of ``seq`` with their commas laid out again (the last one's only if ``trailing``)."""
    count = len(seq.elements)
    elements = []
    for index, element in enumerate(seq.elements):
        if index < count - 1:
            comma = cst.Comma(whitespace_before=seq.comma_before[index], whitespace_after=seq.gaps[index + 1])
        elif trailing:
            comma = cst.Comma(whitespace_before=seq.comma_before[index], whitespace_after=_EMPTY)
        else:
            comma = cst.MaybeSentinel.DEFAULT
        elements.append(element.with_changes(comma=comma))
    return elements


def _dict_seq(node: cst.Dict) -> _Seq:
    return _bracketed_seq(list(node.elements), node.lbrace.whitespace_after, node.rbrace.whitespace_before)


def _rebuild_dict(node: cst.Dict, seq: _Seq) -> cst.Dict:
    lbrace = node.lbrace.with_changes(whitespace_after=seq.gaps[0])
    if not seq.elements:
        return node.with_changes(elements=[], lbrace=lbrace, rbrace=node.rbrace.with_changes(whitespace_before=_EMPTY))
    rbrace = node.rbrace.with_changes(whitespace_before=seq.gaps[-1])
    return node.with_changes(elements=_bracketed_elements(seq, seq.trailing), lbrace=lbrace, rbrace=rbrace)


def _display_brackets(node: cst.List | cst.Tuple) -> tuple[object, object] | None:
    """The opening and closing bracket of a list or parenthesised tuple display."""
    if isinstance(node, cst.List):
        return node.lbracket, node.rbracket
    if node.lpar and node.rpar:
        return node.lpar[-1], node.rpar[0]  # the parentheses next to the elements
    return None  # `a, b = ...`: no brackets to lay elements out in


def _display_seq(node: cst.List | cst.Tuple) -> _Seq:
    opening, closing = _display_brackets(node)
    return _bracketed_seq(list(node.elements), opening.whitespace_after, closing.whitespace_before)


def _rebuild_display(node: cst.List | cst.Tuple, seq: _Seq) -> cst.List | cst.Tuple:
    count = len(seq.elements)
    # A one-element tuple needs its comma.
    trailing = seq.trailing or (isinstance(node, cst.Tuple) and count == 1)
    elements = _bracketed_elements(seq, trailing)
    opening_ws, closing_ws = seq.gaps[0], (seq.gaps[-1] if count else _EMPTY)
    if isinstance(node, cst.List):
        return node.with_changes(
            elements=elements,
            lbracket=node.lbracket.with_changes(whitespace_after=opening_ws),
            rbracket=node.rbracket.with_changes(whitespace_before=closing_ws),
        )
    lpar = [*node.lpar[:-1], node.lpar[-1].with_changes(whitespace_after=opening_ws)]
    rpar = [node.rpar[0].with_changes(whitespace_before=closing_ws), *node.rpar[1:]]
    return node.with_changes(elements=elements, lpar=lpar, rpar=rpar)


# ------------------------------------------------------------------ strings


def _quote_of(nodes: Iterable[cst.CSTNode]) -> str:
    """The quote character of the first plain string among ``nodes`` (default: double)."""
    for node in nodes:
        if isinstance(node, cst.SimpleString) and node.quote in ('"', "'"):
            return node.quote
    return '"'


def _string(text: str, like: cst.BaseExpression | None, quote: str) -> cst.SimpleString:
    """A string literal ``text``, in the prefix and quotes of ``like`` where that is a string."""
    if isinstance(like, cst.SimpleString) and "b" not in like.prefix.lower():
        return cst.SimpleString(f"{like.prefix}{like.quote}{text}{like.quote}")
    return cst.SimpleString(f"{quote}{text}{quote}")


def _replace_value(old: cst.BaseExpression, text: str, quote: str) -> cst.BaseExpression:
    """``old`` replaced by a string literal; its parentheses survive."""
    if isinstance(old, cst.SimpleString) and old.evaluated_value == text:
        return old
    new = _string(text, old, quote)
    lpar = getattr(old, "lpar", ())
    rpar = getattr(old, "rpar", ())
    if lpar:
        new = new.with_changes(lpar=lpar, rpar=rpar)
    return new


def _string_value(node: object) -> str | None:
    if isinstance(node, cst.SimpleString):
        try:
            value = node.evaluated_value
        except Exception:  # pragma: no cover - libcst parsed it, so it evaluates
            return None
        return value if isinstance(value, str) else None
    return None


def _retyped(like: cst.SimpleString, text: str) -> cst.SimpleString | None:
    """``text`` as a literal in the prefix and quotes of ``like``; None where that needs escapes."""
    prefix, quote = like.prefix, like.quote
    if "b" in prefix.lower() or any(char in text for char in "\\\r\n"):
        return None
    if quote[0] in text:
        return None  # the literal would end early (or need escapes)
    return cst.SimpleString(f"{prefix}{quote}{text}{quote}")


def _arg_name(arg: cst.Arg) -> str | None:
    return arg.keyword.value if arg.keyword is not None else None


def _key_name(element: cst.BaseDictElement) -> str | None:
    return _string_value(element.key) if isinstance(element, cst.DictElement) else None


# ------------------------------------------------------------------ transformer


class ReplayFixTransformer(cst.CSTTransformer):
    """Apply a list of ``Target`` edits; ``applied`` holds the indices of those that took effect."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, source: str, targets: Sequence[Target], elements: dict | None = None) -> None:
        """``elements``: the argv targets' edits by element position, as ``_argv_elements`` keeps them."""
        super().__init__()
        columns = _Columns(source)
        self.applied: set[int] = set()
        self._at: dict[tuple[int, int], list[_Where]] = {}
        for index, target in enumerate(targets):
            if target.action == "argv":
                continue
            where = _Where(
                index,
                target.action,
                target.kind,
                columns.start(target.span),
                columns.end(target.span),
                target.new_name or MASK,
                target.new_value,
            )
            self._at.setdefault(where.start, []).append(where)
        self._elements: dict[tuple, tuple[int, ElementEdit]] = elements or {}
        self._edits_left: dict[int, int] = {}
        for index, _ in self._elements.values():
            self._edits_left[index] = self._edits_left.get(index, 0) + 1
        self._emptied_lists: set[tuple[int, int]] = set()  # `cmd += [...]` left without elements
        # Statement lines whose statements were all removed, by id.  The nodes are kept alive:
        # a node freed during the walk could hand its id to another statement.
        self._emptied: dict[int, cst.CSTNode] = {}
        self._emptied_updates: set[tuple[int, int]] = set()  # `d.update()` calls left without arguments

    # -- lookup

    def _targets(self, node: cst.CSTNode, kinds: frozenset[str] | set[str], exact_end: bool = False) -> list[_Where]:
        if not self._at:
            return []
        position = self.get_metadata(PositionProvider, node, None)
        if position is None:
            return []
        found = self._at.get((position.start.line, position.start.column), [])
        result = []
        for where in found:
            if where.kind not in kinds:
                continue
            if exact_end and where.end != (position.end.line, position.end.column):
                continue
            result.append(where)
        return result

    def _start(self, node: cst.CSTNode) -> tuple[int, int] | None:
        position = self.get_metadata(PositionProvider, node, None)
        return None if position is None else (position.start.line, position.start.column)

    def _element_edit(self, node: cst.CSTNode) -> tuple[int, ElementEdit] | None:
        if not self._elements:
            return None
        return self._elements.get(_range(self.get_metadata(PositionProvider, node, None)))

    def _edit_done(self, index: int) -> None:
        self._edits_left[index] -= 1
        if self._edits_left[index] == 0:
            self.applied.add(index)

    # -- calls: keywords, dict(...) keywords, setdefault, a missing keyword

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        args = list(updated_node.args)
        names = [_arg_name(arg) for arg in args]
        quote = _quote_of(arg.value for arg in args)
        removals: list[int] = []
        changed = False
        for index, original_arg in enumerate(original_node.args):
            for where in self._targets(original_arg, {"keyword", "call-keyword"}):
                arg = args[index]
                if arg.keyword is None:
                    continue
                if where.action == "set":
                    args[index] = arg.with_changes(value=_replace_value(arg.value, PROCESSED_LOGPROBS, quote))
                elif where.action == "rename":
                    if where.new_name in names:
                        continue  # renaming would repeat the keyword
                    args[index] = arg.with_changes(keyword=cst.Name(where.new_name))
                    if where.new_value is not None:
                        args[index] = args[index].with_changes(value=_new_value(arg.value, where.new_value))
                elif where.action == "remove":
                    removals.append(index)
                else:
                    continue
                self.applied.add(where.index)
                changed = True
        # `d.setdefault("key", value)`, `setattr(args, "key", value)`: the call is the origin.
        for where in self._targets(original_node, {"call"}, exact_end=True):
            positional = [i for i, arg in enumerate(args) if arg.keyword is None and not arg.star]
            # setattr's first argument is the object; the name and the value follow it.
            first = 1 if _is_setattr(original_node) else 0
            if where.action == "set" and len(positional) >= first + 2:
                index = positional[first + 1]
                args[index] = args[index].with_changes(value=_replace_value(args[index].value, PROCESSED_LOGPROBS, quote))
            elif where.action == "rename" and where.new_value is None and len(positional) > first:
                index = positional[first]
                args[index] = args[index].with_changes(value=_string(where.new_name, args[index].value, quote))
            else:
                continue  # removal happens at the statement
            self.applied.add(where.index)
            changed = True
        # `cmd.append("--logprobs-mode=raw_logprobs")`: an argv element written as the argument.
        for index, original_arg in enumerate(original_node.args):
            found = self._element_edit(original_arg.value)
            if found is not None and found[1].new is not None:
                target_index, edit = found
                if edit.new != edit.old:
                    args[index] = args[index].with_changes(value=_retyped(args[index].value, edit.new))
                    changed = True
                self._edit_done(target_index)
        additions = [
            where for where in self._targets(original_node, {"anchor"}, exact_end=True) if where.action == "add"
        ]
        if not changed and not additions:
            return updated_node
        node = updated_node.with_changes(args=args)
        if removals or additions:
            seq = _call_seq(node)
            for index in sorted(set(removals), reverse=True):
                seq.remove(index)
            for where in additions:
                present = [_arg_name(arg) for arg in seq.elements]
                if LOGPROBS_MODE in present:
                    continue
                after = present.index(MASK) if MASK in present else len(seq.elements) - 1
                like = seq.elements[after] if seq.elements else None
                equal = like.equal if like is not None and like.keyword is not None else cst.MaybeSentinel.DEFAULT
                new_arg = cst.Arg(
                    value=cst.SimpleString(f"{quote}{PROCESSED_LOGPROBS}{quote}"),
                    keyword=cst.Name(LOGPROBS_MODE),
                    equal=equal
                    if isinstance(equal, cst.AssignEqual)
                    else cst.AssignEqual(whitespace_before=_EMPTY, whitespace_after=_EMPTY),
                )
                seq.insert_after(after, new_arg)
                self.applied.add(where.index)
            node = _rebuild_call(node, seq)
            if removals and not node.args and isinstance(node.func, cst.Attribute) and node.func.attr.value == "update":
                start = self._start(original_node)
                if start is not None:
                    self._emptied_updates.add(start)
        return node

    # -- dict literals

    def leave_Dict(self, original_node: cst.Dict, updated_node: cst.Dict) -> cst.BaseExpression:
        elements = list(updated_node.elements)
        removals: list[int] = []
        changed = False
        keys = [_key_name(element) for element in elements]
        quote = _quote_of(element.key for element in elements if isinstance(element, cst.DictElement))
        for index, original_element in enumerate(original_node.elements):
            if not isinstance(original_element, cst.DictElement):
                continue
            for where in self._targets(original_element, {"dict-entry"}):
                element = elements[index]
                if where.action == "set":
                    elements[index] = element.with_changes(value=_replace_value(element.value, PROCESSED_LOGPROBS, quote))
                elif where.action == "rename":
                    if where.new_name in keys:
                        continue
                    elements[index] = element.with_changes(key=_string(where.new_name, element.key, quote))
                    if where.new_value is not None:
                        elements[index] = elements[index].with_changes(value=_new_value(element.value, where.new_value))
                elif where.action == "remove":
                    removals.append(index)
                else:
                    continue
                self.applied.add(where.index)
                changed = True
        if not changed:
            return updated_node
        node = updated_node.with_changes(elements=elements)
        if removals:
            seq = _dict_seq(node)
            for index in sorted(set(removals), reverse=True):
                seq.remove(index)
            node = _rebuild_dict(node, seq)
        return node

    # -- argv lists: string elements of list and tuple displays

    def _leave_display(self, original_node, updated_node):
        edits = []
        for index, element in enumerate(original_node.elements):
            found = self._element_edit(element.value) if isinstance(element, cst.Element) else None
            if found is not None:
                edits.append((index, found))
        if not edits:
            return updated_node
        seq = _display_seq(updated_node)
        for index, (_, edit) in edits:
            if edit.new is not None and edit.new != edit.old:
                element = seq.elements[index]
                seq.elements[index] = element.with_changes(value=_retyped(element.value, edit.new))
        for index, (target_index, edit) in sorted(edits, key=lambda item: item[0], reverse=True):
            if edit.new is None:
                seq.remove(index)
            elif edit.insert:
                like = seq.elements[index].value
                new = [cst.Element(value=_retyped(like, text)) for text in edit.insert]
                seq.insert_after(index, new[0])
                for offset, element in enumerate(new[1:], start=1):
                    seq.insert_after(index + offset, element, same_line=True)  # a flag's value beside it
            self._edit_done(target_index)
        node = _rebuild_display(updated_node, seq)
        if not node.elements:
            self._emptied_lists.add(self._start(original_node))
        return node

    def leave_List(self, original_node, updated_node):
        return self._leave_display(original_node, updated_node)

    def leave_Tuple(self, original_node, updated_node):
        return self._leave_display(original_node, updated_node)

    def leave_Arg(self, original_node, updated_node):
        """``Popen(BASE + [])`` left by a removal is ``Popen(BASE)``.  Only as an argument: in
        ``cmd = BASE + []`` the copy matters (``cmd`` may be extended later)."""
        operation, updated = original_node.value, updated_node.value
        if not self._emptied_lists or not isinstance(operation, cst.BinaryOperation) or updated.lpar:
            return updated_node
        if not isinstance(operation.operator, cst.Add) or not isinstance(updated, cst.BinaryOperation):
            return updated_node
        displays = (cst.List, cst.Tuple)
        if isinstance(operation.right, displays) and self._start(operation.right) in self._emptied_lists:
            return updated_node.with_changes(value=updated.left)
        if isinstance(operation.left, displays) and self._start(operation.left) in self._emptied_lists:
            return updated_node.with_changes(value=updated.right)
        return updated_node

    def _removes_argv_statement(self, statement: cst.BaseSmallStatement) -> bool:
        """``cmd.append("--flag")`` whose element goes, ``cmd += []`` / ``cmd.extend([])`` left empty."""
        if isinstance(statement, cst.AugAssign):
            return (
                isinstance(statement.operator, cst.AddAssign)
                and isinstance(statement.value, (cst.List, cst.Tuple))
                and self._start(statement.value) in self._emptied_lists
            )
        if not (isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Call)):
            return False
        call = statement.value
        if not (isinstance(call.func, cst.Attribute) and len(call.args) == 1):
            return False
        value = call.args[0].value
        if call.func.attr.value == "extend":
            return isinstance(value, (cst.List, cst.Tuple)) and self._start(value) in self._emptied_lists
        if call.func.attr.value != "append":
            return False
        found = self._element_edit(value)
        if found is None or found[1].new is not None:
            return False
        self._edit_done(found[0])
        return True

    # -- assignments `d["k"] = v`, `args.k = v`

    def _assignment_targets(self, node: cst.Assign) -> list[_Where]:
        if len(node.targets) != 1:
            return []
        return self._targets(node.targets[0].target, {"subscript", "attribute"})

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        node = updated_node
        for where in self._assignment_targets(original_node):
            target = node.targets[0].target
            if where.action == "set":
                node = node.with_changes(value=_replace_value(node.value, PROCESSED_LOGPROBS, '"'))
            elif where.action == "rename":
                renamed = _renamed_target(target, where.new_name)
                if renamed is None:
                    continue
                node = node.with_changes(targets=[node.targets[0].with_changes(target=renamed)])
                if where.new_value is not None:
                    node = node.with_changes(value=_new_value(node.value, where.new_value))
            else:
                continue  # removal happens at the statement
            self.applied.add(where.index)
        return node

    # -- statements removed whole

    def _removes(self, statement: cst.BaseSmallStatement) -> bool:
        if self._removes_argv_statement(statement):
            return True
        if isinstance(statement, cst.Assign):
            found = [w for w in self._assignment_targets(statement) if w.action == "remove"]
        elif isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Call):
            call = statement.value
            if self._start(call) in self._emptied_updates:
                return True
            found = [w for w in self._targets(call, {"call"}, exact_end=True) if w.action == "remove"]
        else:
            return False
        for where in found:
            self.applied.add(where.index)
        return bool(found)

    def _leave_statements(self, original_node, updated_node):
        body = []
        removed_last = False
        for original, updated in zip(original_node.body, updated_node.body):
            if self._removes(original):
                removed_last = True
                continue
            removed_last = False
            body.append(updated)
        if len(body) == len(updated_node.body):
            return updated_node
        if body and removed_last:
            body[-1] = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        if not body:
            emptied = updated_node.with_changes(body=[cst.Pass()])
            self._emptied[id(emptied)] = emptied
            return emptied
        return updated_node.with_changes(body=body)

    def leave_SimpleStatementLine(self, original_node, updated_node):
        return self._leave_statements(original_node, updated_node)

    def leave_SimpleStatementSuite(self, original_node, updated_node):
        return self._leave_statements(original_node, updated_node)

    def _leave_block(self, updated_node, indented: bool):
        if not any(id(statement) in self._emptied for statement in updated_node.body):
            return updated_node
        body = []
        pending: list[cst.EmptyLine] = []
        for statement in updated_node.body:
            if id(statement) in self._emptied and isinstance(statement, cst.SimpleStatementLine):
                # The comments above a removed statement stay, above the next one.
                pending.extend(statement.leading_lines)
                continue
            if pending and hasattr(statement, "leading_lines"):
                own = list(statement.leading_lines)
                carried = pending if any(line.comment for line in pending) or not own else []
                statement = statement.with_changes(leading_lines=[*carried, *own])
                pending = []
            body.append(statement)
        if not body:
            if indented:
                body = [cst.SimpleStatementLine([cst.Pass()], leading_lines=pending)]
                pending = []
            # A module may be empty.
        node = updated_node.with_changes(body=body)
        if pending and any(line.comment for line in pending):
            node = node.with_changes(footer=[*pending, *updated_node.footer])
        return node

    def leave_IndentedBlock(self, original_node, updated_node):
        return self._leave_block(updated_node, indented=True)

    def leave_Module(self, original_node, updated_node):
        return self._leave_block(updated_node, indented=False)


def _is_setattr(call: cst.Call) -> bool:
    return isinstance(call.func, cst.Name) and call.func.value == "setattr"


def _new_value(old: cst.BaseExpression, source: str) -> cst.BaseExpression:
    """The literal ``source`` in place of ``old``; its parentheses survive."""
    new = cst.parse_expression(source)
    lpar = getattr(old, "lpar", ())
    if lpar:
        new = new.with_changes(lpar=lpar, rpar=getattr(old, "rpar", ()))
    return new


def _renamed_target(target: cst.BaseAssignTargetExpression, name: str = MASK) -> cst.BaseAssignTargetExpression | None:
    if isinstance(target, cst.Attribute):
        return target.with_changes(attr=cst.Name(name))
    if isinstance(target, cst.Subscript) and len(target.slice) == 1:
        element = target.slice[0]
        if isinstance(element.slice, cst.Index) and isinstance(element.slice.value, cst.SimpleString):
            value = element.slice.value
            new_index = element.slice.with_changes(value=_string(name, value, '"'))
            return target.with_changes(slice=[element.with_changes(slice=new_index)])
    return None


# ------------------------------------------------------------------ applying


def _range(position) -> tuple | None:
    if position is None:
        return None
    return (position.start.line, position.start.column), (position.end.line, position.end.column)


class _StringElements(cst.CSTVisitor):
    """String literals an argv edit may change: elements of list and parenthesised tuple
    displays, and the argument of ``x.append(...)``; by their (start, end)."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[tuple, tuple[cst.SimpleString, bool]] = {}  # -> (literal, in a display)

    def _add(self, node: cst.CSTNode, in_display: bool) -> None:
        if isinstance(node, cst.SimpleString):
            self.found[_range(self.get_metadata(PositionProvider, node, None))] = (node, in_display)

    def visit_List(self, node: cst.List) -> None:
        for element in node.elements:
            if isinstance(element, cst.Element):
                self._add(element.value, True)

    def visit_Tuple(self, node: cst.Tuple) -> None:
        if _display_brackets(node) is not None:
            self.visit_List(node)

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "append" and len(node.args) == 1:
            arg = node.args[0]
            if arg.keyword is None and not arg.star:
                self._add(arg.value, False)


def _argv_elements(wrapper: MetadataWrapper, source: str, targets: Sequence[Target]) -> dict:
    """The edits of the argv targets whose every element is as planned, by element position.

    A target is applied whole or not at all: one with an element that is not a plain string
    literal of a display (or an append), that holds another value, that cannot take the new
    text without escapes, or that another target edits, is left for a later pass.
    """
    if not any(target.action == "argv" for target in targets):
        return {}
    collector = _StringElements()
    wrapper.visit(collector)
    columns = _Columns(source)
    chosen: dict[tuple, tuple[int, ElementEdit]] = {}
    for index, target in enumerate(targets):
        if target.action != "argv":
            continue
        mine = {}
        for edit in target.elements:
            key = (columns.start(edit.span), columns.end(edit.span))
            literal, in_display = collector.found.get(key, (None, False))
            if literal is None or key in chosen or key in mine or literal.evaluated_value != edit.old:
                break
            if edit.insert and not in_display:
                break
            texts = [*([edit.new] if edit.new not in (None, edit.old) else []), *edit.insert]
            if any(_retyped(literal, text) is None for text in texts):
                break
            mine[key] = (index, edit)
        else:
            chosen.update(mine)
    return chosen


def transform(source: str, targets: Sequence[Target]) -> tuple[str, set[int]]:
    """Apply the edits; the new source and the indices of the targets that took effect."""
    if not targets:
        return source, set()
    module = cst.parse_module(source)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    transformer = ReplayFixTransformer(source, targets, _argv_elements(wrapper, source, targets))
    new = wrapper.visit(transformer).code
    if source.endswith("\r") and not new.endswith(("\r", "\n")):
        new += "\r"  # libcst drops the last line break of a file whose lines end in a lone CR
    return new, transformer.applied


def dedupe(targets: Iterable[Target]) -> list[Target]:
    seen: dict[tuple, Target] = {}
    for target in targets:
        seen.setdefault(target.key, target)
    return list(seen.values())


# ------------------------------------------------------------------ linting


def lint_source(source: str, path: str, version: Version, keep: Keep | None = None) -> list[Finding]:
    """The findings of a Python source as ``vllm-lint check`` reports them (``# noqa`` applied)."""
    from vllm_lint.lint import analyze_python_source, apply_python_noqa

    findings = analyze_python_source(source, path, version)
    for finding in findings:
        finding.path = path
    if findings:
        findings = apply_python_noqa(findings, source)
    if keep is not None:
        findings = [f for f in findings if keep(f)]
    return findings


@dataclass
class Outcome:
    source: str
    fixed: list[Finding] = field(default_factory=list)  # findings whose fix was applied
    remaining: list[Finding] = field(default_factory=list)
    error: str | None = None  # the source is then the original
    converged: bool = True
    others: list = field(default_factory=list)  # crossfile.OtherFix: other files the fixes edited

    @property
    def changed(self) -> bool:
        return bool(self.fixed)


def _parses(source: str, path: str) -> str | None:
    try:
        compile(source, path, "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as error:
        return f"{error.msg} (line {error.lineno})"
    except ValueError as error:
        return str(error)
    return None


def fix_source(
    source: str,
    path: str,
    version: Version,
    *,
    unsafe: bool = False,
    mode: str = "keep-replay",
    keep: Keep | None = None,
    max_passes: int = MAX_PASSES,
    findings: list[Finding] | None = None,
    elsewhere=None,
) -> Outcome:
    """Apply every applicable fix, re-checking after each pass.

    ``elsewhere`` (``crossfile.OtherFiles``): fixes may edit the other project files a value
    was written in; ``Outcome.others`` holds their new text (nothing is written here).
    """
    current_findings = findings if findings is not None else lint_source(source, path, version, keep)
    try:
        return _fix_passes(source, path, version, unsafe, mode, keep, max_passes, current_findings, elsewhere)
    except (RecursionError, MemoryError):
        # libcst recurses once per level of nesting: a literal nested too deeply for it
        # leaves this file unfixed (one diagnostic), not the whole run aborted.
        if elsewhere is not None:
            elsewhere.forget()
        return Outcome(source, [], current_findings, "too deeply nested to fix")


def _fix_passes(
    source: str,
    path: str,
    version: Version,
    unsafe: bool,
    mode: str,
    keep: Keep | None,
    max_passes: int,
    current_findings: list[Finding],
    elsewhere,
) -> Outcome:
    current = source
    fixed: list[Finding] = []
    converged = False
    for _ in range(max_passes):
        planned = plan(current, current_findings, version, mode, path, elsewhere)
        chosen = [p for p in planned if applicable(p.target.safety, unsafe)]
        if not chosen:
            converged = True
            break
        new, done, problem = _apply_pass(current, dedupe(p.target for p in chosen), path, elsewhere)
        if problem is not None:
            if elsewhere is not None:
                elsewhere.forget()
            return Outcome(source, [], lint_source(source, path, version, keep), problem)
        if not done:
            converged = True
            break
        fixed.extend(p.finding for p in chosen if p.target.key in done)
        current = new
        current_findings = lint_source(current, path, version, keep)
    others = elsewhere.changed() if elsewhere is not None else []
    return Outcome(current, fixed, current_findings, None, converged, others)


def _apply_pass(current: str, targets: list[Target], path: str, elsewhere) -> tuple[str, set[tuple], str | None]:
    """One pass of edits: the linted file's new source, the keys of the edits made, a problem.

    Edits in other files change ``elsewhere``'s text of them, so the next analysis reads it.
    """
    here = [t for t in targets if t.path is None]
    new, applied = transform(current, here)
    done = {here[i].key for i in applied} if new != current else set()
    if done:
        problem = _parses(new, path)
        if problem is not None:
            return current, set(), f"the fixed source does not parse: {problem}"
    files: dict[str, list[Target]] = {}
    for target in targets:
        if target.path is not None and elsewhere is not None:
            files.setdefault(target.path, []).append(target)
    for other_path, group in files.items():
        text = elsewhere.text(other_path)
        if text is None:
            continue
        other_new, other_applied = transform(text, group)
        if other_new == text:
            continue
        problem = _parses(other_new, other_path)
        if problem is not None:
            return current, set(), f"the fixed source of {other_path} does not parse: {problem}"
        elsewhere.update(other_path, other_new)
        done |= {group[i].key for i in other_applied}
    return new, done, None


# ------------------------------------------------------------------ edits for output


def _row_col(text: str, offset: int) -> tuple[int, int]:
    """1-based row and column of a character offset (rows end at ``\\n``)."""
    row = text.count("\n", 0, offset) + 1
    line_start = text.rfind("\n", 0, offset) + 1
    return row, offset - line_start + 1


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


def edit_between(old: str, new: str) -> Edit:
    """One edit that turns ``old`` into ``new``: the differing middle, not splitting a word."""
    limit = min(len(old), len(new))
    prefix = 0
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    while prefix > 0 and _word(old[prefix - 1]) and (
        (prefix < len(old) and _word(old[prefix])) or (prefix < len(new) and _word(new[prefix]))
    ):
        prefix -= 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    while suffix > 0 and _word(old[len(old) - suffix]) and (
        (len(old) - suffix > prefix and _word(old[len(old) - suffix - 1]))
        or (len(new) - suffix > prefix and _word(new[len(new) - suffix - 1]))
    ):
        suffix -= 1
    return Edit(_row_col(old, prefix), _row_col(old, len(old) - suffix), new[prefix : len(new) - suffix])


def attach_fixes(
    source: str, findings: list[Finding], version: Version, mode: str, path: str | None = None, elsewhere=None
) -> None:
    """Fill ``finding.fix`` for every finding with a fix (JSON and ``full`` output show them).

    A fix in another file (``elsewhere``) has its edits in ``Fix.elsewhere``, by file.
    """
    for item in plan(source, findings, version, mode, path, elsewhere):
        target = item.target
        text = source if target.path is None else elsewhere.text(target.path)
        if text is None:
            continue
        new, applied = transform(text, [target])
        if not applied or new == text or _parses(new, target.path or item.finding.path or "<fix>") is not None:
            continue
        if target.path is None:
            item.finding.fix = Fix(target.safety, target.message, [edit_between(text, new)])
        else:
            item.finding.fix = Fix(target.safety, target.message, [], {target.path: [edit_between(text, new)]})
