"""The language server: pygls handlers that turn ``documents``' plain data into LSP messages.

Diagnostics are published when a document is opened, changed (after a pause
in typing: ``debounceMs``) and saved.  Checks and fixes run one at a time on
a worker thread, so the server keeps reading messages while it lints, and a
check made stale by a newer change is not published.  An exception in a
handler is reported to the editor with ``window/logMessage``; the server goes on.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import traceback
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

import vllm_lint.server.documents as documents
from vllm_lint import __version__

logger = logging.getLogger(__name__)


def _settings_file(uri: str) -> bool:
    """Saving it may change the settings of every open document: ``[tool.vllm-lint]``, or a
    requirements file that pins the vLLM release (the target version)."""
    name = unquote(uri.rsplit("/", 1)[-1])
    return name == "pyproject.toml" or (name.startswith("requirements") and name.endswith((".txt", ".in")))


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, except that a request after ``shutdown`` is answered with an
    ``InvalidRequest`` error, as LSP says, instead of being dropped (its client would wait forever)."""

    def handle_message(self, message) -> None:
        method = getattr(message, "method", None)
        request_id = getattr(message, "id", None)
        if self._shutdown and method is not None and request_id is not None:
            error = JsonRpcInvalidRequest(f"the server is shut down: {method} is not served after shutdown")
            self._send_response(request_id, None, error.to_response_error())
            return
        super().handle_message(message)


def _same_file(a: str, b: str) -> bool:
    return os.path.normcase(os.path.abspath(a)) == os.path.normcase(os.path.abspath(b))


class VllmLintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "vllm-lint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full, protocol_cls=_Protocol
        )
        # The URIs of the open documents exactly as the editor wrote them: diagnostics and edits
        # go back under these (pygls keys its documents by another spelling: the decoded URI).
        self.open_uris: list[str] = []
        self.options = documents.Options()
        self.linted: dict[str, documents.Linted] = {}
        self.pending: dict[str, asyncio.Task] = {}
        # One worker: the analysis caches are per process, and checks must not overlap.
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vllm-lint")

    # ---------------------------------------------------------------- reporting

    def report_server_error(self, error: Exception, source) -> None:
        """Any error in a handler: logged to the editor, never fatal."""
        self.log_error(f"vllm-lint: internal error ({getattr(source, '__name__', source)})", error)

    def log_error(self, what: str, error: BaseException) -> None:
        details = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        try:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=f"{what}: {details}"))
        except Exception:  # the connection itself failed: nothing more to tell
            logger.exception("cannot report an error to the client")

    @property
    def encoding(self) -> str:
        encoding = self.workspace.position_encoding
        return str(getattr(encoding, "value", encoding) or "utf-16")

    # ---------------------------------------------------------------- checking

    def document(self, uri: str):
        """The open document of the URI the editor gave (percent-encoded or not), or None."""
        if uri not in self.open_uris:
            return None
        return self.workspace.get_text_document(uri)  # pygls's own lookup: it decodes the URI as it stored it

    def opened(self, uri: str) -> None:
        if uri not in self.open_uris:
            self.open_uris.append(uri)

    def closed(self, uri: str) -> None:
        if uri in self.open_uris:
            self.open_uris.remove(uri)

    def path_of(self, uri: str) -> str | None:
        """The file of a ``file:`` URI (percent-decoded, drive letter kept); None for ``untitled:`` and the like."""
        return to_fs_path(uri) if uri.lower().startswith("file:") else None

    def uri_of(self, path: str, document_uri: str, document_path: str | None) -> str:
        """The URI for edits of ``path``: the editor's own URI when the file is open in it."""
        if path == "-" or (document_path is not None and _same_file(path, document_path)):
            return document_uri
        for uri in self.open_uris:
            open_path = self.path_of(uri)
            if open_path is not None and _same_file(path, open_path):
                return uri
        return from_fs_path(path)

    def _open_texts(self, besides: str) -> dict[str, str]:
        """The unsaved text of the other open documents, by path (the analysis reads them)."""
        texts = {}
        for uri in list(self.open_uris):
            path = self.path_of(uri)
            document = self.document(uri)
            if uri != besides and path is not None and document is not None:
                texts[path] = document.source
        return texts

    def _lint(self, uri: str, text: str, language: str | None, others: dict[str, str]) -> documents.Linted:
        """On the worker thread."""
        documents.use_open_documents(others)
        path = self.path_of(uri) or "-"
        return documents.lint_document(path, text, language, self.options, self.workspace.root_path)

    async def linted_now(self, uri: str) -> documents.Linted | None:
        """The document's check for its current text: the last one, or a new one."""
        document = self.document(uri)
        if document is None:
            return None
        text = document.source
        last = self.linted.get(uri)
        if last is not None and last.text == text:
            return last
        linted = await asyncio.get_running_loop().run_in_executor(
            self.worker, self._lint, uri, text, document.language_id, self._open_texts(uri)
        )
        self.linted[uri] = linted
        return linted

    def schedule(self, uri: str, delay: float = 0.0) -> None:
        """Check a document after ``delay`` seconds; a newer request replaces a pending one."""
        pending = self.pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self.pending[uri] = asyncio.get_running_loop().create_task(self._check(uri, delay))

    async def _check(self, uri: str, delay: float) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            document = self.document(uri)
            if document is None:
                return
            linted = await self.linted_now(uri)
            current = self.document(uri)
            if linted is None or current is None or current.source != linted.text:
                return  # changed while it was checked: the newer check publishes
            self.publish(uri, document.version, documents.diagnostics(linted, self.encoding))
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self.log_error(f"vllm-lint: cannot check {uri}", error)
        finally:
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]

    def publish(self, uri: str, version: int | None, found: list[documents.Diagnostic]) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=[_diagnostic(d) for d in found])
        )

    def recheck_all(self) -> None:
        self.linted.clear()
        for uri in list(self.open_uris):
            self.schedule(uri)


def _range(value: documents.Range) -> types.Range:
    (start_line, start_char), (end_line, end_char) = value
    return types.Range(
        start=types.Position(line=start_line, character=start_char), end=types.Position(line=end_line, character=end_char)
    )


def _diagnostic(found: documents.Diagnostic) -> types.Diagnostic:
    return types.Diagnostic(
        range=_range(found.range),
        message=found.message,
        severity=types.DiagnosticSeverity.Error,
        code=found.code,
        code_description=types.CodeDescription(href=found.href) if found.href else None,
        source=documents.SOURCE,
    )


def _wanted(kind: str, only: list[str] | None) -> bool:
    """The client asked for this kind of action (``only`` lists kinds and their parents)."""
    return not only or any(kind == asked or kind.startswith(f"{asked}.") for asked in only)


def build_server() -> VllmLintServer:
    server = VllmLintServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: VllmLintServer, params: types.InitializeParams) -> None:
        ls.options = documents.Options.from_client(params.initialization_options)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: VllmLintServer, params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict):
            ls.options = documents.Options.from_client(settings.get("vllm-lint", settings))
            ls.recheck_all()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: VllmLintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.opened(params.text_document.uri)
        ls.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: VllmLintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, ls.options.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(ls: VllmLintServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if _settings_file(uri):
            ls.recheck_all()  # the settings of every open document may have changed
            return
        ls.linted.pop(uri, None)  # files it imports may have been saved since
        ls.schedule(uri)
        if uri.endswith((".py", ".pyi")):
            # Other open modules may import this one: their findings may have changed with it.
            for other in list(ls.open_uris):
                if other != uri and other.endswith((".py", ".pyi")):
                    ls.linted.pop(other, None)
                    ls.schedule(other, ls.options.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: VllmLintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.closed(uri)
        pending = ls.pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        ls.linted.pop(uri, None)
        ls.publish(uri, None, [])

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, documents.FIX_ALL_KIND], resolve_provider=False
        ),
    )
    async def code_action(ls: VllmLintServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        uri = params.text_document.uri
        linted = await ls.linted_now(uri)
        if linted is None:
            return None
        only = [str(getattr(kind, "value", kind)) for kind in params.context.only] if params.context.only else None
        wanted = ((params.range.start.line, params.range.start.character), (params.range.end.line, params.range.end.character))
        encoding = ls.encoding
        open_texts = ls._open_texts(uri)

        def compute() -> list[documents.Action]:  # on the worker
            documents.use_open_documents(open_texts)
            actions: list[documents.Action] = []
            if _wanted(types.CodeActionKind.QuickFix.value, only):
                actions += documents.quick_fixes(linted, documents.findings_in(linted, wanted, encoding), encoding)
            if _wanted(documents.FIX_ALL_KIND, only):
                fix_all = documents.fix_all(linted, encoding)
                if fix_all is not None:
                    actions.append(fix_all)
            return actions

        actions = await asyncio.get_running_loop().run_in_executor(ls.worker, compute)
        path = ls.path_of(uri)
        return [_code_action(action, uri, path, ls) for action in actions]

    return server


def _code_action(action: documents.Action, uri: str, path: str | None, ls: VllmLintServer) -> types.CodeAction:
    changes = {
        ls.uri_of(target, uri, path): [types.TextEdit(range=_range(edit.range), new_text=edit.new_text) for edit in edits]
        for target, edits in action.edits.items()
    }
    return types.CodeAction(
        title=action.title,
        kind=action.kind,
        diagnostics=[_diagnostic(d) for d in action.diagnostics] or None,
        is_preferred=action.preferred or None,
        edit=types.WorkspaceEdit(changes=changes),
    )


def _warm_up() -> None:
    """Load the front ends and the fixer before the first document needs them (on the worker)."""
    import vllm_lint.commandline  # noqa: F401
    import vllm_lint.fix.python  # noqa: F401  (libcst)
    import vllm_lint.python.analyzer  # noqa: F401
    import vllm_lint.rules  # noqa: F401

    # The analysis makes many short-lived containers: with the modules loaded kept out of the
    # collector's way and a larger first generation, a check spends less time collecting.
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def serve() -> None:
    server = build_server()
    server.worker.submit(_warm_up)
    server.start_io()
