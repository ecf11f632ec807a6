//! `textDocument/completion`: frontmatter keys and values, bundled file paths, skill names.

use std::path::Path;

use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse, CompletionTextEdit,
    Documentation, InsertTextFormat, TextEdit,
};

use crate::document::SkillDocument;
use crate::field_table::{self, Shape};
use crate::lsp::snapshot::Snapshot;
use crate::targets::{Client, Effect, consequence, join_names};

/// Where the cursor is, in words.
#[derive(Debug, PartialEq)]
enum Site {
    Key { start: usize },
    Value { key: String, start: usize },
    LinkTarget { start: usize },
    BundlePath { start: usize },
    Mention { start: usize },
    Nothing,
}

fn line_before(text: &str, offset: usize) -> (usize, &str) {
    // The one line model: `\n`, `\r\n` or a lone `\r` ends a line.
    let start = text[..offset].rfind(['\n', '\r']).map_or(0, |at| at + 1);
    (start, &text[start..offset])
}

fn site(text: &str, document: &SkillDocument, offset: usize) -> Site {
    let (line_start, before) = line_before(text, offset);
    if let Some(yaml) = document.block().map(|block| block.yaml) {
        let inside = offset >= yaml.start
            && (offset < yaml.end
                || (offset == yaml.end && document.block().is_some_and(|b| b.close.is_none())));
        if inside {
            if before.starts_with([' ', '\t']) {
                return Site::Nothing; // Nested values (metadata) are free-form.
            }
            return match before.find(':') {
                None => Site::Key { start: line_start },
                Some(colon) => {
                    let key = before[..colon].trim().to_owned();
                    let value_start = line_start
                        + colon
                        + 1
                        + (before[colon + 1..].len() - before[colon + 1..].trim_start().len());
                    Site::Value {
                        key,
                        start: value_start,
                    }
                }
            };
        }
    }
    if offset < document.body.range.start {
        return Site::Nothing;
    }
    if let Some(open) = before.rfind("](") {
        if !before[open..].contains([')', ' ', '\t']) {
            return Site::LinkTarget {
                start: line_start + open + 2,
            };
        }
    }
    let token_start = before
        .char_indices()
        .rev()
        .find(|(_, ch)| ch.is_whitespace() || matches!(ch, '(' | '`' | '"' | '\''))
        .map_or(0, |(at, ch)| at + ch.len_utf8());
    let token = &before[token_start..];
    if ["scripts/", "references/", "assets/"]
        .iter()
        .any(|dir| token.starts_with(dir))
    {
        return Site::BundlePath {
            start: line_start + token_start,
        };
    }
    if (token.starts_with('/') || token.starts_with('$'))
        && token[1..]
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
    {
        return Site::Mention {
            start: line_start + token_start + 1,
        };
    }
    Site::Nothing
}

fn documentation(value: String, markdown: bool) -> Documentation {
    super::markup(&value, markdown).map_or_else(
        || Documentation::String(super::plain(&value)),
        Documentation::MarkupContent,
    )
}

/// The name of the skill's folder, which `name` must equal.
fn folder_name(snapshot: &Snapshot) -> Option<&str> {
    snapshot
        .document
        .path
        .as_deref()
        .and_then(Path::parent)
        .and_then(Path::file_name)
        .and_then(|name| name.to_str())
}

/// How a selected target that does not know `field` takes it, e.g.
/// `Claude Code only — skills-ref rejects it`: the item's detail for another client's key.
fn foreign_detail(field: &field_table::Field, targets: &[Client]) -> String {
    let readers: Vec<&str> = field
        .readers
        .iter()
        .map(|target| target.display())
        .collect();
    // Said of the targets that reject it; the readers are named already, and the rest ignore it.
    let effects: Vec<(Client, Effect)> = targets
        .iter()
        .filter(|target| !target.knows(field.name) && target.rejects_unknown_fields())
        .map(|&target| (target, Effect::Reject))
        .collect();
    if effects.is_empty() {
        return format!("{} only — the others ignore it", join_names(&readers));
    }
    format!("{} only — {}", join_names(&readers), consequence(&effects))
}

/// What accepting a key inserts: with snippets, the cursor lands on the value, as a choice of
/// the allowed values where the field has them (so the key is never left empty) or the
/// folder's name for `name`; without snippets, `key: `. Before a `:` already typed, the key alone.
fn key_text(
    field: &field_table::Field,
    snapshot: &Snapshot,
    colon_follows: bool,
) -> (String, InsertTextFormat) {
    if colon_follows {
        return (field.name.to_owned(), InsertTextFormat::PLAIN_TEXT);
    }
    if !snapshot.caps.snippets {
        return (format!("{}: ", field.name), InsertTextFormat::PLAIN_TEXT);
    }
    let folder = folder_name(snapshot).filter(|name| !name.contains(['$', '}', '\\']));
    let value = match (field.shape, field.name) {
        // A mapping: its entries go on the next lines.
        (Shape::Metadata | Shape::Hooks, _) => "\n  ${1}".to_owned(),
        (_, "name") => folder.map_or_else(|| " ${1}".to_owned(), |it| format!(" ${{1:{it}}}")),
        _ if !field.values.is_empty() => format!(" ${{1|{}|}}", field.values.join(",")),
        _ => " ${1}".to_owned(),
    };
    (format!("{}:{value}", field.name), InsertTextFormat::SNIPPET)
}

fn keys(
    snapshot: &Snapshot,
    document: &SkillDocument,
    targets: &[Client],
    start: usize,
    offset: usize,
) -> Vec<CompletionItem> {
    let text: &str = &snapshot.document.text;
    // Keys at column 0 of the frontmatter, read line by line: the YAML is often broken while
    // the user is typing a key.
    let yaml = document
        .block()
        .map_or("", |block| &text[block.yaml.as_range()]);
    let present: Vec<&str> = yaml
        .lines()
        .filter(|line| !line.starts_with([' ', '\t', '#', '-']))
        .filter_map(|line| line.split_once(':').map(|(key, _)| key.trim()))
        .collect();
    // Accepting an item replaces the whole word under the cursor, also the part after it.
    let rest = &text[offset..];
    let word_end = offset
        + rest
            .find(|ch: char| !(ch.is_alphanumeric() || ch == '-' || ch == '_'))
            .unwrap_or(rest.len());
    let colon_follows = text[word_end..]
        .trim_start_matches([' ', '\t'])
        .starts_with(':');
    let range = snapshot.range(start, word_end);
    let mut items = Vec::new();
    for (position, field) in field_table::FIELDS.iter().enumerate() {
        // Known when some target reads it and none would reject it.
        let known = targets.iter().any(|target| target.knows(field.name))
            && targets
                .iter()
                .all(|target| target.knows(field.name) || !target.rejects_unknown_fields());
        if present.contains(&field.name) || field.readers.is_empty() {
            continue;
        }
        let (new_text, format) = key_text(field, snapshot, colon_follows);
        // Another client's key comes after the target's own, saying what it costs here.
        let (detail, rank) = if known {
            (field.kind.to_owned(), position)
        } else {
            (foreign_detail(field, targets), 100 + position)
        };
        items.push(CompletionItem {
            label: field.name.to_owned(),
            kind: Some(CompletionItemKind::PROPERTY),
            detail: Some(detail),
            documentation: Some(documentation(
                field.markdown(),
                snapshot.caps.completion_markdown,
            )),
            insert_text_format: Some(format),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit { range, new_text })),
            sort_text: Some(format!("{rank:03}")),
            ..CompletionItem::default()
        });
    }
    items
}

fn value_item(label: &str, detail: &str, kind: CompletionItemKind) -> CompletionItem {
    CompletionItem {
        label: label.to_owned(),
        kind: Some(kind),
        detail: Some(detail.to_owned()),
        ..CompletionItem::default()
    }
}

fn values(key: &str, snapshot: &Snapshot) -> Vec<CompletionItem> {
    if key == "name" {
        return folder_name(snapshot)
            .map(|folder| {
                vec![value_item(
                    folder,
                    "the folder's name",
                    CompletionItemKind::VALUE,
                )]
            })
            .unwrap_or_default();
    }
    let Some(field) = field_table::lookup(key) else {
        return Vec::new();
    };
    field
        .values
        .iter()
        .map(|value| {
            let kind = if field.shape == Shape::Bool {
                CompletionItemKind::KEYWORD
            } else {
                CompletionItemKind::ENUM_MEMBER
            };
            value_item(value, field.kind, kind)
        })
        .collect()
}

/// Files of the skill folder, relative, at most three levels deep and 500 in all.
fn skill_files(skill_dir: &Path, under: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![(skill_dir.join(under), under.to_owned(), 0)];
    while let Some((dir, prefix, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if name.starts_with('.') || found.len() >= 500 {
                continue;
            }
            let relative = format!("{prefix}{name}");
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                if depth < 3 {
                    stack.push((entry.path(), format!("{relative}/"), depth + 1));
                }
            } else if relative != "SKILL.md" {
                found.push(relative);
            }
        }
    }
    found.sort();
    found
}

fn path_items(
    snapshot: &Snapshot,
    under: &str,
    start: usize,
    offset: usize,
) -> Vec<CompletionItem> {
    let Some(skill_dir) = snapshot.document.path.as_deref().and_then(Path::parent) else {
        return Vec::new();
    };
    let range = snapshot.range(start, offset);
    skill_files(skill_dir, under)
        .into_iter()
        .map(|relative| CompletionItem {
            label: relative.clone(),
            kind: Some(CompletionItemKind::FILE),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                range,
                new_text: relative,
            })),
            ..CompletionItem::default()
        })
        .collect()
}

/// The items at the cursor; `None` rather than an empty list.
pub(crate) fn completion(
    snapshot: &Snapshot,
    params: CompletionParams,
) -> jsonrpc::Result<Option<CompletionResponse>> {
    let offset = snapshot.offset(params.text_document_position.position);
    if let Some(file) = snapshot.eval_file() {
        let items = super::eval_set::complete(snapshot, &file, offset);
        return Ok((!items.is_empty()).then_some(CompletionResponse::Array(items)));
    }
    if snapshot.document.is_manifest() {
        let items = super::manifest::complete(snapshot, offset);
        return Ok((!items.is_empty()).then_some(CompletionResponse::Array(items)));
    }
    let targets = snapshot.context.targets(snapshot.document.path.as_deref());
    let items = complete(snapshot, &targets, offset);
    Ok((!items.is_empty()).then_some(CompletionResponse::Array(items)))
}

/// The items at a byte offset for the given targets.
#[must_use]
pub(crate) fn complete(
    snapshot: &Snapshot,
    targets: &[Client],
    offset: usize,
) -> Vec<CompletionItem> {
    let text: &str = &snapshot.document.text;
    let offset = crate::text::floor_char_boundary(text, offset);
    let document = SkillDocument::parse(text);
    let is_skill = snapshot.document.is_skill_file();
    match site(text, &document, offset) {
        Site::Key { start } if is_skill => keys(snapshot, &document, targets, start, offset),
        Site::Value { key, .. } if is_skill => values(&key, snapshot),
        Site::LinkTarget { start } if is_skill => path_items(snapshot, "", start, offset),
        Site::BundlePath { start } if is_skill => {
            let typed = &text[start..offset];
            let dir = &typed[..typed.find('/').map_or(typed.len(), |at| at + 1)];
            path_items(snapshot, dir, start, offset)
        }
        Site::Mention { start } => {
            let Some(registry) = snapshot.context.registry.as_deref() else {
                return Vec::new();
            };
            let range = snapshot.range(start, offset);
            registry
                .skills
                .iter()
                .map(|skill| CompletionItem {
                    label: skill.name.clone(),
                    kind: Some(CompletionItemKind::MODULE),
                    detail: Some("skill".to_owned()),
                    documentation: Some(documentation(
                        skill.description.clone(),
                        snapshot.caps.completion_markdown,
                    )),
                    text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                        range,
                        new_text: skill.name.clone(),
                    })),
                    ..CompletionItem::default()
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::lsp::snapshot::test_snapshot;

    fn labels(text: &str, targets: &[Client]) -> Vec<String> {
        let offset = text.find('|').unwrap();
        let mut snapshot = test_snapshot(&text.replace('|', ""));
        snapshot.caps.snippets = true;
        snapshot.caps.completion_markdown = true;
        complete(&snapshot, targets, offset)
            .into_iter()
            .map(|item| item.label)
            .collect()
    }

    fn items(text: &str, targets: &[Client], path: Option<&str>) -> Vec<CompletionItem> {
        let offset = text.find('|').unwrap();
        let mut snapshot = test_snapshot(&text.replace('|', ""));
        snapshot.caps.snippets = true;
        if let Some(path) = path {
            snapshot.document.path = Some(path.into());
        }
        complete(&snapshot, targets, offset)
    }

    fn edit(item: &CompletionItem) -> &TextEdit {
        match item.text_edit.as_ref() {
            Some(CompletionTextEdit::Edit(edit)) => edit,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn keys_not_yet_present_for_the_targets_then_other_clients_keys_labelled() {
        let found = labels("---\nname: pdf\nde|\n---\nBody\n", &[Client::AgentSkills]);
        assert_eq!(
            found[..5],
            [
                "description",
                "license",
                "compatibility",
                "metadata",
                "allowed-tools"
            ]
        );
        let all = items("---\nname: pdf\ndis|\n---\n", &[Client::AgentSkills], None);
        let disable = all
            .iter()
            .find(|item| item.label == "disable-model-invocation")
            .expect("another client's key is offered");
        assert_eq!(
            disable.detail.as_deref(),
            Some("Claude Code and Copilot only — skills-ref rejects it")
        );
        assert!(
            disable.sort_text > all[4].sort_text,
            "after the target's own"
        );
        assert!(
            !all.iter().any(|item| item.label == "name"),
            "present keys are left out"
        );
        let claude = labels("---\n|\n---\n", &[Client::ClaudeCode]);
        assert!(claude.contains(&"when_to_use".to_owned()) && claude.contains(&"name".to_owned()));
    }

    #[test]
    fn accepting_a_key_replaces_the_whole_word_and_lands_on_a_value_choice() {
        let text = "---\nname: pdf\nlic|ens\n---\n";
        let all = items(text, &[Client::AgentSkills], None);
        let license = all.iter().find(|item| item.label == "license").unwrap();
        let replaced = edit(license);
        assert_eq!(
            (replaced.range.start.character, replaced.range.end.character),
            (0, 6),
            "the typed word, also after the cursor"
        );
        assert!(
            replaced
                .new_text
                .starts_with("license: ${1|Apache-2.0,MIT,"),
            "{}",
            replaced.new_text
        );
        let inserted = |text: &str, target: Client, path: Option<&str>, label: &str| {
            let all = items(text, &[target], path);
            let item = all.iter().find(|item| item.label == label).unwrap();
            edit(item).new_text.clone()
        };
        assert_eq!(
            inserted(
                "---\nu|: true\n---\n",
                Client::ClaudeCode,
                None,
                "user-invocable"
            ),
            "user-invocable",
            "the colon is there already"
        );
        assert_eq!(
            inserted(
                "---\nna|\n---\n",
                Client::AgentSkills,
                Some("/w/skills/pdf-tools/SKILL.md"),
                "name"
            ),
            "name: ${1:pdf-tools}"
        );
        assert_eq!(
            inserted(
                "---\nde|\n---\n",
                Client::ClaudeCode,
                None,
                "disable-model-invocation"
            ),
            "disable-model-invocation: ${1|true,false|}"
        );
    }

    #[test]
    fn values_for_enums_booleans_and_name() {
        assert_eq!(
            labels("---\nname: |\n---\n", &[Client::AgentSkills]),
            vec!["pdf"]
        );
        assert_eq!(
            labels("---\ncontext: |\n---\n", &[Client::ClaudeCode]),
            vec!["fork"]
        );
        assert_eq!(
            labels("---\nuser-invocable: |\n---\n", &[Client::ClaudeCode]),
            vec!["true", "false"]
        );
        assert!(
            labels("---\nlicense: |\n---\n", &[Client::AgentSkills]).contains(&"MIT".to_owned())
        );
        assert!(labels("---\nmetadata:\n  k: |\n---\n", &[Client::AgentSkills]).is_empty());
    }

    #[test]
    fn sites_in_the_body() {
        let text = "---\nname: a\n---\nSee [x](refs and scripts/ru and /pd";
        let document = SkillDocument::parse(text);
        let at = |needle: &str| text.find(needle).unwrap() + needle.len();
        assert_eq!(
            site(text, &document, at("[x](ref")),
            Site::LinkTarget { start: at("[x](") }
        );
        assert_eq!(
            site(text, &document, at("scripts/ru")),
            Site::BundlePath {
                start: text.find("scripts/").unwrap()
            }
        );
        assert_eq!(
            site(text, &document, text.len()),
            Site::Mention {
                start: text.len() - 2
            }
        );
    }
}
