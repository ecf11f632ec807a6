//! `textDocument/documentLink`: body references that name an existing file of the skill
//! folder.

use std::path::Path;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{DocumentLink, DocumentLinkParams, Uri};

use crate::document::body::all_references;
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
    let links = all_references(&snapshot.document.text, document.body.range)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::snapshot::test_snapshot;

    #[test]
    fn a_bundled_path_in_prose_links_to_the_file_that_exists() {
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join("skills/pdf");
        std::fs::create_dir_all(skill.join("scripts")).unwrap();
        std::fs::write(skill.join("scripts/run.sh"), "echo\n").unwrap();
        let text = "---\nname: pdf\n---\nRun scripts/run.sh, not scripts/gone.sh.\n";
        let mut snapshot = test_snapshot(text);
        snapshot.document.path = Some(skill.join("SKILL.md"));
        let params: DocumentLinkParams = serde_json::from_value(serde_json::json!({
            "textDocument": {"uri": "file:///w/skills/pdf/SKILL.md"}
        }))
        .unwrap();
        let links = document_link(&snapshot, params).unwrap().unwrap();
        assert_eq!(links.len(), 1, "{links:?}");
        let start = text.find("scripts/run.sh").unwrap();
        assert_eq!(links[0].range.start.line, 3);
        assert_eq!(
            links[0].range.start.character as usize,
            start - text.find("Run").unwrap()
        );
        assert_eq!(
            links[0].range.end.character - links[0].range.start.character,
            14
        );
        assert_eq!(
            links[0].target,
            Some(Uri::from_file_path(skill.join("scripts/run.sh")).unwrap())
        );
    }
}
