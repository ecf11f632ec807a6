//! The `metadata` mapping: string values, as clients that read it expect.

use super::*;

pub(super) fn metadata(checker: &mut Checker<'_>, value: &Node) {
    let Some(entries) = value.as_mapping() else {
        if value.as_str() == Some("") {
            return;
        }
        checker.report(
            Rule::FieldType,
            value.range,
            format!(
                "metadata is {}; it must be a mapping of string keys to string values",
                value.describe()
            ),
            |target| match target {
                Client::ClaudeCode => Effect::Degrade("drops it", "drop it"),
                // skills-ref 0.1.1 does not check `metadata` unless it is a mapping.
                Client::AgentSkills => {
                    Effect::Degrade("passes it through unchecked", "pass it through unchecked")
                }
                target if target.knows("metadata") => target.refusal(),
                _ => Effect::Ignore,
            },
            Vec::new(),
        );
        return;
    };
    for entry in entries {
        let key = entry.key.as_str().unwrap_or("?");
        let inner = &entry.value;
        match &inner.kind {
            NodeKind::Mapping(_) | NodeKind::Sequence(_) => {
                let is_short = key == "short-description";
                let flow = inner.flow;
                checker.report(
                    Rule::MetadataValue,
                    inner.range,
                    format!(
                        "'metadata.{key}' is {}; metadata values should be strings",
                        inner.describe()
                    ),
                    move |target| match target {
                        Client::Codex if is_short => Effect::Skip,
                        // strictyaml refuses flow collections before anything is stringified.
                        Client::AgentSkills if flow => Effect::Reject,
                        Client::AgentSkills | Client::OpenCode => {
                            Effect::Degrade("turns it into a string", "turn it into a string")
                        }
                        // Anthropic's upload check does not look inside `metadata`.
                        Client::ClaudeUpload => Effect::Degrade(
                            "accepts it, but the spec asks for string values",
                            "accept it, but the spec asks for string values",
                        ),
                        _ => Effect::Load,
                    },
                    Vec::new(),
                );
            }
            NodeKind::Scalar { .. } if !inner.is_string() => {
                let written = checker.text[inner.range.as_range()].to_owned();
                // `true` is a boolean to every YAML reader, and tools that read metadata (an
                // installer's `internal: true`) test for the boolean: quoting it would change
                // what they do. Numbers are the ones readers turn into different text.
                if written.is_empty()
                    || inner.scalar_type() == Some(crate::document::ScalarType::Bool)
                {
                    continue;
                }
                let fix = Fix::new(
                    format!("Quote '{written}'"),
                    true,
                    vec![Edit::replace(inner.range, quoted(&written))],
                );
                checker.report_all(
                    Rule::Yaml11Type,
                    inner.range,
                    format!(
                        "'metadata.{key}: {written}' is {}, not a string",
                        inner.describe()
                    ),
                    "loaders turn it into text differently ('1.10' becomes '1.1'); quote it",
                    vec![fix],
                );
            }
            NodeKind::Scalar {
                style: Style::Plain,
                value: text,
            } => {
                if let Some(kind) = yaml11_only_type(text) {
                    let field = format!("metadata.{key}");
                    yaml11(checker, &field, inner, kind);
                }
            }
            _ => {}
        }
    }
}

/// What `skill-lsp rules` says of the rules checked here.
pub(crate) fn rule_doc(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    use crate::rule_table::{Rule, RuleDoc};
    Some(match rule {
        Rule::MetadataValue => RuleDoc::new(
            "A `metadata` value is a mapping or a list, not a string.",
            "The spec says string values; skills-ref stringifies nested values (a flow collection fails its parser) and strict loaders reject them.",
            "`metadata:` / `  tags:` / `    - pdf`",
            "Flatten to string values such as `tags: \"pdf forms\"`.",
        ),
        _ => return None,
    })
}
