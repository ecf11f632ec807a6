//! `textDocument/codeAction`: every fix of design.md §4 as a quick fix on its finding, and
//! `source.fixAll.skill-lsp` for all safe fixes of the file (the same loop as `check --fix`).

use std::collections::HashMap;

use serde_json::json;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse, Command,
    DocumentChangeOperation, DocumentChanges, OneOf, OptionalVersionedTextDocumentIdentifier,
    RenameFile, ResourceOp, TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};

use crate::diagnostic::{self as core, Fix};
use crate::document::SkillDocument;
use crate::lsp::convert::{to_lsp_diagnostic, to_text_edit};
use crate::lsp::ext::{FIX_ALL_KIND, IMPROVE_DESCRIPTION_COMMAND, IMPROVE_DESCRIPTION_TITLE};
use crate::lsp::handlers::code_lens::{has_eval_set, skill_name};
use crate::lsp::snapshot::Snapshot;
use crate::lsp::state::analyze;
use crate::rules::fix::fix_all;
use crate::text::TextRange;

/// The actions for the requested range of a SKILL.md; `None` for other Markdown or when there
/// are none.
pub(crate) fn code_action(
    snapshot: &Snapshot,
    params: CodeActionParams,
) -> Result<Option<CodeActionResponse>> {
    if !(snapshot.document.is_skill_file() || snapshot.document.is_openai_yaml()) {
        return Ok(None);
    }
    let diagnostics = snapshot.analyze();
    let start = snapshot.offset(params.range.start);
    let end = snapshot.offset(params.range.end).max(start);
    let only = params.context.only.as_deref();
    let actions = code_actions(snapshot, &diagnostics, TextRange::new(start, end), only);
    Ok((!actions.is_empty()).then_some(actions))
}

fn wants(only: Option<&[CodeActionKind]>, kind: &CodeActionKind) -> bool {
    only.is_none_or(|only| {
        only.iter()
            .any(|wanted| kind.as_str().starts_with(wanted.as_str()))
    })
}

/// A workspace edit for a fix, or `None` when the client cannot apply it (a rename without
/// resource operations).
fn fix_edit(snapshot: &Snapshot, fix: &Fix) -> Option<WorkspaceEdit> {
    let caps = snapshot.caps;
    let edits: Vec<TextEdit> = fix
        .edits
        .iter()
        .map(|edit| to_text_edit(edit, &snapshot.document.rope, snapshot.encoding))
        .collect();
    if let Some(rename) = &fix.rename {
        if !(caps.document_changes && caps.resource_operations) {
            return None;
        }
        let new_uri = Uri::from_file_path(std::path::absolute(&rename.to).ok()?)?;
        return Some(WorkspaceEdit {
            document_changes: Some(DocumentChanges::Operations(vec![
                DocumentChangeOperation::Op(ResourceOp::Rename(RenameFile {
                    old_uri: snapshot.document.uri.clone(),
                    new_uri,
                    options: None,
                    annotation_id: None,
                })),
            ])),
            ..WorkspaceEdit::default()
        });
    }
    Some(if caps.document_changes {
        WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri: snapshot.document.uri.clone(),
                    version: Some(snapshot.document.version),
                },
                edits: edits.into_iter().map(OneOf::Left).collect(),
            }])),
            ..WorkspaceEdit::default()
        }
    } else {
        WorkspaceEdit {
            changes: Some(HashMap::from([(snapshot.document.uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        }
    })
}

/// The code actions for `range` (bytes) of a document with the given findings.
fn code_actions(
    snapshot: &Snapshot,
    diagnostics: &[core::Diagnostic],
    range: TextRange,
    only: Option<&[CodeActionKind]>,
) -> Vec<CodeActionOrCommand> {
    let mut actions = Vec::new();
    if wants(only, &CodeActionKind::QUICKFIX) {
        for diagnostic in diagnostics {
            let touches = diagnostic.range.overlaps(range)
                || diagnostic.range.start == range.start
                || (diagnostic.range.start <= range.start && range.end <= diagnostic.range.end);
            if !touches {
                continue;
            }
            let lsp_diagnostic = to_lsp_diagnostic(
                diagnostic,
                &snapshot.document.rope,
                snapshot.encoding,
                false,
            );
            for (index, fix) in diagnostic.fixes.iter().enumerate() {
                let Some(edit) = fix_edit(snapshot, fix) else {
                    continue;
                };
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: fix.title.clone(),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![lsp_diagnostic.clone()]),
                    edit: Some(edit),
                    is_preferred: Some(index == 0 && fix.safe),
                    ..CodeAction::default()
                }));
            }
        }
    }
    if let Some(action) = improve_action(snapshot, range, only) {
        actions.push(action);
    }
    let fix_all_kind = CodeActionKind::new(FIX_ALL_KIND);
    let asked_for_fix_all = only.is_some_and(|only| {
        only.iter().any(|wanted| {
            FIX_ALL_KIND.starts_with(wanted.as_str())
                && wanted.as_str() != CodeActionKind::QUICKFIX.as_str()
        })
    });
    if only.is_none() || asked_for_fix_all {
        // The same loop as `check --fix`, each candidate text analysed as this document.
        let outcome = fix_all(&snapshot.document.text, |candidate| {
            let mut variant = snapshot.document.clone();
            variant.text = candidate.into();
            variant.rope = ropey::Rope::from_str(candidate);
            analyze(&variant, &snapshot.context)
        });
        if outcome.text != *snapshot.document.text {
            let whole = snapshot.range(0, snapshot.document.text.len());
            let edit = TextEdit {
                range: whole,
                new_text: outcome.text,
            };
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Fix all safe skill-lsp findings ({})", outcome.applied),
                kind: Some(fix_all_kind),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(snapshot.document.uri.clone(), vec![edit])])),
                    ..WorkspaceEdit::default()
                }),
                ..CodeAction::default()
            }));
        }
    }
    actions
}

/// "Improve the description with the trigger evals…" on the `description` entry of a SKILL.md
/// with an eval set, for a client that implements its command (it runs model calls, so it is
/// never a quick fix or part of fix-all).
fn improve_action(
    snapshot: &Snapshot,
    range: TextRange,
    only: Option<&[CodeActionKind]>,
) -> Option<CodeActionOrCommand> {
    if !snapshot.caps.improve_description
        || !wants(only, &CodeActionKind::REFACTOR_REWRITE)
        || !snapshot.document.is_skill_file()
        || !has_eval_set(snapshot)
    {
        return None;
    }
    let document = SkillDocument::parse_for_editing(&snapshot.document.text);
    let entry = document.field("description")?;
    let whole = TextRange::new(
        entry.key.range.start,
        entry.value.range.end.max(entry.key.range.end),
    );
    let touches = whole.overlaps(range) || (whole.start <= range.start && range.end <= whole.end);
    if !touches {
        return None;
    }
    let name = skill_name(snapshot, &document)?;
    Some(CodeActionOrCommand::CodeAction(CodeAction {
        title: IMPROVE_DESCRIPTION_TITLE.to_owned(),
        kind: Some(CodeActionKind::REFACTOR_REWRITE),
        command: Some(Command {
            title: IMPROVE_DESCRIPTION_TITLE.to_owned(),
            command: IMPROVE_DESCRIPTION_COMMAND.to_owned(),
            arguments: Some(vec![json!({
                "skill": name,
                "uri": snapshot.document.uri.as_str(),
            })]),
        }),
        ..CodeAction::default()
    }))
}
