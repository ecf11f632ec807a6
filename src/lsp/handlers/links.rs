//! `textDocument/documentLink`: body references that name an existing file of the skill
//! folder.

use std::path::Path;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{DocumentLink, DocumentLinkParams, Uri};

use crate::document::{ReferenceKind, SkillDocument};
use crate::lsp::documents::range_of;
use crate::lsp::snapshot::Snapshot;

/// Links for body references that name an existing file of the skill folder.
pub(crate) fn document_link(
    snapshot: &Snapshot,
    _: DocumentLinkParams,
) -> Result<Option<Vec<DocumentLink>>> {
    let Some(skill_dir) = snapshot.document.path.as_deref().and_then(Path::parent) else {
        return Ok(Some(Vec::new()));
    };
    let document = SkillDocument::parse(&snapshot.document.text);
    let links = document
        .body
        .references
        .iter()
        .filter_map(|reference| {
            let target = skill_dir.join(&reference.target);
            if !target.exists() {
                return None;
            }
            Some(DocumentLink {
                range: range_of(
                    &snapshot.document.rope,
                    reference.range.start,
                    reference.range.end,
                    snapshot.encoding,
                ),
                target: Uri::from_file_path(&target),
                tooltip: Some(match reference.kind {
                    ReferenceKind::Link => "Open the linked file".to_owned(),
                    ReferenceKind::Path | ReferenceKind::Loose => {
                        "Open the bundled file".to_owned()
                    }
                }),
                data: None,
            })
        })
        .collect();
    Ok(Some(links))
}
