"""Edits that add words to a command line where they are written, keeping its layout.

Shared by the command-line fixes and the framework packs' fixes (a Hydra override
token appended to a launch command).
"""

from __future__ import annotations

import re

from vllm_lint.launch.words import CONFIG, JSON, SHELL, YAML_BLOCK, Source, Word


def insert_after(source: Source, nl: str, word: Word, texts: list[str]) -> tuple[int, int, str] | None:
    """An edit ``(start, end, text)`` adding ``texts`` as words after ``word``, in its layout:
    the same continuation line style (shell), list quoting (JSON), ``- item`` lines (YAML),
    or a ``key: value`` line (a config file's entry); None when no layout fits."""
    line, _ = source.position(word.end)
    line_start, line_end = source.line_bounds(line)
    rest = source.text[word.end : line_end]
    if word.style == SHELL:
        joined = " ".join(texts)
        continued = re.fullmatch(r"[ \t]*\\[ \t]*", rest)
        if word.multiline and continued and line < source.line_count:
            next_start, next_end = source.line_bounds(line + 1)
            next_text = source.text[next_start:next_end]
            indent = re.match(r"[ \t]*", next_text).group(0) if next_text.strip() else indent_of(source, line)
            return next_start, next_start, f"{indent}{joined} \\{nl}"
        if word.multiline and not rest.strip() and line > 1:
            prev_start, prev_end = source.line_bounds(line - 1)
            if re.search(r"\\[ \t]*$", source.text[prev_start:prev_end]):
                return word.end, word.end, f" \\{nl}{indent_of(source, line)}{joined}"
        return word.end, word.end, " " + joined
    if word.style == JSON:
        quote = word.quote if word.quote in ('"', "'") else ""
        return word.end, word.end, "".join(f", {quote}{text}{quote}" for text in texts)
    if word.style == CONFIG:
        return _insert_config_entry(source, word, texts, nl)
    if word.style == YAML_BLOCK:
        before = source.text[line_start : word.start]
        match = re.fullmatch(r"([ \t]*)-[ \t]+", before)
        if not match or re.fullmatch(r"[ \t]*(#.*)?", rest) is None or line >= source.line_count:
            return None
        quote = word.quote if word.quote in ('"', "'") else ""
        next_start = source.line_starts[line]
        indent = match.group(1)
        lines = "".join(f"{indent}- {quote}{text}{quote}{nl}" for text in texts)
        return next_start, next_start, lines
    return None


def _insert_config_entry(source: Source, word: Word, texts: list[str], nl: str) -> tuple[int, int, str] | None:
    """``--flag value`` as a new ``flag: value`` line after a config file's entry, in its key spelling."""
    key_node, value_node = word.extra.get("key_node"), word.extra.get("value_node")
    if key_node is None or len(texts) != 2 or not texts[0].startswith("--"):
        return None
    entry = entry_lines(source, key_node.start_mark.index, value_node.end_mark.index)
    if entry is None:
        return None
    start, stop, _ = entry
    if stop > len(source.text) or (stop == len(source.text) and not source.text.endswith("\n")):
        return None  # the entry ends the file without a line break
    key_text = source.text[key_node.start_mark.index : key_node.end_mark.index]
    name = texts[0][2:]
    if "_" in key_text and "-" not in key_text:
        name = name.replace("-", "_")
    indent = source.text[start : key_node.start_mark.index]
    return stop, stop, f"{indent}{name}: {texts[1]}{nl}"


def indent_of(source: Source, line: int) -> str:
    start, end = source.line_bounds(line)
    return re.match(r"[ \t]*", source.text[start:end]).group(0)


def entry_lines(source: Source, start: int, end: int) -> tuple[int, int, str] | None:
    """Whole lines from a mapping key to the end of its value."""
    key_line, _ = source.position(start)
    line_start, _ = source.line_bounds(key_line)
    if source.text[line_start:start].strip():
        return None
    last = end - 1 if end > start and source.text[end - 1] == "\n" else end
    end_line, _ = source.position(max(last, start))
    _, line_end = source.line_bounds(end_line)
    if not re.fullmatch(r"[ \t]*(#.*)?", source.text[end:line_end] if end <= line_end else ""):
        return None
    stop = source.line_starts[end_line] if end_line < source.line_count else len(source.text)
    return line_start, stop, ""
