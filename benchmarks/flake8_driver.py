"""Run flake8 with or without the vllm-lint plugin registered.

    python flake8_driver.py --without-vllm-lint [flake8 arguments]
    python flake8_driver.py --with-vllm-lint [flake8 arguments]

Everything else is identical between the two: the same flake8, the same
plugins, the same options.  The difference of their costs is the plugin's cost
inside flake8 (importing it, its per-file prefilter, and the analysis of the
files that pass it).  With the plugin, the driver also accounts the plugin's
own CPU time inside the process (its import and its ``run`` calls) and prints
it on standard error; that figure is not blurred by run-to-run noise.  ``--select`` alone cannot measure it: flake8 runs every
registered plugin whatever is selected and filters the output afterwards.
"""

from __future__ import annotations

import sys
import time

from flake8.main import cli
from flake8.plugins import finder

PACKAGE = "vllm-lint"


def main(argv: list[str]) -> int:
    mode, argv = argv[0], argv[1:]
    if mode == "--without-vllm-lint":
        found = finder._find_importlib_plugins

        def without_vllm_lint():
            return (plugin for plugin in found() if plugin.package != PACKAGE)

        finder._find_importlib_plugins = without_vllm_lint
    elif mode == "--with-vllm-lint":
        spent = _account_plugin()
        try:
            return cli.main(argv)
        finally:
            print(f"vllm-lint plugin CPU seconds: {spent[0]:.4f}", file=sys.stderr)
    else:
        raise SystemExit("first argument: --with-vllm-lint or --without-vllm-lint")
    return cli.main(argv)


def _account_plugin() -> list[float]:
    """Count the plugin's own CPU time: its import and every ``run`` call."""
    start = time.process_time()
    from vllm_lint.integrations import flake8 as plugin

    spent = [time.process_time() - start]
    run = plugin.VllmLintPlugin.run

    def timed_run(self):
        begin = time.process_time()
        found = list(run(self))
        spent[0] += time.process_time() - begin
        return iter(found)

    plugin.VllmLintPlugin.run = timed_run
    return spent


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
