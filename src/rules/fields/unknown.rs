//! Keys a selected client does not know: "did you mean", or a move under `metadata:`.

use super::*;

/// A key that a selected target does not know: a field of other clients, or a key no client
/// knows (often a typo of one).
/// The top-level keys, looked up once per frontmatter instead of once per unknown key (a
/// frontmatter of 80,000 unknown keys would cost 80,000 searches of 80,000 keys).
pub(super) struct TopLevel<'a> {
    keys: std::collections::HashSet<&'a str>,
    metadata: Option<&'a Entry>,
}

impl<'a> TopLevel<'a> {
    pub(super) fn new(entries: &'a [Entry]) -> Self {
        let keys: std::collections::HashSet<&str> = entries
            .iter()
            .filter_map(|entry| entry.key.as_str())
            .collect();
        let metadata = entries
            .iter()
            .find(|entry| entry.key.as_str() == Some("metadata"));
        Self { keys, metadata }
    }
}

pub(super) fn unknown_field(
    checker: &mut Checker<'_>,
    top: &TopLevel<'_>,
    entry: &Entry,
    key: &str,
) {
    let targets = checker.context.targets;
    let readers = crate::field_table::readers(key);
    // A near miss whose value could not be the field's (a mapping for a string field, like a
    // house convention's `agents:` for `agent`) is another key, not a misspelling.
    let fits = |field: &str| {
        let kind = crate::field_table::lookup(field).map_or("", |known| known.kind);
        match &entry.value.kind {
            NodeKind::Mapping(_) => kind.contains("mapping"),
            NodeKind::Sequence(_) => kind.contains("list"),
            _ => !kind.starts_with("mapping"),
        }
    };
    let suggestion = if readers.is_empty() {
        near_miss(key, targets).filter(|field| fits(field))
    } else {
        None
    };
    let mut fixes = Vec::new();
    if let Some(suggestion) = suggestion {
        let taken = top.keys.contains(suggestion);
        if !taken && entry.key.style() == Some(Style::Plain) {
            // Only a respelling of the same words keeps the meaning; a different field (`mode` →
            // `model`) is the author's call.
            let respelling = squash(key) == squash(suggestion);
            let resolves = targets.iter().any(|target| target.knows(suggestion))
                || crate::field_table::is_standard_field(suggestion);
            // A client that passed over the key acts on the field once it is spelt right: the
            // skill then does something else, which the author decides in the editor.
            let acting: Vec<&str> = crate::field_table::readers(suggestion)
                .into_iter()
                .filter(|reader| {
                    targets.contains(reader) && !crate::targets::VALIDATORS.contains(reader)
                })
                .map(crate::targets::Client::display)
                .collect();
            let title = match acting.as_slice() {
                [] => format!("Rename to '{suggestion}'"),
                [one] => format!("Rename to '{suggestion}' ({one} then acts on it)"),
                many => format!(
                    "Rename to '{suggestion}' ({} then act on it)",
                    crate::targets::join_names(many)
                ),
            };
            let rename = Fix::new(
                title,
                respelling && resolves && acting.is_empty(),
                vec![Edit::replace(entry.key.range, suggestion)],
            );
            fixes.push(if acting.is_empty() {
                rename
            } else {
                rename.changing_reading()
            });
        }
    }
    if let Some(fix) = move_to_metadata(checker, top, entry, key) {
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
    // A field one of the clients reading this skill uses is written for that client; the
    // others passing over it lose nothing.
    let read_here = targets.iter().any(|target| target.knows(key));
    let reported_at = checker.diagnostics.len();
    checker.report(
        Rule::UnknownField,
        entry.key.range,
        message,
        move |target| {
            if target.knows(&key_owned) {
                Effect::Fine("reads it", "read it")
            } else if target.rejects_unknown_fields() {
                Effect::Reject
            } else if read_here || crate::field_table::is_standard_field(&key_owned) {
                // Optional fields of the open standard: clients that do not use them skip them
                // by design, and the skill works the same.
                Effect::Ignore
            } else {
                Effect::Degrade("ignores it", "ignore it")
            }
        },
        fixes,
    );
    // Custom data no client reads, and no client rejects: it does nothing, which is worth
    // knowing but no warning (a near miss of a real field is one).
    if suggestion.is_none() && !targets.iter().any(|target| target.rejects_unknown_fields()) {
        checker.set_severity_since(reported_at, crate::diagnostic::Severity::Info);
    }
}

/// Moves a scalar top-level entry under `metadata:` as a string.
fn move_to_metadata(
    checker: &Checker<'_>,
    top: &TopLevel<'_>,
    entry: &Entry,
    key: &str,
) -> Option<Fix> {
    // Under metadata no client reads it: a field some client reads (`disable-model-invocation`,
    // `context`, `allowed-tools`) would stop working there.
    if !crate::field_table::readers(key).is_empty() {
        return None;
    }
    let text = checker.text;
    let NodeKind::Scalar { value, .. } = &entry.value.kind else {
        return None;
    };
    if entry.value.range.is_empty() {
        return None;
    }
    let line = crate::rules::fix::entry_line(text, entry)?;
    let newline = checker.document.newline();
    let mut edits = vec![Edit::delete(line)];
    let new_line = format!("  {}: {}{newline}", yaml_string(key), quoted(value));
    match top.metadata {
        Some(metadata) => {
            let inner = metadata.value.as_mapping()?;
            if metadata.value.flow || inner.is_empty() {
                return None;
            }
            let after = line_end_after(text, metadata.value.range.end);
            if line.as_range().contains(&after) {
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

/// What `skill-lsp rules` says of the rules checked here.
pub(crate) fn rule_doc(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    use crate::rule_table::{Rule, RuleDoc};
    Some(match rule {
        Rule::UnknownField => RuleDoc::new(
            "A top-level key that a selected target does not know: another client's field (`model` for skills-ref) or a key no client knows.",
            "skills-ref and uploads reject every key outside the six standard fields, Claude Code's included; clients that ignore unknown keys do so silently, so typos and other clients' fields do nothing. The standard's optional fields are not reported for clients that merely ignore them.",
            "`descripton:` or `disableModelInvocation: true` or `version: 1.0`, or `argument-hint:` in a skill for skills-ref.",
            "Move the key under `metadata:`, or rename a near miss. `--fix` renames only a respelling of the same words (`allowed_tools` → `allowed-tools`) that no selected client would then act on; a respelling a client would act on, and a different field (`mode` → `model`, `descripton` → `description`), is offered in the editor, its title saying which client then acts on it.",
        ),
        _ => return None,
    })
}
