"""What the framework packs cost on a tree without framework configs.

Run as its own process by ``run.py`` (or by hand: ``python benchmarks/framework_packs.py ROOT``):
every file ``vllm-lint check`` would read as a command-line or config file
(shell, Dockerfile, YAML, TOML) goes through the packs' byte prefilter; the
script prints the in-process CPU seconds of those prefilter calls, how many
files passed it, and how many pack modules were imported (0 expected).
"""

from __future__ import annotations

import os
import sys
import time


def main(roots: list[str]) -> int:
    from vllm_lint.commandline import _framework_prefilter
    from vllm_lint.commandline.kinds import command_file_kind

    seen = passed = 0
    spent = 0.0
    for root in roots:
        for directory, subdirs, names in os.walk(root):
            subdirs.sort()
            for name in sorted(names):
                path = os.path.join(directory, name)
                kind = command_file_kind(path)
                if kind is None:
                    continue
                with open(path, "rb") as handle:
                    data = handle.read()
                start = time.process_time()
                config, launch = _framework_prefilter(data, kind, path)
                spent += time.process_time() - start
                seen += 1
                passed += bool(config or launch)
    loaded = sorted(m for m in sys.modules if m.startswith("vllm_lint.frameworks.packs."))
    print(f"framework prefilter: {spent:.4f}s CPU over {seen} config/command files, {passed} passed, packs loaded: {len(loaded)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
