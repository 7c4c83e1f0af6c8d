"""A small LSP client for the tests: JSON-RPC with Content-Length framing over a subprocess's stdio."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

ACTION_KINDS = {"valueSet": ["quickfix", "source", "source.fixAll"]}
SRC = str(Path(__file__).resolve().parent.parent / "src")


def uri(path: Path) -> str:
    return path.resolve().as_uri()


class Client:
    """Spawns ``python -m vllm_lint server`` (or ``command``) and speaks to it as an editor would."""

    def __init__(self, command: list[str] | None = None, cwd: str | None = None) -> None:
        env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.process = subprocess.Popen(
            command or [sys.executable, "-m", "vllm_lint", "server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
        )
        self.messages: queue.Queue = queue.Queue()
        self.notifications: list[dict] = []
        self.next_id = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # ------------------------------------------------------------ wire

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                headers[name.strip().lower()] = value.strip()
            body = stream.read(int(headers["content-length"]))
            self.messages.put(json.loads(body))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.process.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body)
        self.process.stdin.flush()

    def _next(self, deadline: float) -> dict:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("no message from the server in time")
        try:
            message = self.messages.get(timeout=remaining)
        except queue.Empty:
            raise TimeoutError("no message from the server in time") from None
        if message is None:
            raise ConnectionError(f"the server exited: {self.process.stderr.read().decode(errors='replace')}")
        if "id" in message and "method" in message:  # a request from the server: answer it
            self.send({"id": message["id"], "result": None})
        return message

    # ------------------------------------------------------------ messages

    def request(self, method: str, params: dict, timeout: float = 30) -> dict:
        """The response to a request (notifications that arrive meanwhile are kept)."""
        self.next_id += 1
        request_id = self.next_id
        self.send({"id": request_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            message = self._next(deadline)
            if message.get("id") == request_id and "method" not in message:
                return message
            if "method" in message and "id" not in message:
                self.notifications.append(message)

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def wait_for(self, method: str, match=lambda params: True, timeout: float = 30) -> dict:
        """The params of the next notification ``method`` that ``match`` accepts (kept ones first)."""
        for index, message in enumerate(self.notifications):
            if message["method"] == method and match(message["params"]):
                del self.notifications[index]
                return message["params"]
        deadline = time.monotonic() + timeout
        while True:
            message = self._next(deadline)
            if "method" not in message or "id" in message:
                continue
            if message["method"] == method and match(message["params"]):
                return message["params"]
            self.notifications.append(message)

    # ------------------------------------------------------------ the editor's side

    def initialize(self, root: Path, options: dict | None = None) -> dict:
        response = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": uri(root),
                "capabilities": {"textDocument": {"codeAction": {"codeActionLiteralSupport": {"codeActionKind": ACTION_KINDS}}}},
                "initializationOptions": {"debounceMs": 10, **(options or {})},
            },
        )
        self.notify("initialized", {})
        return response["result"]

    def open(self, path: Path, text: str, language: str = "python") -> None:
        self.versions = getattr(self, "versions", {})
        self.versions[uri(path)] = 1
        self.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri(path), "languageId": language, "version": 1, "text": text}}
        )

    def change(self, path: Path, text: str) -> None:
        self.versions[uri(path)] += 1
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri(path), "version": self.versions[uri(path)]}, "contentChanges": [{"text": text}]},
        )

    def diagnostics(self, path: Path, timeout: float = 30) -> list[dict]:
        """The next diagnostics published for the document's latest version."""
        wanted = uri(path)
        version = self.versions.get(wanted)
        params = self.wait_for(
            "textDocument/publishDiagnostics",
            lambda p: p["uri"] == wanted and p.get("version") in (None, version),
            timeout,
        )
        return params["diagnostics"]

    def code_actions(self, path: Path, range_: dict, diagnostics: list[dict], only: list[str] | None = None) -> list[dict]:
        return self._code_actions(uri(path), range_, diagnostics, only)

    def code_actions_for(self, document_uri: str, diagnostic: dict) -> list[dict]:
        return self._code_actions(document_uri, diagnostic["range"], [diagnostic], None)

    def _code_actions(self, document_uri: str, range_: dict, diagnostics: list[dict], only: list[str] | None) -> list[dict]:
        context: dict = {"diagnostics": diagnostics}
        if only is not None:
            context["only"] = only
        params = {"textDocument": {"uri": document_uri}, "range": range_, "context": context}
        response = self.request("textDocument/codeAction", params)
        assert "error" not in response, response
        return response["result"] or []

    def close(self) -> None:
        try:
            if self.process.poll() is None:  # a test may have shut it down already
                self.request("shutdown", None, timeout=10)
                self.notify("exit", None)
                self.process.wait(timeout=10)
        except (TimeoutError, ConnectionError, BrokenPipeError, OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                stream.close()
            except OSError:  # unflushed input to a process that has exited
                pass


def apply_edits(text: str, edits: list[dict]) -> str:
    """``text`` with LSP ``TextEdit``s applied (ASCII text: UTF-16 units are characters)."""
    lines = text.splitlines(keepends=True) or [""]
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position: dict) -> int:
        if position["line"] >= len(lines):
            return len(text)
        return starts[position["line"]] + position["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text
