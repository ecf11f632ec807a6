//! Field rules: presence, types, enumerated values, name and description limits, metadata,
//! YAML 1.1 surprises, `allowed-tools` shape and unknown keys, one file per concern:
//!
//! - `name` and `description` — the two fields every client reads, one function per rule;
//! - `values` — each known field's type and allowed values, YAML 1.1 surprises;
//! - `metadata` — the `metadata` mapping;
//! - `tools` — the shapes of `allowed-tools` and `hooks`;
//! - `unknown` — keys a selected client does not know.

mod description;
mod metadata;
mod name;
mod tools;
mod unknown;
mod values;

use std::borrow::Cow;

use super::fix::{line_end_after, normalise_name, quoted, verify, yaml_string};
use super::suggest::{near_miss, squash};
use super::{Checker, Rule};
use crate::diagnostic::{Edit, Fix};
use crate::document::yaml::yaml11_only_type;
use crate::document::{Entry, Node, NodeKind, Style};
use crate::field_table::{COMPATIBILITY_MAX, DESCRIPTION_MAX, NAME_MAX, Shape};
use crate::targets::{Client, Effect};
use crate::text::TextRange;
use metadata::metadata;
use tools::{allowed_tools_shape, hooks_shape_ok};
use unknown::{TopLevel, unknown_field};
use values::yaml11;

pub(super) fn check(checker: &mut Checker<'_>) {
    let document = checker.document;
    let Some(root) = document.mapping() else {
        return;
    };
    let entries = root.as_mapping().unwrap_or_default();
    name::name_rules(checker, root);
    description::description_rules(checker, root);
    let top = TopLevel::new(entries);
    for entry in entries {
        let Some(key) = entry.key.as_str() else {
            continue;
        };
        match crate::field_table::lookup(key) {
            Some(known) => {
                let field = known.name;
                values::typed_field(checker, known, entry);
                if checker
                    .context
                    .targets
                    .iter()
                    .any(|target| !target.knows(field))
                {
                    unknown_field(checker, &top, entry, key);
                }
            }
            None => unknown_field(checker, &top, entry, key),
        }
    }
}

fn folder_name(checker: &Checker<'_>) -> Option<String> {
    checker.context.folder_name().map(str::to_owned)
}

/// The opening `---` line, where a finding about a missing field is shown.
fn opening_line(checker: &Checker<'_>) -> TextRange {
    checker
        .document
        .block()
        .map_or(TextRange::empty(0), |block| block.open.line)
}

/// The line after which a new top-level key goes: the start of the YAML block.
fn insert_point(checker: &Checker<'_>) -> Option<usize> {
    checker.document.yaml_range().map(|range| range.start)
}

/// How a client that knows `field` takes `value`, which has the wrong type.
fn wrong_type(field: &'static str, value: &Node) -> impl Fn(Client) -> Effect {
    let scalar = matches!(value.kind, NodeKind::Scalar { .. });
    let flow = value.flow;
    move |target: Client| {
        if !target.knows(field) {
            return Effect::Ignore;
        }
        match target {
            Client::AgentSkills => skills_ref_type(field, scalar, flow),
            Client::ClaudeCode => Effect::Misread,
            Client::OpenCode if field != "name" && field != "description" => Effect::Misread,
            other => other.refusal(),
        }
    }
}

/// skills-ref 0.1.1 parses with strictyaml, which reads every scalar as text and refuses flow
/// collections; its validator checks the type of `name`, `description` and `compatibility` only.
fn skills_ref_type(field: &str, scalar: bool, flow: bool) -> Effect {
    if flow {
        Effect::Reject
    } else if scalar {
        Effect::Degrade(
            "reads it as text, but YAML 1.2 loaders do not",
            "read it as text, but YAML 1.2 loaders do not",
        )
    } else if matches!(field, "name" | "description" | "compatibility") {
        Effect::Reject
    } else {
        Effect::Degrade("passes it through unchecked", "pass it through unchecked")
    }
}

/// The written characters past `limit`, so a finding marks the cut point; the whole value when
/// the characters cannot be found in the source.
fn past_limit(text: &str, value: &Node, limit: usize) -> TextRange {
    let Some(content) = value.content_range(text) else {
        return value.range;
    };
    match value.source_offset(text, limit) {
        Some(at) if at < content.end => TextRange::new(at, content.end),
        _ => value.range,
    }
}

/// The written character at byte `at` of a scalar's parsed value, when it can be found.
fn written_char(text: &str, value: &Node, at: usize) -> Option<TextRange> {
    let parsed = value.as_str()?;
    let ch = parsed[at..].chars().next()?;
    let offset = value.source_offset(text, parsed[..at].chars().count())?;
    text[offset..]
        .starts_with(ch)
        .then(|| TextRange::new(offset, offset + ch.len_utf8()))
}

/// Quoting the written text fixes a value that YAML read as something other than a string.
fn quote_fix(text: &str, field: &str, value: &Node) -> Vec<Fix> {
    let written = &text[value.range.as_range()];
    if written.contains('\n') || written.is_empty() {
        return Vec::new();
    }
    let edit = Edit::replace(value.range, quoted(written));
    let ok = verify(text, std::slice::from_ref(&edit), |_, document| {
        document
            .field(field)
            .is_some_and(|entry| entry.value.is_string() && entry.value.as_str() == Some(written))
    });
    if ok {
        vec![Fix::new(
            format!("Quote the '{field}' value"),
            true,
            vec![edit],
        )]
    } else {
        Vec::new()
    }
}

/// The explanations of the rules this module checks, for `skill-lsp rules`.
pub(crate) fn rule_docs(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    name::rule_doc(rule)
        .or_else(|| description::rule_doc(rule))
        .or_else(|| values::rule_doc(rule))
        .or_else(|| metadata::rule_doc(rule))
        .or_else(|| tools::rule_doc(rule))
        .or_else(|| unknown::rule_doc(rule))
}

#[cfg(test)]
mod tests;
