"""An independent LSP client for skill-lsp: pytest-lsp (pygls + lsprotocol) driving the real
binary with the capability sets that Neovim 0.11, VS Code 1.65.2 and Emacs 29.1 (eglot) send.

The Rust e2e tests (tests/it/lsp.rs) speak hand-written JSON; this suite cross-checks the server
against a second implementation of the protocol, its type definitions and its spec checks
(`LspSpecificationWarning`s are turned into errors, see pytest.ini).

The server binary comes from $SKILL_LSP_BIN (default: target/debug/skill-lsp).
"""

from __future__ import annotations

import asyncio
import os
import pathlib
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

REPO = pathlib.Path(__file__).resolve().parents[2]
SERVER_BIN = os.environ.get("SKILL_LSP_BIN") or str(REPO / "target" / "debug" / "skill-lsp")
TIMEOUT = 10.0

# The recorded capability sets shipped with pytest-lsp 1.0.1 (pytest_lsp/clients/*.json).
CLIENTS = ["neovim@v0.11.0", "visual-studio-code@v1.65.2", "emacs@v29.1"]

PDF = "---\nname: pdf\ndescription: Fills PDF forms. Use when the user has a PDF form.\n---\n# PDF\n\nRun scripts/fill.py.\n"
CODE_REVIEW = "---\nname: code-review\ndescription: Reviews a diff for bugs. Use when asked to review code.\n---\n# Code review\n"


# --- positions -------------------------------------------------------------------------------


def units(text: str, encoding: str) -> int:
    """The length of `text` in the code units of a negotiated position encoding."""
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8"))
    if encoding == types.PositionEncodingKind.Utf16:
        return len(text.encode("utf-16-le")) // 2
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    raise AssertionError(f"unknown position encoding {encoding!r}")


def position(text: str, offset: int, encoding: str) -> types.Position:
    """The LSP position of the character at `offset` (a str index) in `text`."""
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return types.Position(line=line, character=units(text[start:offset], encoding))


def span(text: str, needle: str, encoding: str) -> types.Range:
    """The range of the one occurrence of `needle` in `text`."""
    assert text.count(needle) == 1, f"{needle!r} must occur once in {text!r}"
    offset = text.index(needle)
    return types.Range(
        start=position(text, offset, encoding),
        end=position(text, offset + len(needle), encoding),
    )


def offset_of(text: str, pos: types.Position, encoding: str) -> int:
    """The str index of an LSP position (the inverse of `position`)."""
    lines = text.split("\n")
    assert pos.line < len(lines), f"{pos} is past the end of the text"
    base = sum(len(line) + 1 for line in lines[: pos.line])
    line = lines[pos.line]
    count = 0
    for index, char in enumerate(line):
        if count == pos.character:
            return base + index
        assert count < pos.character, f"{pos} splits a character of {line!r}"
        count += units(char, encoding)
    assert count == pos.character, f"{pos} is past the end of {line!r}"
    return base + len(line)


def apply_edits(text: str, edits: list[types.TextEdit], encoding: str) -> str:
    """Applies non-overlapping text edits the way an editor does (all against the old text)."""
    spans = sorted(
        ((offset_of(text, e.range.start, encoding), offset_of(text, e.range.end, encoding), e.new_text) for e in edits),
        reverse=True,
    )
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


def edits_for(edit: types.WorkspaceEdit, uri: str) -> list[types.TextEdit]:
    """The text edits of `uri` in a workspace edit, whether it uses `changes` or `documentChanges`."""
    found: list[types.TextEdit] = []
    if edit.changes:
        found.extend(edit.changes.get(uri, []))
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit) and change.text_document.uri == uri:
            found.extend(e for e in change.edits if isinstance(e, types.TextEdit))
    return found


# --- the client ------------------------------------------------------------------------------


class SkillClient(LanguageClient):
    """A pytest-lsp client plus what the tests need: the workspace, the negotiated encoding,
    push/pull diagnostics, every publish (with its version) and every registration."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.root: pathlib.Path = pathlib.Path()
        self.client_name = ""
        self.init_result: types.InitializeResult | None = None
        self.published: list[types.PublishDiagnosticsParams] = []
        self.registrations: list[types.Registration] = []
        self.raw_messages: list[Any] = []
        self._publish_event = asyncio.Event()
        self.versions: dict[str, int] = {}

    @property
    def encoding(self) -> str:
        assert self.init_result is not None
        return self.init_result.capabilities.position_encoding or types.PositionEncodingKind.Utf16

    @property
    def pull(self) -> bool:
        """Whether the server chose pull diagnostics (it does so only for clients that can pull)."""
        assert self.init_result is not None
        return self.init_result.capabilities.diagnostic_provider is not None

    def uri(self, relative: str) -> str:
        return (self.root / relative).as_uri()

    def on_publish(self, params: types.PublishDiagnosticsParams) -> None:
        self.published.append(params)
        self.diagnostics[params.uri] = params.diagnostics
        self._publish_event.set()

    def open(self, relative: str, text: str) -> str:
        uri = self.uri(relative)
        self.versions[uri] = 1
        self.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text)
            )
        )
        return uri

    def change(self, uri: str, changes: list[types.TextDocumentContentChangeEvent]) -> int:
        self.versions[uri] += 1
        version = self.versions[uri]
        self.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=changes,
            )
        )
        return version

    async def wait_for_publish(self, uri: str, version: int | None) -> types.PublishDiagnosticsParams:
        """The first publish for `uri` at `version` (any version when None)."""

        async def wait() -> types.PublishDiagnosticsParams:
            while True:
                for params in self.published:
                    if params.uri == uri and (version is None or params.version == version):
                        return params
                self._publish_event.clear()
                await self._publish_event.wait()

        try:
            return await asyncio.wait_for(wait(), TIMEOUT)
        except TimeoutError:
            raise AssertionError(
                f"no publishDiagnostics for {uri} version {version}; got {[(p.uri, p.version) for p in self.published]}"
            ) from None

    async def current_diagnostics(self, uri: str) -> list[types.Diagnostic]:
        """The diagnostics of the latest version of an open document, pulled or pushed as the
        server announced in its capabilities."""
        if self.pull:
            report = await self.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
            )
            assert isinstance(report, types.RelatedFullDocumentDiagnosticReport), report
            return list(report.items)
        params = await self.wait_for_publish(uri, self.versions[uri])
        return list(params.diagnostics)

    async def catalog(self) -> Any:
        """The `skill/catalog` custom request (pygls gives the result as attribute objects)."""
        return await self.protocol.send_request_async("skill/catalog", {})


def make_client() -> SkillClient:
    client = SkillClient(converter_factory=default_converter)
    register_lsp_features(
        client,
        {m: f for m, f in DEFAULT_CLIENT_FEATURES.items() if m != types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS},
    )

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: types.PublishDiagnosticsParams) -> None:
        client.on_publish(params)

    # Real editors accept dynamic registration (window/workDoneProgress/create is a default
    # feature of pytest-lsp); without these pytest-lsp answers MethodNotFound and fails the test.
    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)

    @client.feature(types.CLIENT_UNREGISTER_CAPABILITY)
    def unregister(params: types.UnregistrationParams) -> None:
        return None

    # No request may hang the suite: every request of the client gets a deadline.
    send_request_async = client.protocol.send_request_async

    async def send_request_with_deadline(method: str, params: Any = None, msg_id: Any = None) -> Any:
        try:
            return await asyncio.wait_for(send_request_async(method, params, msg_id), TIMEOUT)
        except TimeoutError:
            raise AssertionError(f"no response to {method} within {TIMEOUT} s") from None

    client.protocol.send_request_async = send_request_with_deadline  # type: ignore[method-assign]

    # Record every message as it arrives, responses to nobody included (malformed-input test).
    handle_message = client.protocol.handle_message

    def record(message: Any) -> None:
        client.raw_messages.append(message)
        handle_message(message)

    client.protocol.handle_message = record  # type: ignore[method-assign]
    return client


@pytest.fixture
def workspace(tmp_path: pathlib.Path) -> pathlib.Path:
    """A workspace folder with two skills on disk (and a file the pdf skill links to)."""
    for relative, text in {
        "skills/pdf/SKILL.md": PDF,
        "skills/pdf/scripts/fill.py": "print('fill')\n",
        "skills/code-review/SKILL.md": CODE_REVIEW,
    }.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[SERVER_BIN, "serve", "--stdio"], client_factory=make_client),
    params=CLIENTS,
    ids=["neovim-0.11", "vscode-1.65.2", "emacs-29.1"],
)
async def client(request: pytest.FixtureRequest, lsp_client: SkillClient, workspace: pathlib.Path):
    lsp_client.root = workspace
    lsp_client.client_name = request.param
    root = workspace.as_uri()
    lsp_client.init_result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(request.param),
            client_info=types.ClientInfo(name=request.param),
            root_uri=root,
            root_path=str(workspace),
            workspace_folders=[types.WorkspaceFolder(uri=root, name=workspace.name)],
        )
    )
    yield
    await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)


# --- known server bugs, per client -----------------------------------------------------------


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "xfail_for(client, reason): a known server bug with one capability set (strict xfail)"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is None:
            continue
        for mark in item.iter_markers("xfail_for"):
            if callspec.params.get("client") == mark.args[0]:
                item.add_marker(pytest.mark.xfail(reason=mark.kwargs["reason"], strict=True))
