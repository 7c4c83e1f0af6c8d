"""How a file's bytes become text, so the fixed text becomes bytes the same way (encoding, BOM, line endings)."""

from __future__ import annotations

import codecs
import io
import tokenize
from dataclasses import dataclass


@dataclass
class Encoded:
    """How a file's bytes became text, so the fixed text becomes bytes the same way."""

    encoding: str  # a codec that reproduces the BOM ("utf-8-sig") where there was one
    newline: str


def decode_python(data: bytes) -> tuple[str, Encoded]:
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    if text.startswith("\ufeff"):  # a BOM with a cookie naming another spelling of UTF-8
        text, encoding = text[1:], "utf-8-sig"
    return text, Encoded(encoding, _newline_of(text))


def decode_text(data: bytes) -> tuple[str, Encoded]:
    if data.startswith(codecs.BOM_UTF8):
        text = data[len(codecs.BOM_UTF8) :].decode("utf-8")
        return text, Encoded("utf-8-sig", _newline_of(text))
    text = data.decode("utf-8")
    return text, Encoded("utf-8", _newline_of(text))


def _newline_of(text: str) -> str:
    index = text.find("\n")
    if index > 0 and text[index - 1] == "\r":
        return "\r\n"
    if index == -1 and "\r" in text:
        return "\r"
    return "\n"
