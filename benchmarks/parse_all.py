"""The yardstick: read and ``ast.parse`` every ``.py`` file under the given folders.

Run as its own process by ``run.py``, which measures it like any other tool.
Files that do not parse are counted and skipped; each tree is dropped at once.
"""

from __future__ import annotations

import ast
import os
import sys


def main(roots: list[str]) -> int:
    parsed = failed = 0
    for root in roots:
        for directory, subdirs, names in os.walk(root):
            subdirs.sort()
            for name in sorted(names):
                if not name.endswith(".py"):
                    continue
                with open(os.path.join(directory, name), "rb") as handle:
                    data = handle.read()
                try:
                    ast.parse(data)
                    parsed += 1
                except (SyntaxError, ValueError):
                    failed += 1
    print(f"parsed {parsed} files, {failed} failed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
