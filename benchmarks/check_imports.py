"""What ``vllm-lint check`` imports: nothing of the editor tooling, and no libcst/astroid on a clean file.

Run as its own process by ``run.py`` (or by hand: ``python benchmarks/check_imports.py [PATH ...]``):
``check`` runs in this process on each PATH (default: a clean file written for
the purpose), then the modules it loaded are listed.  The language server
(``vllm_lint.server``, pygls, lsprotocol) and ``vllm-lint explain``
(``vllm_lint.explain*``) must never load; on the clean file neither may libcst
(the fixer's) nor astroid (the pylint plugin's).  Prints one line and exits 1
when something was loaded that should not have been.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile

NEVER = ("pygls", "lsprotocol", "vllm_lint.server", "vllm_lint.explain")
NOT_ON_A_CLEAN_FILE = ("libcst", "astroid")
CLEAN = "import json\n\n\ndef report(results: dict) -> str:\n    return json.dumps(results, indent=2)\n"


def loaded(prefixes: tuple[str, ...]) -> list[str]:
    """The loaded modules named by ``prefixes``: a package and its modules; for ours, any name
    that starts so (``vllm_lint.explain*``)."""

    def named(module: str, prefix: str) -> bool:
        if module == prefix or module.startswith(prefix + "."):
            return True
        return prefix.startswith("vllm_lint.") and module.startswith(prefix)

    return sorted(module for module in sys.modules if any(named(module, prefix) for prefix in prefixes))


def run_check(paths: list[str]) -> list[str]:
    from vllm_lint.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        main(["check", "--quiet", "--exit-zero", *paths])
    return loaded(NEVER)


def main(argv: list[str]) -> int:
    if argv:
        wrong = run_check(argv)
        label = " ".join(argv)
    else:
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "report.py")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(CLEAN)
            wrong = run_check([path]) + loaded(NOT_ON_A_CLEAN_FILE)
            label = "a clean file"
    packages = sorted({name if name.startswith("vllm_lint.") else name.split(".")[0] for name in wrong})
    print(f"check imports on {label}: {', '.join(packages) if packages else 'none of the editor tooling'}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
