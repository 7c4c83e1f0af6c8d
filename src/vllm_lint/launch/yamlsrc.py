"""YAML nodes with positions: loading, scalar character offsets, Helm templates.

PyYAML (libyaml when available) composes nodes whose marks are character
offsets.  ``scalar_offsets`` recovers, for each character of a scalar's
value, the offset in the file where it is written, so findings and fixes can
point inside a scalar (a flag in a ``sh -c`` script, ``--flag=value``).
"""

from __future__ import annotations

import re

PLACEHOLDER = "\ue000"  # stands for a Helm/Go template expression: unknown text

_TEMPLATE = re.compile(r"\{\{.*?\}\}", re.DOTALL)
_CONTROL_LINE = re.compile(r"^[ \t]*(\{\{-?\s*(/\*.*?\*/|[^{}]*?)\s*-?\}\}[ \t]*)+$")
_ACTION = re.compile(r"\{\{-?\s*(\w+)")


def loader():
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def compose_all(text: str):
    import yaml

    return yaml.compose_all(text, Loader=loader())


def compose_document(text: str):
    import yaml

    return yaml.compose(text, Loader=loader())


def constructor():
    import yaml

    return yaml.constructor.SafeConstructor()


def scalar_offsets(text: str, node) -> list[int] | None:
    """File offset of each character of a scalar's value; None when they cannot be recovered."""
    value = node.value
    start, end = node.start_mark.index, node.end_mark.index
    style = node.style
    if style in (None, ""):
        if text[start:end] == value:
            return list(range(start, end))
        lo, hi = start, end
    elif style in ('"', "'"):
        lo, hi = start + 1, end - 1
    elif style in ("|", ">"):
        newline = text.find("\n", start)
        if newline < 0:
            return None
        lo, hi = newline + 1, end
    else:
        return None
    return _align(value, text, lo, hi, style)


_SKIPPABLE = frozenset(" \t\r\n\\\"'")


def _align(value: str, text: str, lo: int, hi: int, style) -> list[int] | None:
    offsets: list[int] = []
    j = lo
    for ch in value:
        while j < hi:
            c = text[j]
            if c == ch or (ch == " " and c == "\n" and style != "|"):
                break
            if c in _SKIPPABLE:
                j += 1
                continue
            return None
        else:
            if ch == "\n":  # a block scalar's final line break
                offsets.append(hi - 1 if hi > lo else lo)
                continue
            return None
        offsets.append(j)
        j += 1
    return offsets


class Templates:
    """Helm/Go template expressions replaced so the file parses as YAML.

    Whole-line actions (``{{- if .Values.x }}``) become blank lines and are
    remembered by line; inline expressions (``{{ .Values.model }}``) become
    placeholder characters of the same length, so offsets do not move.
    """

    def __init__(self) -> None:
        self.lines: dict[int, str] = {}  # line -> "open" | "close" | "else" | "emit"

    def events(self, first: int, last: int) -> list[tuple[int, str]]:
        return sorted((line, kind) for line, kind in self.lines.items() if first <= line <= last)


def strip_templates(text: str) -> tuple[str, Templates]:
    templates = Templates()
    out_lines = []
    for number, line in enumerate(text.split("\n"), start=1):
        if "{{" in line and _CONTROL_LINE.match(line):
            action = _ACTION.search(line)
            word = action.group(1) if action else ""
            if word in ("if", "with", "range"):
                kind = "open"
            elif word == "end":
                kind = "close"
            elif word == "else":
                kind = "else"
            elif word in ("define", "block"):
                kind = "open"
            else:
                kind = "emit"
            templates.lines[number] = kind
            out_lines.append(" " * len(line))
            continue
        out_lines.append(line)
    stripped = "\n".join(out_lines)

    def placeholder(match: re.Match) -> str:
        return "".join("\n" if ch == "\n" else PLACEHOLDER for ch in match.group(0))

    return _TEMPLATE.sub(placeholder, stripped), templates
