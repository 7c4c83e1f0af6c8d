"""The releases and data of ``vllm_schema.json``, read on first use.

Apart from ``schema`` (which builds each release's view of the data) so that
``versions`` can name runs of the schema's releases without importing it back.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vllm_schema.json")


@lru_cache(maxsize=1)
def _data() -> dict:
    with open(_DATA, encoding="utf-8") as handle:
        return json.load(handle)


@lru_cache(maxsize=1)
def releases() -> tuple[tuple[int, int], ...]:
    """The minor releases the schema was generated from, oldest first."""
    return tuple(tuple(int(part) for part in text.split(".")) for text in _data()["releases"])  # type: ignore[misc]


def before_known() -> tuple[int, int]:
    """The minor release just before the schema's oldest: it stands for every release the rules
    do not know, so a range that admits it admits them (nothing release-dependent holds there)."""
    major, minor = releases()[0]
    return (major, minor - 1)
