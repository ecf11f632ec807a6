//! `textDocument/prepareRename` and `textDocument/rename`: a skill's `name`, every mention of
//! it in the workspace folder, and its folder when that carries the name.

use std::path::{Path, PathBuf};

use ropey::Rope;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    DocumentChangeOperation, DocumentChanges, OneOf, OptionalVersionedTextDocumentIdentifier,
    PrepareRenameResponse, RenameFile, RenameParams, ResourceOp, TextDocumentEdit,
    TextDocumentPositionParams, TextEdit, Uri, WorkspaceEdit,
};

use super::invalid_params;
use super::names::{name_at, workspace_mentions};
use crate::field_table::{NAME_MAX, is_valid_skill_name};
use crate::lsp::documents::range_of;
use crate::lsp::snapshot::Snapshot;
use crate::workspace::{Registry, Source};

/// The name under the cursor and its range, as the placeholder of the rename box.
pub(crate) fn prepare_rename(
    snapshot: &Snapshot,
    params: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>> {
    let offset = snapshot.offset(params.position);
    let Some(site) = name_at(&snapshot.document, offset) else {
        return Ok(None);
    };
    let range = site.range();
    Ok(Some(PrepareRenameResponse::RangeWithPlaceholder {
        range: snapshot.range(range.start, range.end),
        placeholder: site.into_name(),
    }))
}

/// The workspace edit of a rename; an invalid-params error with a message for the user when the
/// cursor is on no name, the new name is invalid or taken, or no workspace folder holds the
/// skill.
pub(crate) fn rename(snapshot: &Snapshot, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
    let Some((folder, registry)) = &snapshot.workspace else {
        return Err(invalid_params("no workspace folder holds this skill"));
    };
    let offset = snapshot.offset(params.text_document_position.position);
    let Some(site) = name_at(&snapshot.document, offset) else {
        return Err(invalid_params(
            "place the cursor on a skill name or mention",
        ));
    };
    rename_edit(
        snapshot,
        folder,
        registry,
        &site.into_name(),
        &params.new_name,
    )
    .map(Some)
    .map_err(invalid_params)
}

/// The edit that renames a skill: the `name` value, every mention, then the folder (when it
/// carries the old name), in that order so that the text edits apply before paths change.
///
/// # Errors
/// A message for the user when the new name is not a valid skill name or is taken.
fn rename_edit(
    snapshot: &Snapshot,
    folder: &Path,
    registry: &Registry,
    old: &str,
    new: &str,
) -> std::result::Result<WorkspaceEdit, String> {
    let encoding = snapshot.encoding;
    let source = &snapshot.overlay;
    let versions = &snapshot.versions;
    let resource_operations = snapshot.caps.resource_operations && snapshot.caps.document_changes;
    if !is_valid_skill_name(new) {
        return Err(format!(
            "'{new}' is not a valid skill name: use lowercase letters, digits and single hyphens, at most {NAME_MAX} characters"
        ));
    }
    if registry.get(new).is_some() {
        return Err(format!("a skill named '{new}' already exists"));
    }
    let skill = registry
        .get(old)
        .ok_or_else(|| format!("no skill named '{old}'"))?;
    let mut edits_by_file: Vec<(PathBuf, Vec<TextEdit>)> = Vec::new();
    let mut push = |path: PathBuf, edit: TextEdit| match edits_by_file
        .iter_mut()
        .find(|(existing, _)| *existing == path)
    {
        Some((_, edits)) => edits.push(edit),
        None => edits_by_file.push((path, vec![edit])),
    };
    let skill_text = source
        .read(&skill.path)
        .map_err(|error| format!("cannot read {}: {error}", skill.path.display()))?;
    let skill_rope = Rope::from_str(&skill_text);
    if let Some(range) = skill.name_range {
        push(
            skill.path.clone(),
            TextEdit {
                range: range_of(&skill_rope, range.start, range.end, encoding),
                new_text: new.to_owned(),
            },
        );
    }
    for (path, text, mention) in workspace_mentions(folder, source, old) {
        let rope = Rope::from_str(&text);
        push(
            path,
            TextEdit {
                range: range_of(&rope, mention.range.start, mention.range.end, encoding),
                new_text: new.to_owned(),
            },
        );
    }
    let mut operations: Vec<DocumentChangeOperation> = edits_by_file
        .into_iter()
        .filter_map(|(path, edits)| {
            Some(DocumentChangeOperation::Edit(TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    version: versions.get(&path).copied(),
                    uri: Uri::from_file_path(&path)?,
                },
                edits: edits.into_iter().map(OneOf::Left).collect(),
            }))
        })
        .collect();
    let skill_dir = skill
        .path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    if resource_operations && skill.folder == old {
        let target = skill_dir.with_file_name(new);
        if target.exists() {
            return Err(format!("{} already exists", target.display()));
        }
        if let (Some(old_uri), Some(new_uri)) = (
            Uri::from_file_path(&skill_dir),
            Uri::from_file_path(&target),
        ) {
            operations.push(DocumentChangeOperation::Op(ResourceOp::Rename(
                RenameFile {
                    old_uri,
                    new_uri,
                    options: None,
                    annotation_id: None,
                },
            )));
        }
    }
    Ok(WorkspaceEdit {
        document_changes: Some(DocumentChanges::Operations(operations)),
        ..WorkspaceEdit::default()
    })
}
