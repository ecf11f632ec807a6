//! Field rules: presence, types, enumerated values, name and description limits, metadata,
//! YAML 1.1 surprises, `allowed-tools` shape and unknown keys.

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

const TRIGGERS: &[&str] = &[
    "use when",
    "use after",
    "use before",
    "use only when",
    "use only for",
    "use this",
    "skill when",
    "when claude",
    "when the agent",
    "when an agent",
    "use it",
    "use for",
    "used when",
    "used for",
    "when the user",
    "when a user",
    "when user",
    "when you",
    "when asked",
    "when working",
    "when the task",
    "whenever",
    "trigger",
    "invoke",
    "if the user",
    "if you need",
    "for tasks",
];

/// "Use" and a moment, with adverbs between ("Use immediately after a deploy", "Use
/// proactively when …"): a trigger the fixed phrases above do not spell.
static USE_AT_A_MOMENT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)\b(?:use|used|invoke|load|apply)\s+(?:[a-z]+ly\s+|only\s+|also\s+|always\s+)+(?:when|whenever|after|before|for|if|during|once|while)\b",
    )
    .expect("trigger expression compiles")
});

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

/// What skills-ref validates as the name: the value with surrounding whitespace stripped.
fn skills_ref_name(name: &str) -> Cow<'_, str> {
    nfkc(name.trim())
}

/// skills-ref compares names and folders in Unicode compatibility form: a name typed
/// precomposed matches a folder that macOS stored decomposed, and `ｐｄｆ` is `pdf`.
fn nfkc(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    icu_normalizer::ComposingNormalizerBorrowed::new_nfkc().normalize(text)
}

/// skills-ref's character rule: lowercase, letters (any script), digits and single inner
/// hyphens; stricter clients allow ASCII only.
fn skills_ref_accepts_format(name: &str) -> bool {
    let name = skills_ref_name(name);
    let name = name.as_ref();
    !name.is_empty()
        && name.to_lowercase() == name
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
        && name.chars().all(|ch| ch.is_alphanumeric() || ch == '-')
}

/// How a client takes a missing or empty `name`.
fn no_name(target: Client) -> Effect {
    match target {
        Client::ClaudeCode | Client::Codex => {
            Effect::Fine("uses the folder name", "use the folder name")
        }
        other => other.refusal(),
    }
}

/// How a client takes a missing or empty `description`.
fn no_description(target: Client) -> Effect {
    match target {
        Client::ClaudeCode => Effect::Degrade(
            "uses the body's first line instead",
            "use the body's first line instead",
        ),
        other => other.refusal(),
    }
}

pub(super) fn check(checker: &mut Checker<'_>) {
    let document = checker.document;
    let Some(root) = document.mapping() else {
        return;
    };
    let entries = root.as_mapping().unwrap_or_default();
    name_rules(checker, root);
    description_rules(checker, root);
    for entry in entries {
        let Some(key) = entry.key.as_str() else {
            continue;
        };
        match crate::field_table::lookup(key) {
            Some(known) => {
                let field = known.name;
                typed_field(checker, known, entry);
                if checker
                    .context
                    .targets
                    .iter()
                    .any(|target| !target.knows(field))
                {
                    unknown_field(checker, entries, entry, key);
                }
            }
            None => unknown_field(checker, entries, entry, key),
        }
    }
}

fn folder_name(checker: &Checker<'_>) -> Option<String> {
    checker.context.folder_name().map(str::to_owned)
}

/// The line after which a new top-level key goes: the start of the YAML block.
fn insert_point(checker: &Checker<'_>) -> Option<usize> {
    checker.document.yaml_range().map(|range| range.start)
}

fn name_rules(checker: &mut Checker<'_>, root: &Node) {
    let folder = folder_name(checker);
    let valid_folder = folder
        .clone()
        .filter(|folder| crate::field_table::is_valid_skill_name(folder));
    let Some(entry) = root.get("name") else {
        let fixes = match (valid_folder.as_ref(), insert_point(checker)) {
            (Some(folder), Some(at)) => vec![Fix::new(
                format!("Insert 'name: {folder}'"),
                true,
                vec![Edit::insert(
                    at,
                    format!("name: {folder}{}", checker.document.newline()),
                )],
            )],
            _ => Vec::new(),
        };
        let open = checker
            .document
            .block()
            .map_or(TextRange::empty(0), |block| block.open.line);
        checker.report(
            Rule::MissingName,
            open,
            "the frontmatter has no name field",
            no_name,
            fixes,
        );
        return;
    };
    let value = &entry.value;
    let set_to_folder = |title: String, safe: bool| -> Vec<Fix> {
        valid_folder
            .as_ref()
            .map(|folder| {
                vec![Fix::new(
                    title.replace("{}", folder),
                    safe,
                    vec![Edit::replace(value.range, yaml_string(folder))],
                )]
            })
            .unwrap_or_default()
    };
    // `field-type` covers collections; a scalar of another type (`name: 3000`) is still the
    // text skills-ref compares, so the name checks run on it too.
    let Some(name) = value.as_str() else {
        return;
    };
    if name.trim().is_empty() {
        // The loader falls back to the folder name.
        let fixes = set_to_folder("Set name to '{}'".to_owned(), true);
        checker.report(
            Rule::FieldType,
            if name.is_empty() && !value.is_string() {
                entry.key.range
            } else {
                value.range
            },
            "name is empty",
            no_name,
            fixes,
        );
        return;
    }
    let chars = name.chars().count();
    if chars > NAME_MAX {
        let stripped_fits = skills_ref_name(name).chars().count() <= NAME_MAX;
        checker.report(
            Rule::NameLength,
            past_limit(checker.text, value, NAME_MAX),
            format!("name is {chars} characters long; the limit is {NAME_MAX}"),
            move |target| match target {
                Client::ClaudeCode | Client::Gemini => Effect::Load,
                Client::AgentSkills if stripped_fits => Effect::Load,
                other => other.refusal(),
            },
            Vec::new(),
        );
    }
    if !crate::field_table::has_valid_name_characters(name) {
        let skills_ref_ok = skills_ref_accepts_format(name);
        let normalised = normalise_name(name);
        let fixes = if normalised.is_empty() {
            Vec::new()
        } else {
            let safe = folder.as_deref() == Some(normalised.as_str());
            vec![Fix::new(
                format!("Change name to '{normalised}'"),
                safe,
                vec![Edit::replace(value.range, yaml_string(&normalised))],
            )]
        };
        checker.report(
            Rule::NameFormat,
            value.range,
            if normalised.is_empty() {
                format!(
                    "name '{name}' must use only lowercase letters, digits and single hyphens, not at the start or end"
                )
            } else {
                format!(
                    "name '{name}' must use only lowercase letters, digits and single hyphens, not at the start or end (suggested: '{normalised}')"
                )
            },
            move |target| match target {
                Client::ClaudeCode | Client::Codex | Client::Gemini => Effect::Load,
                Client::AgentSkills if skills_ref_ok => Effect::Degrade(
                    "accepts it, but stricter clients allow only a-z, 0-9 and hyphens",
                    "accept it, but stricter clients allow only a-z, 0-9 and hyphens",
                ),
                other => other.refusal(),
            },
            fixes,
        );
    }
    if let Some(folder) = folder.as_deref() {
        if name != folder {
            let fixes = set_to_folder(format!("Rename to '{folder}'"), true);
            let skills_ref_matches = skills_ref_name(name) == nfkc(folder);
            let message = if nfkc(name) == nfkc(folder) {
                format!(
                    "name '{name}' and its folder '{folder}' look alike but are written with different Unicode characters (for example a composed and a decomposed accent)"
                )
            } else {
                format!("name '{name}' does not match its folder '{folder}'")
            };
            checker.report(
                Rule::NameMismatch,
                value.range,
                message,
                move |target| match target {
                    Client::AgentSkills if skills_ref_matches => Effect::Load,
                    Client::AgentSkills | Client::Copilot | Client::OpenCode => target.refusal(),
                    _ => Effect::Load,
                },
                fixes,
            );
        }
    }
    let lower = name.to_lowercase();
    if let Some(word) = ["claude", "anthropic"]
        .into_iter()
        .find(|word| lower.contains(word))
    {
        checker.report(
            Rule::ReservedWord,
            value.range,
            format!("name '{name}' contains the reserved word '{word}'"),
            |target| match target {
                Client::ClaudeUpload => Effect::Reject,
                _ => Effect::Load,
            },
            Vec::new(),
        );
    }
}

fn description_rules(checker: &mut Checker<'_>, root: &Node) {
    let Some(entry) = root.get("description") else {
        let fixes = insert_point(checker)
            .map(|at| {
                let body = &checker.text[checker.document.split.body.as_range()];
                let guess = crate::workspace::loader::description_from_body(body);
                let after_name = root.get("name").map_or(at, |name| {
                    line_end_after(checker.text, name.value.range.end.max(name.key.range.end))
                });
                vec![Fix::new(
                    "Insert a description",
                    false,
                    vec![Edit::insert(
                        after_name,
                        format!(
                            "description: {}{}",
                            quoted(&guess),
                            checker.document.newline()
                        ),
                    )],
                )]
            })
            .unwrap_or_default();
        let open = checker
            .document
            .block()
            .map_or(TextRange::empty(0), |block| block.open.line);
        checker.report(
            Rule::MissingDescription,
            open,
            "the frontmatter has no description field",
            no_description,
            fixes,
        );
        return;
    };
    let value = &entry.value;
    if !value.is_string() {
        if value.as_str() == Some("") {
            checker.report(
                Rule::DescriptionEmpty,
                entry.key.range,
                "description is empty",
                no_description,
                Vec::new(),
            );
        }
        return;
    }
    let description = value.as_str().unwrap_or_default();
    if description.trim().is_empty() {
        checker.report(
            Rule::DescriptionEmpty,
            value.range,
            "description is blank",
            no_description,
            Vec::new(),
        );
        return;
    }
    let chars = description.chars().count();
    if chars > DESCRIPTION_MAX {
        checker.report(
            Rule::DescriptionLength,
            past_limit(checker.text, value, DESCRIPTION_MAX),
            format!("description is {chars} characters long; the limit is {DESCRIPTION_MAX}"),
            |target| match target {
                Client::ClaudeCode | Client::Gemini => Effect::Load,
                Client::Codex => Effect::Degrade(
                    "lists only its first 1,021 characters and '...'",
                    "list only its first 1,021 characters and '...'",
                ),
                other => other.refusal(),
            },
            Vec::new(),
        );
    } else if crate::clients::js::utf16_len(description) > DESCRIPTION_MAX {
        // Copilot counts UTF-16 units: a character beyond the Basic Multilingual Plane (most
        // emoji) counts twice.
        checker.report(
            Rule::DescriptionLength,
            value.range,
            format!(
                "description is {} UTF-16 units long (emoji and other characters beyond U+FFFF count twice); Copilot's limit is {DESCRIPTION_MAX}",
                crate::clients::js::utf16_len(description)
            ),
            |target| match target {
                Client::Copilot => Effect::Skip,
                _ => Effect::Load,
            },
            Vec::new(),
        );
    }
    let lower = description.to_lowercase();
    if !TRIGGERS.iter().any(|trigger| lower.contains(trigger))
        && !USE_AT_A_MOMENT.is_match(description)
    {
        checker.report_all(
            Rule::DescriptionTrigger,
            value.range,
            "description says what the skill does but not when to use it (add \"Use when …\")",
            "agents choose skills by their description alone",
            Vec::new(),
        );
    }
    if let Some(bracket) = description.find(['<', '>']) {
        let range = written_char(checker.text, value, bracket).unwrap_or(value.range);
        let ch = &description[bracket..=bracket];
        checker.report(
            Rule::DescriptionAngleBrackets,
            range,
            format!("description contains '{ch}', which uploads read as an XML tag"),
            |target| match target {
                Client::ClaudeUpload => Effect::Reject,
                Client::AgentSkills => Effect::Degrade(
                    "accepts it, but claude.ai upload rejects XML tags",
                    "accept it, but claude.ai upload rejects XML tags",
                ),
                _ => Effect::Load,
            },
            Vec::new(),
        );
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

fn typed_field(
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
        enum_value(checker, field, value, known.values);
    }
}

fn yaml11(checker: &mut Checker<'_>, field: &str, value: &Node, kind: &str) {
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

fn enum_value(checker: &mut Checker<'_>, field: &'static str, value: &Node, allowed: &[&str]) {
    let fixes = allowed
        .iter()
        .map(|choice| {
            Fix::new(
                format!("Change to '{choice}'"),
                false,
                vec![Edit::replace(value.range, *choice)],
            )
        })
        .collect();
    let shown = checker.text[value.range.as_range()].to_owned();
    checker.report(
        Rule::FieldValue,
        value.range,
        format!(
            "'{field}: {shown}' is not one of the allowed values: {}",
            allowed.join(", ")
        ),
        move |target| {
            if target.knows(field) {
                Effect::Misread
            } else {
                Effect::Ignore
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

fn metadata(checker: &mut Checker<'_>, value: &Node) {
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
                if written.is_empty() {
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

fn hooks_shape_ok(value: &Node) -> bool {
    let Some(events) = value.as_mapping() else {
        return false;
    };
    events.iter().all(|event| {
        let NodeKind::Sequence(matchers) = &event.value.kind else {
            return false;
        };
        matchers.iter().all(|matcher| {
            matcher
                .get("hooks")
                .is_some_and(|hooks| match &hooks.value.kind {
                    NodeKind::Sequence(handlers) => handlers.iter().all(|handler| {
                        handler
                            .get("type")
                            .is_some_and(|kind| kind.value.is_string())
                    }),
                    _ => false,
                })
        })
    })
}

fn allowed_tools_shape(checker: &mut Checker<'_>, entry: &Entry) {
    let value = &entry.value;
    let tools: Vec<String> = match &value.kind {
        NodeKind::Sequence(items) => items
            .iter()
            .filter_map(|item| item.as_str().map(str::to_owned))
            .collect(),
        NodeKind::Scalar { value: text, .. } if text.contains(',') => text
            .split(',')
            .map(|tool| tool.trim().to_owned())
            .filter(|tool| !tool.is_empty())
            .collect(),
        _ => return,
    };
    let is_list = matches!(value.kind, NodeKind::Sequence(_));
    let joinable = tools.iter().all(|tool| !tool.contains(char::is_whitespace));
    let mut fixes = Vec::new();
    if joinable && !tools.is_empty() {
        let joined = tools.join(" ");
        let edit = Edit::replace(
            TextRange::new(entry.key.range.end, value.range.end),
            format!(": {}", yaml_string(&joined)),
        );
        let ok = verify(checker.text, std::slice::from_ref(&edit), |_, document| {
            document
                .field("allowed-tools")
                .and_then(|entry| entry.value.as_str().map(str::to_owned))
                .as_deref()
                == Some(joined.as_str())
        });
        if ok {
            fixes.push(Fix::new(
                "Rewrite as a space-separated string",
                true,
                vec![edit],
            ));
        }
    }
    checker.report(
        Rule::AllowedToolsShape,
        value.range,
        if is_list {
            "allowed-tools is a list; the spec wants one space-separated string".to_owned()
        } else {
            "allowed-tools is comma-separated; the spec wants tools separated by spaces"
                .to_owned()
        },
        // Neither skills-ref 0.1.1 nor Anthropic's upload check looks at `allowed-tools` (a flow
        // list fails skills-ref's parse, which `flow-style` reports); Claude Code takes lists and
        // commas; the other clients do not read the field.
        move |target| match target {
            Client::AgentSkills | Client::ClaudeUpload if is_list => Effect::Degrade(
                "passes it through unchecked, but clients that follow the spec expect a string",
                "pass it through unchecked, but clients that follow the spec expect a string",
            ),
            Client::AgentSkills | Client::ClaudeUpload => Effect::Degrade(
                "passes it through unchecked, but clients that follow the spec split it at spaces only",
                "pass it through unchecked, but clients that follow the spec split it at spaces only",
            ),
            _ => Effect::Load,
        },
        fixes,
    );
}

/// A key that a selected target does not know: a field of other clients, or a key no client
/// knows (often a typo of one).
fn unknown_field(checker: &mut Checker<'_>, entries: &[Entry], entry: &Entry, key: &str) {
    let targets = checker.context.targets;
    let readers = crate::field_table::readers(key);
    let suggestion = if readers.is_empty() {
        near_miss(key, targets)
    } else {
        None
    };
    let mut fixes = Vec::new();
    if let Some(suggestion) = suggestion {
        let taken = entries
            .iter()
            .any(|other| other.key.as_str() == Some(suggestion));
        if !taken && entry.key.style() == Some(Style::Plain) {
            // Only a respelling of the same words keeps the meaning; a different field (`mode` →
            // `model`) is the author's call.
            let respelling = squash(key) == squash(suggestion);
            let resolves = targets.iter().any(|target| target.knows(suggestion))
                || crate::field_table::is_standard_field(suggestion);
            fixes.push(Fix::new(
                format!("Rename to '{suggestion}'"),
                respelling && resolves,
                vec![Edit::replace(entry.key.range, suggestion)],
            ));
        }
    }
    if let Some(fix) = move_to_metadata(checker, entries, entry, key) {
        fixes.push(fix);
    }
    let message = match (suggestion, readers.as_slice()) {
        (Some(suggestion), _) if !targets.iter().any(|target| target.knows(suggestion)) => {
            let readers: Vec<&str> = crate::field_table::readers(suggestion)
                .iter()
                .map(|target| target.display())
                .collect();
            format!(
                "unknown field '{key}'; did you mean '{suggestion}' (read only by {})?",
                crate::targets::join_names(&readers)
            )
        }
        (Some(suggestion), _) => format!("unknown field '{key}'; did you mean '{suggestion}'?"),
        (None, []) => format!("unknown field '{key}'; put custom data under metadata"),
        (None, [one]) => format!(
            "unknown field '{key}' here: only {} reads it",
            one.display()
        ),
        (None, many) => format!(
            "unknown field '{key}' here: only {} read it",
            crate::targets::join_names(&many.iter().map(|t| t.display()).collect::<Vec<_>>())
        ),
    };
    let key_owned = key.to_owned();
    checker.report(
        Rule::UnknownField,
        entry.key.range,
        message,
        move |target| {
            if target.knows(&key_owned) {
                Effect::Fine("reads it", "read it")
            } else if target.rejects_unknown_fields() {
                Effect::Reject
            } else if crate::field_table::is_standard_field(&key_owned) {
                // Optional fields of the open standard: clients that do not use them skip them
                // by design, and the skill works the same.
                Effect::Ignore
            } else {
                Effect::Degrade("ignores it", "ignore it")
            }
        },
        fixes,
    );
}

/// Moves a scalar top-level entry under `metadata:` as a string.
fn move_to_metadata(
    checker: &Checker<'_>,
    entries: &[Entry],
    entry: &Entry,
    key: &str,
) -> Option<Fix> {
    let text = checker.text;
    let NodeKind::Scalar { value, .. } = &entry.value.kind else {
        return None;
    };
    if entry.value.range.is_empty() || text[entry.value.range.as_range()].contains('\n') {
        return None;
    }
    let newline = checker.document.newline();
    let line_start = text[..entry.key.range.start]
        .rfind('\n')
        .map_or(0, |at| at + 1);
    if line_start != entry.key.range.start {
        return None; // Not at column 0: not a plain top-level line.
    }
    let line_end = line_end_after(text, entry.value.range.end);
    let mut edits = vec![Edit::delete(TextRange::new(line_start, line_end))];
    let new_line = format!("  {}: {}{newline}", yaml_string(key), quoted(value));
    match entries
        .iter()
        .find(|other| other.key.as_str() == Some("metadata"))
    {
        Some(metadata) => {
            let inner = metadata.value.as_mapping()?;
            if metadata.value.flow || inner.is_empty() {
                return None;
            }
            let after = line_end_after(text, metadata.value.range.end);
            if (line_start..line_end).contains(&after) {
                return None;
            }
            edits.push(Edit::insert(after, new_line));
        }
        None => {
            let end = checker.document.yaml_range()?.end;
            edits.push(Edit::insert(end, format!("metadata:{newline}{new_line}")));
        }
    }
    Some(Fix::new(
        format!("Move '{key}' under metadata"),
        false,
        edits,
    ))
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity;
    use crate::rules::Rule;
    use crate::rules::suggest::near_miss;
    use crate::rules::test_support::{check, fixed, lint_as, rules_of};
    use crate::targets::Client;

    const AS: &[Client] = &[Client::AgentSkills];
    const CC: &[Client] = &[Client::ClaudeCode];

    fn fm(fields: &str) -> String {
        format!("---\n{fields}---\nBody\n")
    }

    #[test]
    fn missing_name_and_description() {
        let text = fm("description: Use when asked.\n");
        check(
            AS,
            &text,
            &["missing-name 1:1-1:4 error: skills-ref rejects it"],
        );
        assert_eq!(
            fixed(&text, Rule::MissingName, AS),
            fm("name: pdf\ndescription: Use when asked.\n")
        );
        // Claude Code does not need a name.
        check(CC, &text, &[]);

        let text = fm("name: pdf\n");
        check(
            CC,
            &text,
            &[
                "missing-description 1:1-1:4 warning: Claude Code uses the body's first line instead$",
            ],
        );
        assert_eq!(
            fixed(&text, Rule::MissingDescription, AS),
            fm("name: pdf\ndescription: \"Body\"\n")
        );
    }

    #[test]
    fn field_type_quotes_lists_and_numbers() {
        let text = fm("name: pdf\ndescription: Use when asked.\nargument-hint: [file]\n");
        check(
            CC,
            &text,
            &["field-type 4:16-4:22 error: 'argument-hint' is a list"],
        );
        assert_eq!(
            fixed(&text, Rule::FieldType, CC),
            fm("name: pdf\ndescription: Use when asked.\nargument-hint: \"[file]\"\n")
        );
        check(
            AS,
            &fm("name: 3000\ndescription: Use when asked.\n"),
            &[
                "field-type 2:7-2:11 warning",
                "name-mismatch 2:7-2:11 error",
            ],
        );
        check(
            AS,
            &fm("name: pdf\ndescription: Use when asked.\nmetadata: x\n"),
            &["field-type 4:11-4:12 warning: metadata is a string"],
        );
        check(
            CC,
            &fm("name: pdf\ndescription: Use when asked.\nhooks:\n  PreToolUse: run\n"),
            &["field-type 5:3-5:18 error: hooks must"],
        );
        check(
            CC,
            &fm(
                "name: pdf\ndescription: Use when asked.\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./check.sh\n",
            ),
            // A well-formed hook is no field error; what it runs is the security rules' to say,
            // with the skill's folder (`Engine::scan_skill_files`).
            &[],
        );
    }

    #[test]
    fn field_value_enums_and_booleans() {
        let text = fm(
            "name: pdf\ndescription: Use when asked.\ncontext: forked\neffort: huge\nuser-invocable: yes\n",
        );
        check(
            CC,
            &text,
            &[
                "field-value 4:10-4:16 error: allowed values: fork",
                "field-value 5:9-5:13 error",
                // Claude Code reads `yes` as true: nothing to say for it alone.
            ],
        );
        // Copilot refuses a quoted boolean (Claude Code reads it as meant).
        let fixed_text = fixed(
            &fm("name: pdf\ndescription: Use when asked.\nuser-invocable: \"false\"\n"),
            Rule::FieldValue,
            &[Client::Copilot],
        );
        assert!(fixed_text.contains("user-invocable: false\n"));
        check(
            &[Client::Codex],
            &text,
            &[
                "unknown-field 4:1-4:8 warning",
                "unknown-field 5:1-5:7 warning",
                "unknown-field 6:1-6:15 warning",
            ],
        );
    }

    #[test]
    fn name_rules() {
        let long = "a".repeat(65);
        check(
            AS,
            &fm(&format!("name: {long}\ndescription: Use when.\n")),
            &[
                "name-mismatch 2:7-2:72 error",
                "name-length 2:71-2:72 error: 65 characters",
            ],
        );
        check(
            AS,
            &fm("name: PDF_Tools\ndescription: Use when asked.\n"),
            &[
                "name-format 2:7-2:16 error: suggested: 'pdf-tools'",
                "name-mismatch 2:7-2:16 error",
            ],
        );
        let text = fm("name: pdf-tools\ndescription: Use when asked.\n");
        check(
            AS,
            &text,
            &["name-mismatch 2:7-2:16 error: ^name 'pdf-tools' does not match its folder 'pdf'"],
        );
        assert_eq!(
            fixed(&text, Rule::NameMismatch, AS),
            fm("name: pdf\ndescription: Use when asked.\n")
        );
        check(CC, &text, &[]);
        let reserved = fm("name: claude-pdf\ndescription: Use when asked.\n");
        check(
            &[Client::ClaudeUpload],
            &reserved,
            &["reserved-word 2:7-2:17 error: 'claude'"],
        );
        check(AS, &reserved, &["name-mismatch 2:7-2:17 error"]);
    }

    #[test]
    fn description_rules() {
        check(
            AS,
            &fm("name: pdf\ndescription: \"  \"\n"),
            &["description-empty 3:14-3:18 error"],
        );
        check(
            AS,
            &fm("name: pdf\ndescription:\n"),
            &["description-empty 3:1-3:12 error"],
        );
        let long = format!("Use when {}", "x".repeat(1100));
        // The range marks what is past the limit.
        check(
            AS,
            &fm(&format!("name: pdf\ndescription: \"{long}\"\n")),
            &["description-length 3:1039-3:1124 error"],
        );
        check(
            &[Client::Codex],
            &fm(&format!("name: pdf\ndescription: {long}\n")),
            &[
                "description-length 3:1038-3:1123 warning: 1109 characters long; the limit is 1024 — Codex lists only its first 1,021 characters and '...'",
            ],
        );
        check(
            AS,
            &fm("name: pdf\ndescription: Fills PDF forms.\n"),
            &["description-trigger 3:14-3:30 hint"],
        );
        let angle = fm("name: pdf\ndescription: Use when editing <form> tags.\n");
        check(
            &[Client::ClaudeUpload],
            &angle,
            &["description-angle-brackets 3:31-3:32 error"],
        );
        check(
            AS,
            &angle,
            &["description-angle-brackets 3:31-3:32 warning"],
        );
    }

    #[test]
    fn compatibility_and_metadata() {
        let text = fm(&format!(
            "name: pdf\ndescription: Use when asked.\ncompatibility: {}\n",
            "x".repeat(501)
        ));
        check(
            AS,
            &text,
            &["compatibility-length 4:516-4:517 error: 501 characters"],
        );
        let text = fm(
            "name: pdf\ndescription: Use when asked.\nmetadata:\n  nested:\n    a: b\n  version: 1.0\n  flag: yes\n",
        );
        check(
            AS,
            &text,
            &[
                "metadata-value 6:5-6:9 warning",
                "yaml11-type 7:12-7:15 warning",
                "yaml11-type 8:9-8:12 warning",
            ],
        );
        let quoted = fixed(&text, Rule::Yaml11Type, AS);
        assert!(quoted.contains("version: \"1.0\""));
    }

    #[test]
    fn yaml11_words_in_string_fields() {
        let text = fm("name: pdf\ndescription: Use when asked.\nlicense: no\n");
        check(AS, &text, &["yaml11-type 4:10-4:12 warning"]);
        assert!(fixed(&text, Rule::Yaml11Type, AS).contains("license: \"no\""));
    }

    #[test]
    fn allowed_tools_shape() {
        let text = fm(
            "name: pdf\ndescription: Use when asked.\nallowed-tools:\n  - Read\n  - Bash(git:*)\n",
        );
        check(AS, &text, &["allowed-tools-shape 5:3-6:16 warning"]);
        assert_eq!(
            fixed(&text, Rule::AllowedToolsShape, AS),
            fm("name: pdf\ndescription: Use when asked.\nallowed-tools: Read Bash(git:*)\n")
        );
        let commas = fm("name: pdf\ndescription: Use when asked.\nallowed-tools: Read, Grep\n");
        assert_eq!(
            fixed(&commas, Rule::AllowedToolsShape, AS),
            fm("name: pdf\ndescription: Use when asked.\nallowed-tools: Read Grep\n")
        );
        check(CC, &commas, &[]);
    }

    #[test]
    fn unknown_fields_suggest_and_move() {
        assert_eq!(
            near_miss("descripton", &[Client::AgentSkills]),
            Some("description")
        );
        assert_eq!(
            near_miss("disableModelInvocation", &[Client::ClaudeCode]),
            Some("disable-model-invocation")
        );
        assert_eq!(
            near_miss("user-invokable", &[Client::ClaudeCode]),
            Some("user-invocable")
        );
        assert_eq!(near_miss("version", &[Client::AgentSkills]), None);

        let text = fm("name: pdf\ndescripton: Use when asked.\n");
        check(
            AS,
            &text,
            &[
                "missing-description 1:1-1:4 error",
                "unknown-field 3:1-3:11 error: did you mean 'description'?",
            ],
        );
        assert_eq!(
            fixed(&text, Rule::UnknownField, AS),
            fm("name: pdf\ndescription: Use when asked.\n")
        );

        let text = fm("name: pdf\ndescription: Use when asked.\nversion: 1.0\n");
        let diagnostics = lint_as(&text, "skills/pdf/SKILL.md", AS);
        let finding = diagnostics
            .iter()
            .find(|d| d.rule == Rule::UnknownField)
            .unwrap();
        let moved = crate::diagnostic::apply_edits(&text, &finding.fixes[0].edits).unwrap();
        assert_eq!(
            moved,
            fm("name: pdf\ndescription: Use when asked.\nmetadata:\n  version: \"1.0\"\n")
        );
        assert_eq!(rules_of(&moved, AS), vec![]);

        check(
            &[Client::Codex],
            &text,
            &["unknown-field 4:1-4:8 warning: Codex ignores it$"],
        );
        check(
            CC,
            &fm("name: pdf\ndescription: Use when asked.\nwhen_to_use: x\n"),
            &[],
        );
    }

    /// The first finding of `rule`: (covered text, severity, message).
    fn first(text: &str, rule: Rule, targets: &[Client]) -> Option<(String, Severity, String)> {
        lint_as(text, "skills/pdf/SKILL.md", targets)
            .into_iter()
            .find(|d| d.rule == rule)
            .map(|d| (text[d.range.as_range()].to_owned(), d.severity, d.message))
    }

    #[test]
    fn client_fields_are_unknown_to_the_targets_that_do_not_read_them() {
        for line in [
            "argument-hint: \"[file]\"",
            "disable-model-invocation: true",
            "model: sonnet",
            "user-invocable: false",
            "effort: high",
            "context: fork",
            "when_to_use: For PDFs.",
            "agent: Explore",
            "paths: \"*.pdf\"",
            "shell: bash",
        ] {
            let text = fm(&format!(
                "name: pdf\ndescription: Use when asked.\n{line}\n"
            ));
            let key = line.split(':').next().unwrap();
            let (covered, severity, message) = first(&text, Rule::UnknownField, AS)
                .unwrap_or_else(|| panic!("{key} is silent for agentskills"));
            assert_eq!(covered, key);
            assert_eq!(severity, Severity::Error, "skills-ref rejects unknown keys");
            assert!(message.ends_with("— skills-ref rejects it"), "{message}");
            assert!(message.contains("Claude Code"), "{message}");
            assert!(
                first(&text, Rule::UnknownField, CC).is_none(),
                "{key} is a Claude Code field"
            );
            let both = first(
                &text,
                Rule::UnknownField,
                &[Client::AgentSkills, Client::ClaudeCode],
            )
            .unwrap();
            assert_eq!(both.1, Severity::Error);
            assert!(
                both.2
                    .ends_with("— skills-ref rejects it; Claude Code reads it"),
                "{}",
                both.2
            );
        }
        let hint = fm("name: pdf\ndescription: Use when asked.\nargument-hint: x\n");
        assert_eq!(
            first(&hint, Rule::UnknownField, &[Client::ClaudeUpload])
                .unwrap()
                .2,
            "unknown field 'argument-hint' here: only Claude Code and Copilot read it — claude.ai upload rejects it"
        );
        assert!(first(&hint, Rule::UnknownField, &[Client::Copilot]).is_none());
        // Clients that ignore unknown keys: a warning for another client's field, nothing for
        // the open standard's optional fields.
        let codex = first(
            &fm("name: pdf\ndescription: Use when asked.\ndisable-model-invocation: true\n"),
            Rule::UnknownField,
            &[Client::Codex],
        )
        .unwrap();
        assert_eq!(codex.1, Severity::Warning);
        assert!(codex.2.ends_with("— Codex ignores it"), "{}", codex.2);
        let standard = fm(
            "name: pdf\ndescription: Use when asked.\nlicense: MIT\ncompatibility: Python 3\nallowed-tools: Read\n",
        );
        for target in [Client::Codex, Client::Gemini, Client::Copilot] {
            assert!(
                first(&standard, Rule::UnknownField, &[target]).is_none(),
                "{target}"
            );
        }
    }

    #[test]
    fn a_rename_to_another_field_is_never_safe() {
        let rename = |text: &str, targets: &[Client]| {
            lint_as(text, "skills/pdf/SKILL.md", targets)
                .into_iter()
                .find(|d| d.rule == Rule::UnknownField)
                .and_then(|d| {
                    d.fixes
                        .into_iter()
                        .find(|fix| fix.title.starts_with("Rename"))
                })
                .map(|fix| (fix.title, fix.safe))
        };
        let head = "name: pdf\ndescription: Use when asked.\n";
        assert_eq!(
            rename(&fm(&format!("{head}mode: sonnet\n")), CC),
            Some(("Rename to 'model'".to_owned(), false))
        );
        assert_eq!(
            rename(&fm("name: pdf\ndescripton: Use when asked.\n"), AS),
            Some(("Rename to 'description'".to_owned(), false)),
            "a typo of a required field is still another word"
        );
        assert_eq!(
            rename(&fm(&format!("{head}user-invokable: false\n")), CC),
            Some(("Rename to 'user-invocable'".to_owned(), false))
        );
        assert_eq!(
            rename(&fm(&format!("{head}disableModelInvocation: true\n")), CC),
            Some(("Rename to 'disable-model-invocation'".to_owned(), true))
        );
        assert_eq!(
            rename(&fm(&format!("{head}allowed_tools: Read\n")), AS),
            Some(("Rename to 'allowed-tools'".to_owned(), true))
        );
        assert_eq!(
            rename(&fm(&format!("{head}disableModelInvocation: true\n")), AS),
            Some(("Rename to 'disable-model-invocation'".to_owned(), false)),
            "the respelt key would still be unknown to skills-ref"
        );
        // `check --fix` and fix-all apply safe fixes only.
        let text = fm(&format!("{head}mode: sonnet\nallowed_tools: Read\n"));
        let outcome = crate::rules::fix::fix_all(&text, |text| {
            lint_as(
                text,
                "skills/pdf/SKILL.md",
                &[Client::AgentSkills, Client::ClaudeCode],
            )
        });
        assert_eq!(
            outcome.text,
            fm(&format!("{head}mode: sonnet\nallowed-tools: Read\n"))
        );
    }

    #[test]
    fn severity_follows_what_the_targets_do() {
        let flow = fm("name: pdf\ndescription: Use when asked.\nmetadata:\n  tags: [a, b]\n");
        // strictyaml refuses the flow list, so `metadata-value` is an error here.
        check(
            AS,
            &flow,
            &[
                "flow-style 5:9-5:15 error: — skills-ref rejects it$",
                "metadata-value 5:9-5:15 error",
            ],
        );
        check(CC, &flow, &[]);
        let nested = fm("name: pdf\ndescription: Use when asked.\nmetadata:\n  tags:\n    - a\n");
        check(
            AS,
            &nested,
            &["metadata-value 6:5-6:8 warning: skills-ref turns it into a string$"],
        );
        // The upload check does not look.
        check(
            &[Client::ClaudeUpload],
            &nested,
            &["metadata-value 6:5-6:8 warning"],
        );
        // A Codex skip makes any rule an error; an error-by-default rule that only degrades
        // drops to a warning; hint rules stay hints.
        let short = fm(
            "name: pdf\ndescription: Use when asked.\nmetadata:\n  short-description:\n    - a\n",
        );
        check(&[Client::Codex], &short, &["metadata-value 6:5-6:8 error"]);
        check(
            CC,
            &fm("name: pdf\n"),
            &["missing-description 1:1-1:4 warning"],
        );
        check(
            AS,
            &fm("name: pdf\ndescription: Fills forms.\n"),
            &["description-trigger 3:14-3:26 hint"],
        );
    }

    /// An adverb alone is no moment: "Use carefully" still says nothing of when.
    #[test]
    fn an_adverb_is_no_trigger() {
        check(
            AS,
            &fm("name: pdf\ndescription: Fills forms. Apply carefully.\n"),
            &["description-trigger 3:14-3:43 hint"],
        );
    }

    #[test]
    fn triggers_in_any_case() {
        for description in [
            "Fills forms. Use after a PDF upload.",
            "Fills forms. USE BEFORE sending a PDF.",
            "Fills forms. Use only when a PDF is open.",
            "Fills forms when Claude needs a PDF.",
            "Fills forms. Activate this skill when a PDF appears.",
            "Fills forms. Load this skill when PDFs come up.",
            "Use this skill for PDF forms.",
            "Fills forms. Triggers: pdf, form.",
            "Fills forms. TRIGGER on PDFs.",
            "Fills forms. Use immediately after a PDF upload.",
            "Fills forms. Use proactively when a PDF is open.",
            "Fills forms. Invoke automatically before sending a PDF.",
        ] {
            // `Triggers: ` is also an unquoted colon, a finding of its own.
            let colon: &[&str] = if description.contains(": ") {
                &["unquoted-colon 3:35-3:36 error"]
            } else {
                &[]
            };
            check(
                AS,
                &fm(&format!("name: pdf\ndescription: {description}\n")),
                colon,
            );
        }
    }

    #[test]
    fn carets_point_into_block_scalars() {
        let text = fm("name: pdf\ndescription: >\n  Use when editing\n  <form> tags.\n");
        assert_eq!(
            first(&text, Rule::DescriptionAngleBrackets, AS).unwrap().0,
            "<"
        );
        let at = lint_as(&text, "skills/pdf/SKILL.md", AS)
            .into_iter()
            .find(|d| d.rule == Rule::DescriptionAngleBrackets)
            .unwrap()
            .range;
        assert_eq!(at.start, text.find("<form").unwrap());
        let literal = fm("name: pdf\ndescription: |\n  Says \"a > b\" # not a comment\n");
        let at = lint_as(&literal, "skills/pdf/SKILL.md", AS)
            .into_iter()
            .find(|d| d.rule == Rule::DescriptionAngleBrackets)
            .unwrap()
            .range;
        assert_eq!(at.start, literal.find("> b").unwrap());
        // The cut point of an overlong folded description.
        let words = "word ".repeat(120);
        let long = fm(&format!(
            "name: pdf\ndescription: >-\n  Use when asked.\n  {words}\n  {words}\n"
        ));
        let (covered, _, _) = first(&long, Rule::DescriptionLength, AS).unwrap();
        let parsed = crate::document::SkillDocument::parse(&long)
            .field("description")
            .unwrap()
            .value
            .as_str()
            .unwrap()
            .to_owned();
        let past: String = parsed.chars().skip(1024).collect();
        assert_eq!(
            covered.split_whitespace().collect::<Vec<_>>(),
            past.split_whitespace().collect::<Vec<_>>()
        );
        assert!(!covered.starts_with('>'));
        let compatibility = fm(&format!(
            "name: pdf\ndescription: Use when asked.\ncompatibility: |\n  {}\n",
            "y".repeat(510)
        ));
        assert_eq!(
            first(&compatibility, Rule::CompatibilityLength, AS)
                .unwrap()
                .0,
            "y".repeat(10)
        );
    }

    #[test]
    fn skills_ref_claims_match_skills_ref() {
        // Each case was run through skills-ref 0.1.1 (`skills_ref.validator.validate`).
        let head = "name: pdf\ndescription: Use when asked.\n";
        // Empty compatibility: skills-ref checks only `len <= 500`.
        check(
            AS,
            &fm(&format!("{head}compatibility: \"\"\n")),
            &[
                "compatibility-length 4:16-4:18 warning: — skills-ref accepts it; the spec does not$",
            ],
        );
        check(
            AS,
            &fm(&format!("{head}compatibility: {}\n", "x".repeat(501))),
            &["compatibility-length 4:516-4:517 error: skills-ref rejects it$"],
        );
        // A list compatibility fails its string check.
        check(
            AS,
            &fm(&format!("{head}compatibility:\n  - Python\n")),
            &["field-type 5:3-5:11 error"],
        );
        // allowed-tools, license and metadata are not validated at all.
        check(
            AS,
            &fm(&format!("{head}allowed-tools:\n  - Read\n  - Grep\n")),
            &["allowed-tools-shape 5:3-6:9 warning: skills-ref passes it through unchecked"],
        );
        check(
            AS,
            &fm(&format!("{head}allowed-tools: Read, Grep\n")),
            &["allowed-tools-shape 4:16-4:26 warning: skills-ref passes it through unchecked"],
        );
        check(
            AS,
            &fm(&format!("{head}license:\n  - MIT\n")),
            &["field-type 5:3-5:8 warning: skills-ref passes it through unchecked$"],
        );
        check(
            AS,
            &fm(&format!("{head}metadata: x\n")),
            &["field-type 4:11-4:12 warning: skills-ref passes it through unchecked$"],
        );
        check(
            AS,
            &fm(&format!("{head}allowed-tools:\n  a: b\n")),
            &["field-type 5:3-5:7 warning: skills-ref passes it through unchecked$"],
        );
        // strictyaml reads every scalar as text: `name: 3000` is the name "3000".
        check(
            AS,
            &fm("name: 3000\ndescription: Use when asked.\n"),
            &[
                "field-type 2:7-2:11 warning: skills-ref reads it as text",
                "name-mismatch 2:7-2:11 error: ^name '3000' does not match its folder 'pdf' — skills-ref rejects it",
            ],
        );
        check(
            AS,
            &fm("name: pdf\ndescription: ~\n"),
            &["field-type 3:14-3:15 warning"],
        );
        // skills-ref strips the name and accepts lowercase letters of any script.
        let padded = fm("name: \" pdf \"\ndescription: Use when asked.\n");
        check(AS, &padded, &["name-format 2:7-2:14 warning"]);
        // OpenCode 1.18.33 takes any string as the name and lists the skill under it.
        check(&[Client::OpenCode], &padded, &[]);
        let unicode = "---\nname: café\ndescription: Use when asked.\n---\nBody\n";
        let diagnostics = lint_as(unicode, "skills/café/SKILL.md", AS);
        let format = diagnostics
            .iter()
            .find(|d| d.rule == Rule::NameFormat)
            .unwrap();
        assert_eq!(format.severity, Severity::Warning);
        assert!(
            format.message.contains("skills-ref accepts it"),
            "{}",
            format.message
        );
        check(
            AS,
            &fm("name: Pdf\ndescription: Use when asked.\n"),
            &["name-format 2:7-2:10 error", "name-mismatch 2:7-2:10 error"],
        );
        let long = format!(
            "name: \"{} \"\ndescription: Use when asked.\n",
            "a".repeat(64)
        );
        // skills-ref counts the stripped name.
        check(
            AS,
            &fm(&long),
            &[
                "name-format 2:7-2:74 warning",
                "name-mismatch 2:7-2:74 error",
            ],
        );
    }
}
