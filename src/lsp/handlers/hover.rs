//! `textDocument/hover`: a field's meaning, type, limit, readers and current length; a skill
//! mention's description.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{Hover, HoverContents, HoverParams, MarkedString};

use crate::document::SkillDocument;
use crate::document::mentions::body_mentions;
use crate::field_table;
use crate::lsp::snapshot::Snapshot;
use crate::workspace::explain;

fn contents(value: String, markdown: bool) -> HoverContents {
    super::markup(&value, markdown).map_or_else(
        || HoverContents::Scalar(MarkedString::String(super::plain(&value))),
        HoverContents::Markup,
    )
}

pub(crate) fn hover(snapshot: &Snapshot, params: HoverParams) -> Result<Option<Hover>> {
    let offset = snapshot.offset(params.text_document_position_params.position);
    if snapshot.document.is_manifest() {
        return Ok(super::manifest::hover_at(snapshot, offset));
    }
    Ok(hover_at(snapshot, offset))
}

/// What the skill's files can do to the user's machine (the capability summary of
/// `check --format json`), with the file and line that shows each, and its security errors.
fn what_the_skill_can_do(snapshot: &Snapshot, markdown: bool) -> Option<String> {
    let path = snapshot.document.path.as_deref()?;
    if !crate::workspace::discovery::is_skill_path(path) {
        return None;
    }
    let folder = path.parent()?;
    let (errors, evidence) = snapshot
        .context
        .engine
        .security_report(path, &snapshot.document.text);
    let mut lines = Vec::new();
    for found in &evidence {
        let shown = found.path.strip_prefix(folder).unwrap_or(&found.path);
        // A whole script (a shell script runs shell commands) shows no one snippet.
        let snippet = match (found.snippet.trim(), markdown) {
            ("", _) => String::new(),
            (snippet, true) => format!(": `{}`", snippet.replace('`', "'")),
            (snippet, false) => format!(": {snippet}"),
        };
        lines.push(if markdown {
            format!(
                "- {} — `{}` line {}{snippet}",
                found.capability.describe(),
                shown.display(),
                found.line(),
            )
        } else {
            format!(
                "- {} — {} line {}{snippet}",
                found.capability.describe(),
                shown.display(),
                found.line(),
            )
        });
    }
    if lines.is_empty() {
        lines.push("- nothing the security rules look for: no network, shell, secrets, persistence or files outside the project".to_owned());
    }
    let heading = if markdown {
        "**What its files can do**"
    } else {
        "What its files can do"
    };
    let mut text = format!("{heading}\n\n{}", lines.join("\n"));
    if !errors.is_empty() {
        text.push_str(&format!(
            "\n\n{} security error{}: the agent asks before loading it.",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" }
        ));
    }
    Some(text)
}

/// What each client does with this skill, as `skill-lsp explain` says it, when the document is a
/// skill of its workspace's registry.
fn what_clients_do(snapshot: &Snapshot, markdown: bool) -> Option<String> {
    let path = snapshot.document.path.as_deref()?;
    let registry = snapshot.context.registry.as_deref()?;
    if !explain::skills_in(registry).any(|skill| skill == path) {
        return None;
    }
    let engine = &snapshot.context.engine;
    let selected = engine
        .targets
        .clone()
        .or_else(|| engine.config.targets.clone());
    let views = explain::explain(
        registry,
        path,
        &explain::clients_for(selected.as_deref()),
        engine.context_window,
    );
    let base = snapshot
        .workspace
        .as_ref()
        .map(|(folder, _)| folder.as_path());
    let heading = if markdown {
        "**What each client does**"
    } else {
        "What each client does"
    };
    Some(format!(
        "{heading}\n\n{}",
        explain::render(&views, markdown, base)
    ))
}

/// The hover at a byte offset.
#[must_use]
pub(crate) fn hover_at(snapshot: &Snapshot, offset: usize) -> Option<Hover> {
    let text: &str = &snapshot.document.text;
    let markdown = snapshot.caps.hover_markdown;
    let document = SkillDocument::parse_for_editing(text);
    if let Some(entries) = document.mapping().and_then(|root| root.as_mapping()) {
        for entry in entries {
            let on_key = entry.key.range.start <= offset && offset <= entry.key.range.end;
            if !on_key {
                continue;
            }
            let key = entry.key.as_str()?;
            let mut value = match field_table::lookup(key) {
                Some(field) => field.markdown(),
                None => format!(
                    "**{key}** — not a field any client knows; custom data belongs under `metadata:`"
                ),
            };
            if let (Some(field), Some(current)) = (field_table::lookup(key), entry.value.as_str()) {
                if let Some(limit) = field.max_chars {
                    let length = current.chars().count();
                    value = format!("{key} — {length}/{limit} characters\n\n{value}");
                }
            }
            if key == "name" {
                if let Some(summary) = what_the_skill_can_do(snapshot, markdown) {
                    value = format!("{value}\n\n{summary}");
                }
                if let Some(clients) = what_clients_do(snapshot, markdown) {
                    value = format!("{value}\n\n{clients}");
                }
            }
            return Some(Hover {
                contents: contents(value, markdown),
                range: Some(snapshot.range(entry.key.range.start, entry.key.range.end)),
            });
        }
    }
    let registry = snapshot.context.registry.as_deref()?;
    let mention = body_mentions(text, &document.body)
        .into_iter()
        .find(|mention| {
            mention.range.start.saturating_sub(1) <= offset && offset <= mention.range.end
        })?;
    let skill = registry.get(&mention.name)?;
    Some(Hover {
        contents: contents(
            format!(
                "**{}** (skill)\n\n{}\n\n`{}`",
                skill.name,
                skill.description,
                skill.path.display()
            ),
            markdown,
        ),
        range: Some(snapshot.range(mention.range.start - 1, mention.range.end)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::lsp::snapshot::test_snapshot;
    use crate::workspace::Registry;

    /// A snapshot of `text` for a client that renders Markdown.
    fn snapshot(text: &str) -> Snapshot {
        let mut snapshot = test_snapshot(text);
        snapshot.caps.hover_markdown = true;
        snapshot
    }

    fn contents(hover: Hover) -> String {
        match hover.contents {
            HoverContents::Markup(markup) => markup.value,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn hover_on_a_key_shows_length_against_the_limit() {
        let text = "---\nname: pdf\ndescription: Fill forms.\n---\nBody\n";
        let hover = hover_at(&snapshot(text), text.find("descr").unwrap() + 2).unwrap();
        let value = contents(hover);
        assert!(
            value.starts_with("description — 11/1024 characters"),
            "{value}"
        );
        assert!(value.contains("Read by: skills-ref"));
    }

    #[test]
    fn hover_keeps_working_while_a_key_is_half_typed() {
        // `lic` has no colon yet: the YAML does not parse, but the other keys still read.
        let text = "---\nname: pdf\nlic\ndescription: Fill forms.\n---\nBody\n";
        let hover = hover_at(&snapshot(text), text.find("descr").unwrap() + 2).unwrap();
        assert!(
            contents(hover).starts_with("description — 11/1024 characters"),
            "the value is read around the broken line"
        );
        let on_name = hover_at(&snapshot(text), 5).unwrap();
        assert!(contents(on_name).starts_with("name — 3/64 characters"));
    }

    #[test]
    fn hover_on_name_says_what_each_client_does() {
        let text = "---\nname: pdf\ndescription: Fills forms.\n---\n";
        let mut registry = Registry::default();
        registry.roots = vec!["/w/skills".into(), "/w/.claude/skills".into()];
        registry.add(crate::workspace::Skill::new(
            crate::workspace::loader::read_metadata(text, "pdf", crate::targets::ClientSet::ALL),
            "/w/skills/pdf/SKILL.md".into(),
            "/w/skills".into(),
            "pdf".into(),
        ));
        let mut snapshot = snapshot(text);
        snapshot.context.registry = Some(registry.clone().into());
        snapshot.workspace = Some(("/w".into(), registry.clone().into()));
        let value = contents(hover_at(&snapshot, 5).unwrap());
        let views = explain::explain(
            &registry,
            std::path::Path::new("/w/skills/pdf/SKILL.md"),
            &explain::CLIENTS,
            None,
        );
        let expected = explain::render(&views, true, Some(std::path::Path::new("/w")));
        assert!(
            value.ends_with(&format!("**What each client does**\n\n{expected}")),
            "{value}"
        );
        assert!(
            value.contains("**Claude Code**: not loaded: no root it reads holds this skill"),
            "{value}"
        );
        // Not on other keys, and not for a file outside the registry.
        let on_description = contents(hover_at(&snapshot, 15).unwrap());
        assert!(!on_description.contains("What each client does"));
        snapshot.context.registry = Some(Registry::default().into());
        assert!(!contents(hover_at(&snapshot, 5).unwrap()).contains("What each client does"));
    }

    #[test]
    fn hover_on_a_mention_shows_the_description() {
        let mut registry = Registry::default();
        registry.add(crate::workspace::Skill::new(
            crate::workspace::loader::read_metadata(
                "---\nname: pdf\ndescription: Fills forms.\n---\n",
                "pdf",
                crate::targets::ClientSet::NONE,
            ),
            "/w/skills/pdf/SKILL.md".into(),
            "/w/skills".into(),
            "pdf".into(),
        ));
        let text = "---\nname: a\n---\nThen run /pdf.\n";
        let mut snapshot = snapshot(text);
        snapshot.context.registry = Some(registry.into());
        let hover = hover_at(&snapshot, text.find("/pdf").unwrap() + 2).unwrap();
        assert!(contents(hover).contains("Fills forms."));
    }
}
