//! `textDocument/codeAction`: every fix of SPEC section 4 as a quick fix on its finding, and
//! `source.fixAll.skill-lsp` for all safe fixes of the file (the same loop as `check --fix`).

use std::collections::HashMap;

use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, DocumentChangeOperation, DocumentChanges,
    OneOf, OptionalVersionedTextDocumentIdentifier, RenameFile, ResourceOp, TextDocumentEdit,
    TextEdit, Uri, WorkspaceEdit,
};

use crate::diagnostic::{self as core, Fix};
use crate::lsp::convert::{to_lsp_diagnostic, to_text_edit};
use crate::lsp::documents::{Encoding, range_of};
use crate::lsp::ext::FIX_ALL_KIND;
use crate::lsp::state::Snapshot;
use crate::rules::fix::FixOutcome;
use crate::text::TextRange;

/// What the client accepts in a workspace edit.
#[derive(Clone, Copy, Debug, Default)]
pub struct EditCaps {
    pub document_changes: bool,
    pub rename_files: bool,
}

fn wants(only: Option<&[CodeActionKind]>, kind: &CodeActionKind) -> bool {
    only.is_none_or(|only| {
        only.iter()
            .any(|wanted| kind.as_str().starts_with(wanted.as_str()))
    })
}

/// A workspace edit for a fix, or `None` when the client cannot apply it (a rename without
/// resource operations).
fn fix_edit(
    snapshot: &Snapshot,
    fix: &Fix,
    encoding: Encoding,
    caps: EditCaps,
) -> Option<WorkspaceEdit> {
    let edits: Vec<TextEdit> = fix
        .edits
        .iter()
        .map(|edit| to_text_edit(edit, &snapshot.rope, encoding))
        .collect();
    if let Some(rename) = &fix.rename {
        if !(caps.document_changes && caps.rename_files) {
            return None;
        }
        let new_uri = Uri::from_file_path(std::path::absolute(&rename.to).ok()?)?;
        return Some(WorkspaceEdit {
            document_changes: Some(DocumentChanges::Operations(vec![
                DocumentChangeOperation::Op(ResourceOp::Rename(RenameFile {
                    old_uri: snapshot.uri.clone(),
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
                    uri: snapshot.uri.clone(),
                    version: Some(snapshot.version),
                },
                edits: edits.into_iter().map(OneOf::Left).collect(),
            }])),
            ..WorkspaceEdit::default()
        }
    } else {
        WorkspaceEdit {
            changes: Some(HashMap::from([(snapshot.uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        }
    })
}

/// The code actions for `range` (bytes) of a document with the given findings.
#[must_use]
pub fn code_actions(
    snapshot: &Snapshot,
    diagnostics: &[core::Diagnostic],
    range: TextRange,
    only: Option<&[CodeActionKind]>,
    encoding: Encoding,
    caps: EditCaps,
    fix_all: impl Fn(&str) -> FixOutcome,
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
            let lsp_diagnostic = to_lsp_diagnostic(diagnostic, &snapshot.rope, encoding, false);
            for (index, fix) in diagnostic.fixes.iter().enumerate() {
                let Some(edit) = fix_edit(snapshot, fix, encoding, caps) else {
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
    let fix_all_kind = CodeActionKind::new(FIX_ALL_KIND);
    let asked_for_fix_all = only.is_some_and(|only| {
        only.iter().any(|wanted| {
            FIX_ALL_KIND.starts_with(wanted.as_str())
                && wanted.as_str() != CodeActionKind::QUICKFIX.as_str()
        })
    });
    if only.is_none() || asked_for_fix_all {
        let outcome = fix_all(&snapshot.text);
        if outcome.text != *snapshot.text {
            let whole = range_of(&snapshot.rope, 0, snapshot.text.len(), encoding);
            let edit = TextEdit {
                range: whole,
                new_text: outcome.text,
            };
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Fix all safe skill-lsp findings ({})", outcome.applied),
                kind: Some(fix_all_kind),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(snapshot.uri.clone(), vec![edit])])),
                    ..WorkspaceEdit::default()
                }),
                ..CodeAction::default()
            }));
        }
    }
    actions
}
