//! A plugin manifest open in the editor (`.claude-plugin/plugin.json`, `marketplace.json`):
//! hover and completion of its keys, from the one table of manifest keys
//! (`plugins::fields`). Its diagnostics come from the engine like a SKILL.md's.

use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, Documentation, Hover, HoverContents, MarkedString,
};

use crate::lsp::snapshot::Snapshot;
use crate::plugins::fields::{self, Field, Scope};
use crate::plugins::json::{self, Node};
use crate::plugins::{ManifestKind, manifest_kind};

fn top_scope(snapshot: &Snapshot) -> Option<Scope> {
    match manifest_kind(snapshot.document.path.as_deref()?)? {
        ManifestKind::Plugin => Some(Scope::Plugin),
        ManifestKind::Marketplace => Some(Scope::Marketplace),
    }
}

/// The words of hover and completion for one key.
fn markdown(field: &Field) -> String {
    let required = if field.required { " (required)" } else { "" };
    format!("**{}**{required}\n\n{}", field.key, field.doc)
}

/// The hover on a manifest key: what it is for. `None` when the manifest does not parse (a half
/// typed document has no keys to trust) or the cursor is on no known key.
#[must_use]
pub(crate) fn hover_at(snapshot: &Snapshot, offset: usize) -> Option<Hover> {
    let scope = top_scope(snapshot)?;
    let root = json::parse(&snapshot.document.text).ok()?;
    let mut objects: Vec<(&Node, Scope)> = vec![(&root, scope)];
    if scope == Scope::Marketplace {
        let entries = root
            .get("plugins")
            .and_then(|plugins| plugins.value.items());
        objects.extend(
            entries
                .into_iter()
                .flatten()
                .map(|entry| (entry, Scope::Entry)),
        );
    }
    for (object, scope) in objects {
        for member in object.members().unwrap_or_default() {
            let range = member.key_range;
            if range.start <= offset && offset <= range.end {
                let field = fields::lookup(scope, &member.key)?;
                let mut value = markdown(field);
                if scope == Scope::Plugin && matches!(field.key, "name" | "skills") {
                    value.push_str(&provided(snapshot));
                }
                let contents = super::markup(&value, snapshot.caps.hover_markdown).map_or_else(
                    || HoverContents::Scalar(MarkedString::String(super::plain(&value))),
                    HoverContents::Markup,
                );
                return Some(Hover {
                    contents,
                    range: Some(snapshot.range(range.start, range.end)),
                });
            }
        }
    }
    None
}

/// The skills the plugin gives Claude Code (`plugin:skill`), as a hover paragraph.
fn provided(snapshot: &Snapshot) -> String {
    let Some(path) = snapshot.document.path.as_deref() else {
        return String::new();
    };
    let skills = crate::plugins::provided_skills(
        path,
        &snapshot.document.text,
        &crate::workspace::read::DiskFiles,
    );
    if skills.is_empty() {
        "\n\nThe plugin provides no skills.".to_owned()
    } else {
        let listed: Vec<String> = skills.iter().map(|skill| format!("`{skill}`")).collect();
        format!("\n\nThe plugin provides the skills {}.", listed.join(", "))
    }
}

/// Where the cursor is, read from the text before it (which need not parse): the scope of the
/// object whose key is being typed, the keys it already has, and whether a quote is open.
struct KeySite {
    scope: Scope,
    quoted: bool,
    present: Vec<String>,
}

fn key_site(before: &str, top: Scope) -> Option<KeySite> {
    // A stack of open containers: for an object, its keys so far and the key that holds it.
    struct Open {
        object: bool,
        held_by: Option<String>,
        keys: Vec<String>,
    }
    let mut stack: Vec<Open> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    let mut string = String::new();
    let mut last_string: Option<String> = None;
    // Whether the next string in the current object is a key.
    let mut expect_key = false;
    let mut string_is_key = false;
    for c in before.chars() {
        if in_string {
            if escaped {
                escaped = false;
                string.push(c);
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
                if string_is_key {
                    if let Some(open) = stack.last_mut() {
                        open.keys.push(string.clone());
                    }
                }
                last_string = Some(std::mem::take(&mut string));
            } else {
                string.push(c);
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                string_is_key = expect_key;
                expect_key = false;
            }
            '{' | '[' => {
                let held_by = stack
                    .last()
                    .filter(|open| open.object)
                    .and(last_string.take());
                stack.push(Open {
                    object: c == '{',
                    held_by,
                    keys: Vec::new(),
                });
                expect_key = c == '{';
            }
            '}' | ']' => {
                stack.pop();
                expect_key = false;
            }
            ',' => expect_key = stack.last().is_some_and(|open| open.object),
            ':' => expect_key = false,
            _ => {}
        }
    }
    if !(expect_key || (in_string && string_is_key)) {
        return None;
    }
    let scope = match stack.as_slice() {
        [only] if only.object => top,
        [root, list, entry]
            if top == Scope::Marketplace
                && root.object
                && !list.object
                && list.held_by.as_deref() == Some("plugins")
                && entry.object =>
        {
            Scope::Entry
        }
        _ => return None,
    };
    Some(KeySite {
        scope,
        quoted: in_string,
        present: stack
            .last()
            .map(|open| open.keys.clone())
            .unwrap_or_default(),
    })
}

/// The keys that may be typed at the cursor, without those the object already has.
#[must_use]
pub(crate) fn complete(snapshot: &Snapshot, offset: usize) -> Vec<CompletionItem> {
    let Some(top) = top_scope(snapshot) else {
        return Vec::new();
    };
    let text: &str = &snapshot.document.text;
    let offset = crate::text::floor_char_boundary(text, offset);
    let Some(site) = key_site(&text[..offset], top) else {
        return Vec::new();
    };
    let markdown_wanted = snapshot.caps.completion_markdown;
    fields::fields(site.scope)
        .filter(|field| !site.present.iter().any(|key| key == field.key))
        .map(|field| {
            let value = markdown_doc(field, markdown_wanted);
            CompletionItem {
                label: field.key.to_owned(),
                kind: Some(CompletionItemKind::PROPERTY),
                detail: field.required.then(|| "required".to_owned()),
                documentation: Some(value),
                insert_text: Some(if site.quoted {
                    field.key.to_owned()
                } else {
                    format!("\"{}\": ", field.key)
                }),
                // Required keys first, then the table's order.
                sort_text: Some(format!("{}{}", u8::from(!field.required), field.key)),
                ..CompletionItem::default()
            }
        })
        .collect()
}

fn markdown_doc(field: &Field, markdown: bool) -> Documentation {
    let value = self::markdown(field);
    super::markup(&value, markdown).map_or_else(
        || Documentation::String(super::plain(&value)),
        Documentation::MarkupContent,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::snapshot::test_snapshot;

    fn snapshot(path: &str, text: &str) -> Snapshot {
        let mut snapshot = test_snapshot(text);
        snapshot.document.path = Some(path.into());
        snapshot.document.uri = format!("file://{path}").parse().unwrap();
        snapshot
    }

    fn labels(path: &str, text: &str) -> Vec<String> {
        let at = text.find('|').unwrap();
        let text = text.replace('|', "");
        complete(&snapshot(path, &text), at)
            .into_iter()
            .map(|item| item.label)
            .collect()
    }

    const PLUGIN: &str = "/w/.claude-plugin/plugin.json";
    const MARKETPLACE: &str = "/w/.claude-plugin/marketplace.json";

    #[test]
    fn keys_are_offered_where_a_key_goes_without_those_present() {
        let offered = labels(PLUGIN, "{\"name\": \"a\", |");
        assert!(offered.contains(&"version".to_owned()));
        assert!(offered.contains(&"skills".to_owned()));
        assert!(!offered.contains(&"name".to_owned()));
        assert!(labels(PLUGIN, "{\"name\": |").is_empty());
        assert!(labels(PLUGIN, "{\"author\": {|").is_empty());
        let typed = labels(PLUGIN, "{\"na|");
        assert!(typed.contains(&"name".to_owned()));
    }

    #[test]
    fn a_marketplace_entry_gets_entry_keys() {
        let offered = labels(
            MARKETPLACE,
            "{\"name\": \"m\", \"plugins\": [{\"name\": \"a\", |",
        );
        assert!(offered.contains(&"source".to_owned()));
        assert!(offered.contains(&"strict".to_owned()));
        let top = labels(MARKETPLACE, "{|");
        assert!(top.contains(&"owner".to_owned()) && !top.contains(&"source".to_owned()));
    }

    #[test]
    fn hover_explains_a_key_of_either_manifest() {
        let text = "{\"name\": \"m\", \"plugins\": [{\"name\": \"a\", \"source\": \"./a\"}]}";
        let at = text.find("source").unwrap();
        let hover = hover_at(&snapshot(MARKETPLACE, text), at).unwrap();
        let HoverContents::Scalar(MarkedString::String(value)) = hover.contents else {
            panic!("plain text for a client without Markdown");
        };
        assert!(value.starts_with("source (required)"), "{value}");
        assert!(hover_at(&snapshot(PLUGIN, "{\"name\": \"a\"}"), 3).is_some());
        assert!(hover_at(&snapshot(PLUGIN, "{\"nope\": 1}"), 3).is_none());
    }
}
