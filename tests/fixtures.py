"""Fixture files with inline expectations.

A line that should produce a finding ends with ``# expect: VLM105`` (several:
``# expect: VLM101, VLM105``; a 1-based column: ``VLM105:7``).  A fixture may
start with ``# target-version: 0.30``; without it the newest release is used.
Shell, YAML and Dockerfile fixtures use the same comments.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"
EXPECT_RE = re.compile(r"#\s*expect:\s*(?P<codes>VLM\d{3}(?::\d+)?(?:\s*,\s*VLM\d{3}(?::\d+)?)*)")
TARGET_RE = re.compile(r"#\s*target-version:\s*(?P<version>\S+)")


def expectations(text: str) -> tuple[set[tuple[int, str]], dict[tuple[int, str], set[int]]]:
    expected: set[tuple[int, str]] = set()
    columns: dict[tuple[int, str], set[int]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = EXPECT_RE.search(line)
        if not match:
            continue
        for item in re.split(r"\s*,\s*", match.group("codes")):
            code, _, column = item.partition(":")
            expected.add((number, code))
            if column:
                columns.setdefault((number, code), set()).add(int(column))
    return expected, columns


def target_version(text: str) -> str | None:
    for line in text.splitlines()[:5]:
        match = TARGET_RE.search(line)
        if match:
            return match.group("version")
    return None


def fixture_files(*kinds: str) -> list[Path]:
    files: list[Path] = []
    for kind in kinds:
        folder = TESTDATA / kind
        if folder.is_dir():
            files.extend(sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.endswith(".fixed")))
    return files
