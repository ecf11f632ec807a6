//! The skill name under the cursor (a SKILL.md's `name` value or a `/name` `$name` mention)
//! and where a name is declared and mentioned: `textDocument/definition` and
//! `textDocument/references`. Rename edits the same places.

use std::path::{Path, PathBuf};

use ropey::Rope;
use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{
    GotoDefinitionParams, GotoDefinitionResponse, Location, ReferenceParams, Uri,
};

use crate::document::SkillDocument;
use crate::document::mentions::{Mention, mentions};
use crate::lsp::documents::range_of;
use crate::lsp::snapshot::Snapshot;
use crate::lsp::state::BufferText;
use crate::text::TextRange;
use crate::workspace::{Registry, Source};

/// The declaration of the skill named under the cursor, in the document's workspace.
pub(crate) fn definition(
    snapshot: &Snapshot,
    params: GotoDefinitionParams,
) -> jsonrpc::Result<Option<GotoDefinitionResponse>> {
    let offset = snapshot.offset(params.text_document_position_params.position);
    let Some(site) = name_at(&snapshot.document, offset) else {
        return Ok(None);
    };
    let Some(registry) = snapshot.context.registry.as_deref() else {
        return Ok(None);
    };
    Ok(declaration(snapshot, registry, &site.into_name()).map(GotoDefinitionResponse::Scalar))
}

/// Every mention of the skill named under the cursor in the workspace folder, with its
/// declaration when asked.
pub(crate) fn references(
    snapshot: &Snapshot,
    params: ReferenceParams,
) -> jsonrpc::Result<Option<Vec<Location>>> {
    let Some((folder, registry)) = &snapshot.workspace else {
        return Ok(None);
    };
    let offset = snapshot.offset(params.text_document_position.position);
    let Some(site) = name_at(&snapshot.document, offset) else {
        return Ok(None);
    };
    let name = site.into_name();
    let mut locations = Vec::new();
    if params.context.include_declaration {
        if let Some(location) = declaration(snapshot, registry, &name) {
            locations.push(location);
        }
    }
    for (path, text, mention) in workspace_mentions(folder, &snapshot.overlay, &name) {
        let rope = Rope::from_str(&text);
        if let Some(uri) = Uri::from_file_path(&path) {
            locations.push(Location {
                uri,
                range: range_of(
                    &rope,
                    mention.range.start,
                    mention.range.end,
                    snapshot.encoding,
                ),
            });
        }
    }
    Ok(Some(locations))
}

/// The declaration of a skill: its SKILL.md, at the `name` value when there is one.
fn declaration(snapshot: &Snapshot, registry: &Registry, name: &str) -> Option<Location> {
    let skill = registry.get(name)?;
    let text = snapshot.overlay.read(&skill.path).unwrap_or_default();
    let rope = Rope::from_str(&text);
    let encoding = snapshot.encoding;
    let range = skill.name_range.map_or_else(
        || range_of(&rope, 0, 0, encoding),
        |range| range_of(&rope, range.start, range.end, encoding),
    );
    Some(Location {
        uri: Uri::from_file_path(&skill.path)?,
        range,
    })
}

/// The skill name under the cursor: the `name` value of a SKILL.md, or a mention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NameSite {
    Declaration { name: String, range: TextRange },
    Mention(Mention),
}

impl NameSite {
    #[must_use]
    pub(crate) fn into_name(self) -> String {
        match self {
            NameSite::Declaration { name, .. } => name,
            NameSite::Mention(mention) => mention.name,
        }
    }

    /// The name's bytes (without a mention's sigil).
    #[must_use]
    pub(crate) fn range(&self) -> TextRange {
        match self {
            NameSite::Declaration { range, .. } => *range,
            NameSite::Mention(mention) => mention.range,
        }
    }
}

#[must_use]
pub(crate) fn name_at(document: &BufferText, offset: usize) -> Option<NameSite> {
    let skill_document = SkillDocument::parse(&document.text);
    if document.is_skill_file() {
        if let Some(entry) = skill_document.field("name") {
            let range = entry.value.range;
            if range.start <= offset && offset <= range.end && entry.value.is_string() {
                return Some(NameSite::Declaration {
                    name: entry.value.as_str()?.to_owned(),
                    range,
                });
            }
        }
    }
    let body = if document.is_skill_file() {
        skill_document.body.range
    } else {
        TextRange::new(0, document.text.len())
    };
    mentions(&document.text, body)
        .into_iter()
        .find(|mention| {
            mention.range.start.saturating_sub(1) <= offset && offset <= mention.range.end
        })
        .map(NameSite::Mention)
}

/// Every mention of skills in the Markdown files of a workspace folder (open buffers first).
#[must_use]
pub(crate) fn workspace_mentions(
    folder: &Path,
    source: &dyn Source,
    name: &str,
) -> Vec<(PathBuf, String, Mention)> {
    let mut found = Vec::new();
    // Listed first, on the walk's threads, then read here: the source is not shared with them.
    // The walk stops after as many entries as a search is worth.
    let listed = std::sync::Mutex::new((0, Vec::new()));
    let _ = crate::workspace::walk::walk_tree(folder, &|_| true, &|entry| {
        let mut listed = listed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        listed.0 += 1;
        if entry.is_file() && entry.path().extension().is_some_and(|ext| ext == "md") {
            listed.1.push(entry.into_path());
        }
        listed.0 < 50_000
    });
    let mut listed = listed
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .1;
    listed.sort();
    for path in &listed {
        let path = path.as_path();
        let Ok(text) = source.read(path) else {
            continue;
        };
        let body = if path.file_name().is_some_and(|file| file == "SKILL.md") {
            SkillDocument::parse(&text).body.range
        } else {
            TextRange::new(0, text.len())
        };
        for mention in mentions(&text, body) {
            if mention.name == name {
                found.push((path.to_path_buf(), text.clone(), mention));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::lsp::state::test_document as document;

    #[test]
    fn name_sites() {
        let text = "---\nname: pdf\n---\nUse /code-review after.\n";
        assert_eq!(
            name_at(&document(text), text.find("pdf").unwrap() + 1),
            Some(NameSite::Declaration {
                name: "pdf".into(),
                range: TextRange::new(10, 13)
            })
        );
        let Some(NameSite::Mention(mention)) =
            name_at(&document(text), text.find("/code").unwrap())
        else {
            panic!()
        };
        assert_eq!(mention.name, "code-review");
    }
}
