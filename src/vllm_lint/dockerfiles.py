"""Dockerfiles as text: their instructions, build arguments and variable substitution, and
the vLLM release a Dockerfile says the code it builds runs on (for the folder's pins).

The front end that reads a Dockerfile's commands (``commandline.dockerfile``) and the
pins (``pins``) share this; nothing here knows of words, facts or rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_INSTRUCTION = re.compile(r"^[ \t]*([A-Za-z]+)(?=[ \t]|$)[ \t]*")
_DIRECTIVE = re.compile(r"^#[ \t]*([A-Za-z]+)[ \t]*=[ \t]*(\S+)[ \t]*$")
_HEREDOC = re.compile(r"<<-?[ \t]*[\"']?([A-Za-z_][A-Za-z0-9_]*)")


@dataclass
class Instruction:
    keyword: str
    text: str
    offs: list[int]
    start: int  # file offset of the keyword
    heredoc: bool = False


def instructions(text: str) -> list[Instruction]:
    lines = text.split("\n")
    starts = []
    offset = 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    escape = "\\"
    result: list[Instruction] = []
    index = 0
    in_directives = True
    while index < len(lines):
        line = lines[index].rstrip("\r")
        stripped = line.strip()
        if in_directives:
            directive = _DIRECTIVE.match(stripped)
            if directive:
                if directive.group(1).lower() == "escape" and directive.group(2) in ("`", "\\"):
                    escape = directive.group(2)
                index += 1
                continue
            in_directives = False
        if not stripped or stripped.startswith("#"):
            index += 1
            continue
        match = _INSTRUCTION.match(line)
        if not match:
            index += 1
            continue
        keyword = match.group(1).upper()
        chars: list[str] = []
        offs: list[int] = []
        column = match.end()
        first = index
        while True:
            content = line[column:]
            base = starts[index] + column
            continued = False
            trimmed = content.rstrip(" \t")
            if trimmed.endswith(escape):
                content = trimmed[:-1]
                continued = True
            chars.extend(content)
            offs.extend(range(base, base + len(content)))
            if not continued:
                break
            index += 1
            while index < len(lines) and (not lines[index].strip() or lines[index].strip().startswith("#")):
                index += 1
            if index >= len(lines):
                break
            line = lines[index].rstrip("\r")
            column = 0
        text_value = "".join(chars)
        instruction = Instruction(keyword, text_value, offs, starts[first] + len(lines[first]) - len(lines[first].lstrip()))
        if keyword in ("RUN", "COPY", "ADD"):
            heredoc = _HEREDOC.search(text_value)
            if heredoc:
                instruction.heredoc = True
                delimiter = heredoc.group(1)
                index += 1
                while index < len(lines) and lines[index].rstrip("\r").strip() != delimiter:
                    index += 1
        result.append(instruction)
        index += 1
    return result


_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([-+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def substituted(text: str, values: dict[str, str]) -> str:
    """``$NAME``, ``${NAME}``, ``${NAME:-word}`` and ``${NAME:+word}`` replaced as the Dockerfile
    reference defines them, from ``values``; a reference to an unknown name stays as written."""

    def value(match: re.Match) -> str:
        name = match.group(1) or match.group(4)
        operator, word = match.group(2), match.group(3)
        if name in values:
            current = values[name]
            if operator == "+":
                return word if current else ""
            return current or (word if operator == "-" else "")
        if operator == "-":
            return word
        return match.group(0)

    return _REFERENCE.sub(value, text)


def argument_defaults(text: str) -> dict[str, str]:
    """``ARG NAME=default [NAME2=default2]``: the defaults written (quotes removed)."""
    return {name: value.strip("\"'") for name, value in re.findall(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|\S*)", text)}


def declared_arguments(text: str, values: dict[str, str], global_args: dict[str, str]) -> None:
    """An ``ARG`` in a stage: its own default, or the global ARG's of that name (which a stage
    must declare to use); a name with neither is unknown (given at build time)."""
    defaults = argument_defaults(text)
    for name in re.findall(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)", text):
        if name in defaults:
            values[name] = defaults[name]
        elif name in global_args:
            values[name] = global_args[name]
        else:
            values.pop(name, None)


def exec_form(text: str) -> list[str] | None:
    """The strings of an exec-form (JSON array) instruction; None for the shell form."""
    import json

    stripped = text.strip()
    if not stripped.startswith("["):
        return None
    try:
        values = json.loads(stripped)
    except (ValueError, RecursionError):
        return None
    if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
        return None
    return values
