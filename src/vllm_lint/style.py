"""Colour in terminal output: on when writing to a terminal, as ruff does.

``NO_COLOR`` (any non-empty value) turns it off and wins over ``FORCE_COLOR``,
which turns it on for pipes too (https://no-color.org, https://force-color.org).
"""

from __future__ import annotations

import os
from typing import TextIO

BOLD, RED, BLUE, CYAN = "1", "31", "34", "36"
BRIGHT_RED, BRIGHT_BLUE, BRIGHT_CYAN = "91", "94", "96"


def colour_enabled(stream: TextIO, environ=os.environ) -> bool:
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    if environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


class Style:
    """Wraps text in ANSI styles, or leaves it alone when colour is off."""

    def __init__(self, enabled: bool = False) -> None:
        self.enabled = enabled

    @classmethod
    def for_stream(cls, stream: TextIO) -> "Style":
        return cls(colour_enabled(stream))

    def __call__(self, text: str, *codes: str) -> str:
        if not self.enabled or not codes or not text:
            return text
        return f"\x1b[{';'.join(codes)}m{text}\x1b[0m"


PLAIN = Style(False)
