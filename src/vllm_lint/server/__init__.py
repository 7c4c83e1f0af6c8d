"""``vllm-lint server``: a language server over standard input and output.

Editors get the findings of ``vllm-lint check`` as diagnostics while the text
is typed, and its fixes as code actions: each finding's fix, a noqa comment
for its line, and "Fix all vllm-lint issues".  It needs the ``server`` extra
(pygls and lsprotocol); ``check`` never imports this package.
"""

from __future__ import annotations

import sys

INSTALL_HINT = "vllm-lint server needs pygls and lsprotocol: install vllm-lint[server] (pip install 'vllm-lint[server]')"


def main() -> int:
    """Serve until the editor exits; 2 when the server's dependencies are not installed."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError as error:
        sys.stderr.write(f"vllm-lint: error: {INSTALL_HINT} ({error})\n")
        return 2
    from vllm_lint.server.protocol import serve

    serve()
    return 0
