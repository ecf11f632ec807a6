//! Each known field's type and allowed values, and YAML 1.1 surprises in string values.

use super::*;

pub(super) fn typed_field(
    checker: &mut Checker<'_>,
    known: &'static crate::field_table::Field,
    entry: &Entry,
) {
    let field = known.name;
    let value = &entry.value;
    if matches!(known.shape, Shape::String | Shape::Enum) {
        string_field(checker, known, entry);
    } else if known.shape == Shape::StringOrList {
        let ok = value.is_string()
            || matches!(&value.kind, NodeKind::Sequence(items) if items.iter().all(Node::is_string));
        if !ok {
            checker.report(
                Rule::FieldType,
                value.range,
                format!(
                    "'{field}' is {}; it must be a string or a list of strings",
                    value.describe()
                ),
                wrong_type(field, value),
                quote_fix(checker.text, field, value),
            );
        }
        if field == "allowed-tools" {
            allowed_tools_shape(checker, entry);
        }
    } else if known.shape == Shape::Bool {
        bool_field(checker, field, value);
    } else if known.shape == Shape::Metadata {
        metadata(checker, value);
    } else if known.shape == Shape::Hooks && !hooks_shape_ok(value) {
        checker.report(
            Rule::FieldType,
            value.range,
            "hooks must map each event to a list of '{matcher, hooks: [{type, command}]}' entries",
            wrong_type(field, value),
            Vec::new(),
        );
    }
}

fn string_field(
    checker: &mut Checker<'_>,
    known: &'static crate::field_table::Field,
    entry: &Entry,
) {
    let field = known.name;
    let value = &entry.value;
    if !value.is_string() {
        if value.as_str() == Some("") && (field == "name" || field == "description") {
            return; // Reported as empty by the name and description rules.
        }
        checker.report(
            Rule::FieldType,
            value.range,
            format!("'{field}' is {}; it must be a string", value.describe()),
            wrong_type(field, value),
            quote_fix(checker.text, field, value),
        );
        return;
    }
    let text = value.as_str().unwrap_or_default();
    if value.style() == Some(Style::Plain) {
        if let Some(kind) = yaml11_only_type(text) {
            yaml11(checker, field, value, kind);
        }
    }
    if field == "compatibility" {
        let chars = text.chars().count();
        let empty = text.trim().is_empty();
        if empty || chars > COMPATIBILITY_MAX {
            checker.report(
                Rule::CompatibilityLength,
                if empty {
                    value.range
                } else {
                    past_limit(checker.text, value, COMPATIBILITY_MAX)
                },
                if empty {
                    "compatibility is empty; leave it out or give 1-500 characters".to_owned()
                } else {
                    format!(
                        "compatibility is {chars} characters long; the limit is {COMPATIBILITY_MAX}"
                    )
                },
                move |target| match target {
                    // skills-ref 0.1.1 checks the upper limit only.
                    Client::AgentSkills if empty => Effect::Degrade(
                        "accepts it; the spec does not",
                        "accept it; the spec does not",
                    ),
                    Client::ClaudeCode => Effect::Load,
                    target if target.knows("compatibility") => target.refusal(),
                    _ => Effect::Load,
                },
                Vec::new(),
            );
        }
    }
    if known.shape == Shape::Enum && !known.values.contains(&text) {
        enum_value(checker, field, entry, known.values);
    }
}

pub(super) fn yaml11(checker: &mut Checker<'_>, field: &str, value: &Node, kind: &str) {
    let written = &checker.text[value.range.as_range()];
    let fix = Fix::new(
        format!("Quote '{written}'"),
        true,
        vec![Edit::replace(value.range, quoted(written))],
    );
    checker.report_all(
        Rule::Yaml11Type,
        value.range,
        format!("'{field}: {written}' is a string in YAML 1.2 but {kind} in YAML 1.1"),
        "loaders built on YAML 1.1 (PyYAML and others) read it wrongly; quote it",
        vec![fix],
    );
}

/// A value outside an enumerated field's set. The fix keeps what Claude Code (the field's one
/// reader) does today: the value it reads the text as, written out; or, where it passes over
/// the value, no field at all. Never another value, which would change what the skill does.
fn enum_value(checker: &mut Checker<'_>, field: &'static str, entry: &Entry, allowed: &[&str]) {
    use crate::clients::claude_code::{Setting, setting};
    let value = &entry.value;
    let shown = checker.text[value.range.as_range()].to_owned();
    let read_as = setting(field, value.as_str().unwrap_or_default());
    let fixes = match &read_as {
        Setting::Takes(known) => vec![Fix::new(
            format!("Change to '{known}' (Claude Code reads it so already)"),
            true,
            vec![Edit::replace(value.range, known.as_str())],
        )],
        // Only a plain top-level line can go whole.
        Setting::Default(does) => crate::rules::fix::entry_line(checker.text, entry)
            .map(|line| {
                Fix::new(
                    format!("Remove '{field}: {shown}' (Claude Code {does})"),
                    false,
                    vec![Edit::delete(line)],
                )
            })
            .into_iter()
            .collect(),
        Setting::Unmodelled => Vec::new(),
    };
    let consequence = match &read_as {
        Setting::Default(does) => format!(": Claude Code {does}, as without the field"),
        _ => String::new(),
    };
    let fine = matches!(read_as, Setting::Takes(_));
    checker.report(
        Rule::FieldValue,
        value.range,
        format!(
            "'{field}: {shown}' is not one of the allowed values ({}){consequence}",
            allowed.join(", ")
        ),
        move |target| {
            if !target.knows(field) {
                Effect::Ignore
            } else if fine && target == Client::ClaudeCode {
                Effect::Load
            } else {
                Effect::Misread
            }
        },
        fixes,
    );
}

fn bool_field(checker: &mut Checker<'_>, field: &'static str, value: &Node) {
    if value.scalar_type() == Some(crate::document::ScalarType::Bool) {
        return;
    }
    let written = checker.text[value.range.as_range()].to_owned();
    let lower = value.as_str().unwrap_or_default().to_ascii_lowercase();
    let canonical = match lower.as_str() {
        "true" | "yes" | "on" | "y" | "1" => Some("true"),
        "false" | "no" | "off" | "n" | "0" => Some("false"),
        _ => None,
    };
    let fixes = match canonical {
        Some(canonical) => vec![Fix::new(
            format!("Change to '{canonical}'"),
            true,
            vec![Edit::replace(value.range, canonical)],
        )],
        None => ["true", "false"]
            .iter()
            .map(|choice| {
                Fix::new(
                    format!("Change to '{choice}'"),
                    false,
                    vec![Edit::replace(value.range, *choice)],
                )
            })
            .collect(),
    };
    checker.report(
        Rule::FieldValue,
        value.range,
        format!("'{field}: {written}' must be 'true' or 'false'"),
        move |target| {
            if !target.knows(field) {
                Effect::Ignore
            } else if target == Client::Copilot {
                // Copilot refuses a skill whose switch is anything but a YAML boolean.
                if value.scalar_type() == Some(crate::document::ScalarType::Null) {
                    Effect::Load
                } else {
                    Effect::Skip
                }
            } else if target == Client::ClaudeCode && canonical.is_some() {
                // Claude Code reads `yes`, `On`, `1` and the like, quoted or not, as the
                // boolean they spell (the oracles' disable-model-invocation cases).
                Effect::Fine("reads it as meant", "read it as meant")
            } else {
                Effect::Misread
            }
        },
        fixes,
    );
}

/// What `skill-lsp rules` says of the rules checked here.
pub(crate) fn rule_doc(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    use crate::rule_table::{Rule, RuleDoc};
    Some(match rule {
        Rule::FieldType => RuleDoc::new(
            "A field has the wrong YAML type for a target.",
            "Strict loaders reject a list or number where they expect a string; others misread it. skills-ref reads every scalar as text and rejects a list only for `name`, `description` and `compatibility`.",
            "`argument-hint: [file]` is a list; `name: 3000` is a number; `metadata: x` is not a mapping.",
            "Quote the value where quoting keeps the text (safe).",
        ),
        Rule::FieldValue => RuleDoc::new(
            "An enumerated field has a value outside its set.",
            "Claude Code and Copilot ignore or misread unknown values of `context`, `effort`, `shell` and the boolean fields.",
            "`context: forked` (only `fork` exists); `user-invocable: \"false\"` (a string).",
            "A spelling Claude Code already reads as an allowed value (`effort: High`, `shell: Bash`) is written as that value (safe); one it passes over (`context: inline`, which runs inline like no `context`) is removed in the editor, never replaced by a value that would change what the skill does; `yes`/`no`-style booleans become `true`/`false` (safe).",
        ),
        Rule::CompatibilityLength => RuleDoc::new(
            "`compatibility` is empty or longer than 500 characters.",
            "The spec limits it to 1-500 characters. skills-ref and Anthropic's upload check reject longer values; skills-ref accepts an empty one, the upload check does not.",
            "`compatibility: \"\"`",
            "Leave the field out or shorten it.",
        ),
        Rule::Yaml11Type => RuleDoc::new(
            "An unquoted value that YAML 1.1 loaders read as a non-string.",
            "PyYAML and other YAML 1.1 loaders turn `no`, `on`, `1.0` or `2024-01-01` into booleans, numbers or dates.",
            "`license: no` or `metadata:` / `  version: 1.10` (becomes `1.1`).",
            "Quote the value (safe).",
        ),
        _ => return None,
    })
}
