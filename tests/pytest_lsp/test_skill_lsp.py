"""skill-lsp driven by pytest-lsp with the recorded capability sets of real editors.

Every test runs once per client in conftest.CLIENTS (Neovim 0.11, VS Code 1.65.2, Emacs 29.1).
Positions are computed here, in the encoding the server negotiated (Neovim and Emacs offer
utf-8, VS Code 1.65 offers nothing, so utf-16); the texts hold non-ASCII characters (a BMP
CJK run and an astral emoji) before the positions that matter, so the three encodings differ.
"""

from __future__ import annotations

import asyncio
import warnings

import pytest
from conftest import CODE_REVIEW, PDF, TIMEOUT, SkillClient, apply_edits, edits_for, position, span
from lsprotocol import types
from pytest_lsp import LspSpecificationWarning

DESCRIPTION = "Fills PDF forms — 日本語 🙂. Use when asked."
UNQUOTED_COLON = "---\nname: pdf\ndescription: Fills PDF forms — 日本語 🙂. Use when: the user asks\n---\n# PDF\n"
NAME_MISMATCH = f"---\nname: pdf-tools\ndescription: {DESCRIPTION}\n---\n# PDF\n"


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def colon_range(text: str, encoding: str) -> types.Range:
    offset = text.index("Use when:") + len("Use when")
    return types.Range(start=position(text, offset, encoding), end=position(text, offset + 1, encoding))


def name_range(text: str, encoding: str) -> types.Range:
    return span(text, "pdf-tools", encoding)


# In a collection's skills/ (a portable skill), Copilot skips a skill whose YAML does not parse:
# an error; only skills-ref, which nobody chose, objects to a name that differs from the folder:
# a portability warning.
@pytest.mark.parametrize(
    ("text", "rule", "expected_range", "severity"),
    [
        (UNQUOTED_COLON, "unquoted-colon", colon_range, types.DiagnosticSeverity.Error),
        (NAME_MISMATCH, "name-mismatch", name_range, types.DiagnosticSeverity.Warning),
    ],
    ids=["unquoted-colon", "name-mismatch"],
)
async def test_broken_skill_gets_a_finding_with_rule_code_and_exact_range(client: SkillClient, text, rule, expected_range, severity):
    uri = client.open("skills/pdf/SKILL.md", text)
    diagnostics = await client.current_diagnostics(uri)

    assert [d.code for d in diagnostics] == [rule], diagnostics
    (finding,) = diagnostics
    assert finding.source == "skill-lsp"
    assert finding.severity == severity
    assert finding.range == expected_range(text, client.encoding), (client.encoding, finding.range)
    assert finding.code_description is not None and finding.code_description.href.endswith(f"#{rule}")

    if client.pull:
        # Pull mode never pushes as well: after one more round trip nothing was published.
        await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc(uri)))
        assert client.published == [], client.published
    else:
        # Push mode: the publish carries the version of the text it was computed from.
        assert {p.version for p in client.published if p.uri == uri} == {1}


async def test_quick_fix_renames_to_the_folder_and_clears_the_finding(client: SkillClient):
    text = NAME_MISMATCH
    uri = client.open("skills/pdf/SKILL.md", text)
    (finding,) = await client.current_diagnostics(uri)
    assert finding.code == "name-mismatch"

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(uri),
            range=finding.range,
            context=types.CodeActionContext(diagnostics=[finding], trigger_kind=types.CodeActionTriggerKind.Invoked),
        )
    )
    quick_fixes = [
        a for a in actions or [] if isinstance(a, types.CodeAction) and a.kind == types.CodeActionKind.QuickFix
    ]
    assert len(quick_fixes) == 1, actions
    (fix,) = quick_fixes
    # Every client lists or shows the frontmatter name somewhere: the title says the rename reaches them.
    assert fix.title == "Rename to 'pdf' (renames the skill in Claude Code, Codex, Copilot, OpenCode and Gemini CLI)", fix.title
    assert [d.code for d in fix.diagnostics or []] == ["name-mismatch"]
    if fix.edit is None:
        # Only legal when the server resolves lazily and the client resolves `edit`.
        fix = await client.code_action_resolve_async(fix)
    assert fix.edit is not None

    edits = edits_for(fix.edit, uri)
    assert edits, fix.edit
    for change in fix.edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit) and change.text_document.uri == uri:
            assert change.text_document.version in (None, 1)
    fixed = apply_edits(text, edits, client.encoding)
    assert fixed == text.replace("name: pdf-tools", "name: pdf")

    # Apply it as an editor does: the same edits as incremental changes, last first.
    changes = [
        types.TextDocumentContentChangePartial(range=e.range, text=e.new_text)
        for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True)
    ]
    client.change(uri, changes)
    assert await client.current_diagnostics(uri) == []


COMPLETION_TEXT = "---\nname: pdf\n\n---\n# PDF\n"


async def complete(client: SkillClient, text: str, line: int, character: int) -> list[types.CompletionItem]:
    uri = client.open("skills/pdf/SKILL.md", text)
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc(uri), position=types.Position(line=line, character=character))
    )
    if isinstance(result, types.CompletionList):
        return list(result.items)
    return list(result or [])


async def test_completion_offers_missing_keys_only(client: SkillClient):
    with warnings.catch_warnings():
        # The spec check of these items has its own test below.
        warnings.simplefilter("ignore", LspSpecificationWarning)
        items = await complete(client, COMPLETION_TEXT, 2, 0)
    labels = [item.label for item in items]
    assert "description" in labels and "name" not in labels, labels

    # What accepting the item inserts on the empty line starts the `description` key.
    item = next(item for item in items if item.label == "description")
    if isinstance(item.text_edit, types.TextEdit):
        assert item.text_edit.range == types.Range(
            start=types.Position(line=2, character=0), end=types.Position(line=2, character=0)
        )
        inserted = item.text_edit.new_text
    else:
        inserted = item.insert_text or item.label
    assert inserted.startswith("description:"), inserted
    snippets = client.capabilities.text_document.completion.completion_item.snippet_support
    if not snippets:
        assert item.insert_text_format in (None, types.InsertTextFormat.PlainText)
        assert "$" not in inserted, inserted


async def test_completion_items_respect_client_capabilities(client: SkillClient):
    # pytest-lsp checks snippets, commit characters and documentation formats against the
    # client's capabilities; with pytest.ini's filterwarnings a violation is an error.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LspSpecificationWarning)
        await complete(client, COMPLETION_TEXT, 2, 0)
    assert [str(w.message) for w in caught if issubclass(w.category, LspSpecificationWarning)] == []


async def test_hover_on_description_shows_its_length_and_limit(client: SkillClient):
    text = NAME_MISMATCH.replace("name: pdf-tools", "name: pdf")
    uri = client.open("skills/pdf/SKILL.md", text)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=types.Position(line=2, character=3))
    )
    assert hover is not None
    contents = hover.contents
    assert isinstance(contents, types.MarkupContent), contents
    formats = client.capabilities.text_document.hover.content_format or [types.MarkupKind.PlainText]
    assert contents.kind in formats
    assert "/1024 characters" in contents.value
    # The length is in characters (Unicode scalar values), whatever the position encoding.
    assert f"description — {len(DESCRIPTION)}/1024 characters" in contents.value, contents.value
    if hover.range is not None:
        assert hover.range == span(text, "description", client.encoding)


async def test_catalog_request_lists_the_workspace_skills(client: SkillClient):
    catalog = await client.catalog()
    assert catalog.prompt == (
        "- code-review: Reviews a diff for bugs. Use when asked to review code.\n"
        "- pdf: Fills PDF forms. Use when the user has a PDF form."
    )
    assert [s.name for s in catalog.skills] == ["code-review", "pdf"]
    assert [s.description for s in catalog.skills] == [
        CODE_REVIEW.split("description: ")[1].split("\n")[0],
        PDF.split("description: ")[1].split("\n")[0],
    ]
    assert [s.uri for s in catalog.skills] == [
        client.uri("skills/code-review/SKILL.md"),
        client.uri("skills/pdf/SKILL.md"),
    ]
    assert [s.diagnostics for s in catalog.skills] == [0, 0]


def raw_errors(client: SkillClient) -> list:
    return [m for m in client.raw_messages if getattr(m, "error", None) is not None]


async def wait_for_raw_error(client: SkillClient, count: int) -> list:
    async def wait():
        while len(raw_errors(client)) < count:
            await asyncio.sleep(0.01)
        return raw_errors(client)

    return await asyncio.wait_for(wait(), TIMEOUT)


async def test_malformed_messages_do_not_end_the_session(client: SkillClient):
    writer = client.protocol.writer
    assert writer is not None
    # A body that is not JSON, a body that is not UTF-8, and a request object without a method.
    for body in (b"{{{{{{{{{", b"\xff\xfe\x00{", b'{"jsonrpc": "2.0", "id": 4242}'):
        writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    errors = await wait_for_raw_error(client, 3)
    assert [(e.id, e.error.code) for e in errors] == [(None, -32700), (None, -32700), (4242, -32600)]

    # Still serving, and still in sync with the documents.
    uri = client.open("skills/pdf/SKILL.md", UNQUOTED_COLON)
    assert [d.code for d in await client.current_diagnostics(uri)] == ["unquoted-colon"]
    catalog = await client.catalog()
    assert [s.name for s in catalog.skills] == ["code-review", "pdf"]
    assert client._server is not None and client._server.returncode is None


# Which client capability allows each dynamic registration the server may send.
DYNAMIC = {
    "workspace/didChangeWatchedFiles": lambda c: c.workspace and c.workspace.did_change_watched_files,
    "workspace/didChangeConfiguration": lambda c: c.workspace and c.workspace.did_change_configuration,
    "workspace/executeCommand": lambda c: c.workspace and c.workspace.execute_command,
    "textDocument/diagnostic": lambda c: c.text_document and c.text_document.diagnostic,
}


async def test_dynamic_registrations_and_progress_follow_the_client_capabilities(client: SkillClient):
    # Start-up indexing reports progress; wait for its end so every start-up request is in.
    async def indexed():
        while not any(
            isinstance(report, types.WorkDoneProgressEnd)
            for reports in client.progress_reports.values()
            for report in reports
        ):
            await asyncio.sleep(0.01)

    await asyncio.wait_for(indexed(), TIMEOUT)
    for registration in client.registrations:
        assert registration.method in DYNAMIC, registration
        capability = DYNAMIC[registration.method](client.capabilities)
        assert capability and capability.dynamic_registration, (
            f"{registration.method} registered, but {client.client_name} has no dynamicRegistration for it"
        )
    watched = client.capabilities.workspace.did_change_watched_files
    if watched and watched.dynamic_registration:
        # A client that lets the server watch files gets a watcher (to follow files on disk).
        assert "workspace/didChangeWatchedFiles" in [r.method for r in client.registrations]
