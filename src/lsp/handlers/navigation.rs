//! Document symbols, document links, inlay hints, and the skill-name navigation: definition,
//! references and rename across the folder, the `name` and every `/name` `$name` mention.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ropey::Rope;
use tower_lsp_server::ls_types::{
    DocumentChangeOperation, DocumentChanges, DocumentLink, DocumentSymbol, InlayHint,
    InlayHintLabel, Location, OneOf, OptionalVersionedTextDocumentIdentifier, Range, RenameFile,
    ResourceOp, SymbolKind, TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};

use crate::document::mentions::{Mention, mentions};
use crate::document::{NodeKind, ReferenceKind, SkillDocument};
use crate::lsp::documents::{Encoding, range_of};
use crate::lsp::state::Snapshot;
use crate::rules::fields::{DESCRIPTION_MAX, NAME_MAX};
use crate::text::TextRange;
use crate::workspace::{Registry, Source};

#[allow(
    deprecated,
    reason = "DocumentSymbol::deprecated is required by the struct"
)]
fn symbol(
    name: String,
    detail: Option<String>,
    kind: SymbolKind,
    range: Range,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    DocumentSymbol {
        name: if name.is_empty() {
            " ".to_owned()
        } else {
            name
        },
        detail,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: range,
        children: (!children.is_empty()).then_some(children),
    }
}

/// Frontmatter keys (with `metadata` children) and the Markdown headings as a tree.
#[must_use]
pub fn document_symbols(snapshot: &Snapshot, encoding: Encoding) -> Vec<DocumentSymbol> {
    let text: &str = &snapshot.text;
    let rope = &snapshot.rope;
    let document = SkillDocument::parse(text);
    let mut symbols = Vec::new();
    if let (Some(block), Some(root)) = (document.block(), document.mapping()) {
        let mut keys = Vec::new();
        for entry in root.as_mapping().unwrap_or_default() {
            let name = entry.key.as_str().unwrap_or("?").to_owned();
            let end = entry.value.range.end.max(entry.key.range.end);
            let children = entry
                .value
                .as_mapping()
                .map(|inner| {
                    inner
                        .iter()
                        .map(|child| {
                            let end = child.value.range.end.max(child.key.range.end);
                            symbol(
                                child.key.as_str().unwrap_or("?").to_owned(),
                                child.value.as_str().map(preview),
                                SymbolKind::KEY,
                                range_of(rope, child.key.range.start, end, encoding),
                                Vec::new(),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            let kind = match entry.value.kind {
                NodeKind::Mapping(_) => SymbolKind::OBJECT,
                NodeKind::Sequence(_) => SymbolKind::ARRAY,
                _ => SymbolKind::PROPERTY,
            };
            keys.push(symbol(
                name,
                entry.value.as_str().map(preview),
                kind,
                range_of(rope, entry.key.range.start, end, encoding),
                children,
            ));
        }
        let end = block.close.map_or(block.yaml.end, |close| close.line.end);
        symbols.push(symbol(
            "frontmatter".to_owned(),
            None,
            SymbolKind::NAMESPACE,
            range_of(rope, block.open.line.start, end, encoding),
            keys,
        ));
    }
    // Headings nest by level: each one holds the deeper ones that follow it.
    let headings = &document.body.headings;
    fn build(
        headings: &[crate::document::Heading],
        index: &mut usize,
        level: u8,
        rope: &Rope,
        encoding: Encoding,
        body_end: usize,
    ) -> Vec<DocumentSymbol> {
        let mut out = Vec::new();
        while *index < headings.len() && headings[*index].level > level {
            let heading = &headings[*index];
            *index += 1;
            let children = build(headings, index, heading.level, rope, encoding, body_end);
            let section_end = headings
                .get(*index)
                .filter(|next| next.level <= heading.level)
                .map_or(body_end, |next| next.range.start);
            let mut item = symbol(
                heading.title.clone(),
                None,
                SymbolKind::STRING,
                range_of(
                    rope,
                    heading.range.start,
                    section_end.max(heading.range.end),
                    encoding,
                ),
                children,
            );
            item.selection_range = range_of(rope, heading.range.start, heading.range.end, encoding);
            out.push(item);
        }
        out
    }
    let mut index = 0;
    symbols.extend(build(headings, &mut index, 0, rope, encoding, text.len()));
    symbols
}

fn preview(value: &str) -> String {
    let line = value.lines().next().unwrap_or("");
    if line.chars().count() > 60 {
        format!("{}…", line.chars().take(59).collect::<String>())
    } else {
        line.to_owned()
    }
}

/// Links for body references that name an existing file of the skill folder.
#[must_use]
pub fn document_links(snapshot: &Snapshot, encoding: Encoding) -> Vec<DocumentLink> {
    let Some(skill_dir) = snapshot.path.as_deref().and_then(Path::parent) else {
        return Vec::new();
    };
    let document = SkillDocument::parse(&snapshot.text);
    document
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
                    &snapshot.rope,
                    reference.range.start,
                    reference.range.end,
                    encoding,
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
        .collect()
}

/// `312/1024` after the description, `3/64` after the name.
#[must_use]
pub fn inlay_hints(snapshot: &Snapshot, encoding: Encoding) -> Vec<InlayHint> {
    let document = SkillDocument::parse(&snapshot.text);
    let mut hints = Vec::new();
    for (key, limit) in [("name", NAME_MAX), ("description", DESCRIPTION_MAX)] {
        let Some(entry) = document.field(key) else {
            continue;
        };
        let Some(value) = entry.value.as_str().filter(|_| entry.value.is_string()) else {
            continue;
        };
        let length = value.chars().count();
        hints.push(InlayHint {
            position: range_of(
                &snapshot.rope,
                entry.value.range.end,
                entry.value.range.end,
                encoding,
            )
            .end,
            label: InlayHintLabel::String(format!("{length}/{limit}")),
            kind: None,
            text_edits: None,
            tooltip: None,
            padding_left: Some(true),
            padding_right: None,
            data: None,
        });
    }
    hints
}

/// The skill name under the cursor: the `name` value of a SKILL.md, or a mention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameSite {
    Declaration { name: String, range: TextRange },
    Mention(Mention),
}

impl NameSite {
    #[must_use]
    pub fn into_name(self) -> String {
        match self {
            NameSite::Declaration { name, .. } => name,
            NameSite::Mention(mention) => mention.name,
        }
    }

    /// The name's bytes (without a mention's sigil).
    #[must_use]
    pub fn range(&self) -> TextRange {
        match self {
            NameSite::Declaration { range, .. } => *range,
            NameSite::Mention(mention) => mention.range,
        }
    }
}

#[must_use]
pub fn name_at(snapshot: &Snapshot, offset: usize) -> Option<NameSite> {
    let document = SkillDocument::parse(&snapshot.text);
    if snapshot.is_skill_file() {
        if let Some(entry) = document.field("name") {
            let range = entry.value.range;
            if range.start <= offset && offset <= range.end && entry.value.is_string() {
                return Some(NameSite::Declaration {
                    name: entry.value.as_str()?.to_owned(),
                    range,
                });
            }
        }
    }
    let body = if snapshot.is_skill_file() {
        document.body.range
    } else {
        TextRange::new(0, snapshot.text.len())
    };
    mentions(&snapshot.text, body)
        .into_iter()
        .find(|mention| {
            mention.range.start.saturating_sub(1) <= offset && offset <= mention.range.end
        })
        .map(NameSite::Mention)
}

/// Every mention of skills in the Markdown files of a workspace folder (open buffers first).
#[must_use]
pub fn workspace_mentions(
    folder: &Path,
    source: &dyn Source,
    name: &str,
) -> Vec<(PathBuf, String, Mention)> {
    let mut found = Vec::new();
    let walker = ignore::WalkBuilder::new(folder)
        .hidden(false)
        .require_git(false)
        .build();
    for entry in walker.filter_map(Result::ok).take(50_000) {
        let path = entry.path();
        if !entry.file_type().is_some_and(|kind| kind.is_file())
            || path.extension().is_none_or(|ext| ext != "md")
        {
            continue;
        }
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

/// The declaration of a skill: its SKILL.md, at the `name` value when there is one.
#[must_use]
pub fn definition(
    registry: &Registry,
    name: &str,
    encoding: Encoding,
    source: &dyn Source,
) -> Option<Location> {
    let skill = registry.get(name)?;
    let text = source.read(&skill.path).unwrap_or_default();
    let rope = Rope::from_str(&text);
    let range = skill.name_range.map_or_else(
        || range_of(&rope, 0, 0, encoding),
        |range| range_of(&rope, range.start, range.end, encoding),
    );
    Some(Location {
        uri: Uri::from_file_path(&skill.path)?,
        range,
    })
}

/// All mentions of `name`, plus its declaration when asked.
#[must_use]
pub fn references(
    folder: &Path,
    registry: Option<&Registry>,
    name: &str,
    include_declaration: bool,
    encoding: Encoding,
    source: &dyn Source,
) -> Vec<Location> {
    let mut locations = Vec::new();
    if include_declaration {
        if let Some(location) =
            registry.and_then(|registry| definition(registry, name, encoding, source))
        {
            locations.push(location);
        }
    }
    for (path, text, mention) in workspace_mentions(folder, source, name) {
        let rope = Rope::from_str(&text);
        if let Some(uri) = Uri::from_file_path(&path) {
            locations.push(Location {
                uri,
                range: range_of(&rope, mention.range.start, mention.range.end, encoding),
            });
        }
    }
    locations
}

/// The edit that renames a skill: the `name` value, every mention, then the folder (when it
/// carries the old name), in that order so that the text edits apply before paths change.
///
/// # Errors
/// A message for the user when the new name is not a valid skill name or is taken.
#[expect(
    clippy::too_many_arguments,
    reason = "each input is distinct; a struct would only rename them"
)]
pub fn rename_edit(
    registry: &Registry,
    folder: &Path,
    old: &str,
    new: &str,
    encoding: Encoding,
    source: &dyn Source,
    versions: &HashMap<PathBuf, i32>,
    resource_operations: bool,
) -> Result<WorkspaceEdit, String> {
    let valid = !new.is_empty()
        && new.len() <= NAME_MAX
        && !new.starts_with('-')
        && !new.ends_with('-')
        && !new.contains("--")
        && new
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-');
    if !valid {
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

#[cfg(test)]
mod tests {
    use super::*;

    use crate::lsp::state::test_snapshot as snapshot;

    #[test]
    fn symbols_cover_keys_and_nested_headings() {
        let text =
            "---\nname: pdf\nmetadata:\n  version: \"1\"\n---\n# Top\n## A\ntext\n## B\n# Next\n";
        let symbols = document_symbols(&snapshot(text), Encoding::Utf16);
        let names: Vec<&str> = symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, vec!["frontmatter", "Top", "Next"]);
        let keys: Vec<&str> = symbols[0]
            .children
            .as_ref()
            .unwrap()
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(keys, vec!["name", "metadata"]);
        let sections: Vec<&str> = symbols[1]
            .children
            .as_ref()
            .unwrap()
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(sections, vec!["A", "B"]);
    }

    #[test]
    fn inlay_hints_count_characters() {
        let text = "---\nname: pdf\ndescription: 日本語 text\n---\n";
        let labels: Vec<String> = inlay_hints(&snapshot(text), Encoding::Utf16)
            .into_iter()
            .map(|hint| match hint.label {
                InlayHintLabel::String(label) => label,
                InlayHintLabel::LabelParts(_) => String::new(),
            })
            .collect();
        assert_eq!(labels, vec!["3/64", "8/1024"]);
    }

    #[test]
    fn name_sites() {
        let text = "---\nname: pdf\n---\nUse /code-review after.\n";
        assert_eq!(
            name_at(&snapshot(text), text.find("pdf").unwrap() + 1),
            Some(NameSite::Declaration {
                name: "pdf".into(),
                range: TextRange::new(10, 13)
            })
        );
        let Some(NameSite::Mention(mention)) =
            name_at(&snapshot(text), text.find("/code").unwrap())
        else {
            panic!()
        };
        assert_eq!(mention.name, "code-review");
    }
}
