"""Words of a command line, and where each was written.

Every front end of this package (shell, Dockerfile, YAML, Python argv) turns
what it reads into ``Word`` objects: one argv element each, with its text when
certain, and the file offsets a finding points at and a fix edits.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from vllm_lint.facts import Span

_NEWLINE = re.compile(r"\n")


class Source:
    """A decoded file: offsets to (line, column) and back."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.line_starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]

    def position(self, offset: int) -> tuple[int, int]:
        """1-based line, 0-based column of a character offset."""
        offset = max(0, min(offset, len(self.text)))
        index = bisect.bisect_right(self.line_starts, offset) - 1
        return index + 1, offset - self.line_starts[index]

    def offset(self, line: int, col: int) -> int:
        return self.line_starts[line - 1] + col

    def span(self, start: int, end: int | None = None) -> Span:
        line, col = self.position(start)
        if end is None or end < start:
            return Span(line, col)
        end_line, end_col = self.position(end)
        return Span(line, col, end_line, end_col)

    def line_text(self, line: int) -> str:
        start = self.line_starts[line - 1]
        end = self.line_starts[line] - 1 if line < len(self.line_starts) else len(self.text)
        return self.text[start:end].rstrip("\r")

    def line_bounds(self, line: int) -> tuple[int, int]:
        """Offsets of a line's first character and of its end (before the newline)."""
        start = self.line_starts[line - 1]
        end = self.line_starts[line] - 1 if line < len(self.line_starts) else len(self.text)
        if end > start and self.text[end - 1] == "\r":
            end -= 1
        return start, end

    @property
    def line_count(self) -> int:
        return len(self.line_starts)


# Layouts a word can sit in; they decide how a fix inserts or removes words.
SHELL = "shell"  # words separated by blanks, lines joined with a backslash
JSON = "json"  # items of a JSON / Python / YAML flow list: "a", "b"
YAML_BLOCK = "yaml-block"  # items of a YAML block sequence, one "- item" per line
CONFIG = "config"  # a key of a vLLM --config YAML file
NONE = "none"  # no edits


@dataclass(eq=False)
class Word:
    """One argv element.

    ``text`` is None when the content is unknown (``prefix`` is the part that
    is certain).  ``open`` marks an expansion to any number of unknown words
    (an unquoted ``$VAR``); ``maybe`` an element that may be absent (inside a
    template conditional).  ``start``/``end`` are the raw source range in the
    linted file (quotes included), ``offs`` the offset of each character of
    ``text`` (-1 where it came from elsewhere, e.g. a variable's value).
    ``path`` is set for words read from another file (a ``--config`` YAML).
    ``suffix`` is the certain end of an unknown word (``$ROOT/examples/run.py``
    ends in ``/examples/run.py``): enough to recognise a script by its path.
    """

    text: str | None
    start: int = -1
    end: int = -1
    offs: list[int] | None = None
    open: bool = False
    maybe: bool = False
    prefix: str = ""
    style: str = SHELL
    path: str | None = None
    kind: str = "flag"
    # Layout details for fixes: whether new lines may be inserted next to the
    # word, the quote a list item uses, and for config keys the entry's range.
    multiline: bool = True
    quote: str = ""
    extra: dict = field(default_factory=dict)
    suffix: str = ""

    @property
    def known(self) -> bool:
        return self.text is not None and not self.open

    @property
    def located(self) -> bool:
        return self.start >= 0 and self.path is None

    def sub_offsets(self, first: int, last: int) -> tuple[int, int] | None:
        """File offsets of ``text[first:last]`` when it is written contiguously in the file."""
        if self.offs is None or self.path is not None or not (0 <= first < last <= len(self.offs)):
            return None
        begin = self.offs[first]
        if begin < 0:
            return None
        for index in range(first, last):
            if self.offs[index] != begin + (index - first):
                return None
        return begin, begin + (last - first)

    def exact_raw(self, source: Source) -> bool:
        """The raw source text is exactly the word's text (no quotes or escapes)."""
        return (
            self.text is not None
            and self.located
            and source.text[self.start : self.end] == self.text
        )


def open_word(start: int = -1, end: int = -1, maybe: bool = False) -> Word:
    return Word(None, start, end, open=True, maybe=maybe, style=NONE)


def synthetic(text: str, anchor: Word | None = None) -> Word:
    """A word that is not written anywhere (an image's entrypoint); located at ``anchor``."""
    if anchor is None:
        return Word(text, style=NONE)
    return Word(text, anchor.start, anchor.end, offs=None, style=NONE, path=anchor.path)
