//! `--format sarif`: SARIF 2.1.0 for code scanning.

use serde_json::{Value, json};

use super::{FileReport, pretty_item, split_at_array};
use crate::diagnostic::{Diagnostic, Severity};
use crate::rules::Rule;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "note",
    }
}

fn region(file: &FileReport, range: crate::text::TextRange) -> Value {
    let (start, end) = file.range(range);
    json!({
        "startLine": start.line,
        "startColumn": start.column,
        "endLine": end.line,
        "endColumn": end.column,
    })
}

fn result(file: &FileReport, diagnostic: &Diagnostic) -> Value {
    let rule_index = Rule::ALL
        .iter()
        .position(|rule| *rule == diagnostic.rule)
        .unwrap_or(0);
    let mut value = json!({
        "ruleId": diagnostic.rule.as_str(),
        "ruleIndex": rule_index,
        "level": level(diagnostic.severity),
        "message": {"text": diagnostic.message},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": {"uri": uri_reference(&file.path_text())},
                "region": region(file, diagnostic.range),
            }
        }],
        "properties": {"targets": diagnostic.targets.iter().map(|target| target.id()).collect::<Vec<_>>()},
    });
    let fixes: Vec<Value> = diagnostic
        .fixes
        .iter()
        .filter(|fix| !fix.edits.is_empty())
        .map(|fix| {
            json!({
                "description": {"text": fix.title},
                "artifactChanges": [{
                    "artifactLocation": {"uri": uri_reference(&file.path_text())},
                    "replacements": fix.edits.iter().map(|edit| json!({
                        "deletedRegion": region(file, edit.range),
                        "insertedContent": {"text": edit.text},
                    })).collect::<Vec<_>>(),
                }],
            })
        })
        .collect();
    if !fixes.is_empty() {
        value["fixes"] = Value::Array(fixes);
    }
    if let Some(reason) = &diagnostic.suppressed {
        value["suppressions"] = json!([{"kind": "inSource", "justification": reason}]);
    }
    value
}

/// GitHub code scanning ranks security alerts by this score (critical from 9.0, high from 7.0,
/// medium from 4.0): what the worst finding of each rule can do.
fn security_severity(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::Exfiltration => "9.3",
        Rule::RemoteCode => "9.0",
        Rule::Destructive => "8.5",
        Rule::HiddenText | Rule::PromptInjection => "8.0",
        Rule::CredentialAccess => "6.5",
        Rule::Persistence => "6.0",
        Rule::CapabilityMismatch => "5.5",
        Rule::Obfuscation => "5.0",
        Rule::Permissions => "4.0",
        _ => return None,
    })
}

/// Stands for the streamed `results` array in the document.
const MARKER: &str = "@@results@@";

/// The whole document with [`MARKER`] for the results; `json!` sorts keys, so `results` comes
/// between `columnKind` and `tool`.
fn document() -> String {
    let rules: Vec<Value> = Rule::ALL
        .iter()
        .map(|rule| {
            let doc = rule.doc();
            let mut value = json!({
                "id": rule.as_str(),
                "shortDescription": {"text": doc.summary},
                "fullDescription": {"text": doc.why},
                "help": {"text": format!("{} Fix: {}", doc.summary, doc.fix)},
                "defaultConfiguration": {"level": level(rule.default_severity())},
            });
            if let Some(score) = security_severity(*rule) {
                value["properties"] = json!({"security-severity": score, "tags": ["security"]});
            }
            value
        })
        .collect();
    let sarif = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "skill-lsp",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": MARKER,
        }],
    });
    serde_json::to_string_pretty(&sarif).unwrap_or_default()
}

/// Everything before the first result.
pub(super) fn head() -> String {
    split_at_array(&document(), MARKER).0
}

/// One file's results as array items, joined by `,\n`.
pub(super) fn file(file: &FileReport) -> String {
    static INDENT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let indent = INDENT.get_or_init(|| split_at_array(&document(), MARKER).1);
    let mut out = String::new();
    for (index, diagnostic) in file.diagnostics.iter().enumerate() {
        if index > 0 {
            out.push_str(",\n");
        }
        out.push_str(&pretty_item(&result(file, diagnostic), indent));
    }
    out
}

/// The end of the results array and of the document.
pub(super) fn tail(any: bool) -> String {
    let (_, _, empty, full) = split_at_array(&document(), MARKER);
    let mut text = if any { full } else { empty };
    text.push('\n');
    text
}

/// A path as a relative URI reference (RFC 3986): every byte outside the unreserved set and
/// `/` is percent-encoded, so `my skill/SKILL.md` and `café#1/SKILL.md` stay one valid URI.
/// An absolute path becomes a `file://` URI.
fn uri_reference(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 8);
    if path.starts_with('/') {
        out.push_str("file://");
    }
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod uri_tests {
    use super::uri_reference;

    #[test]
    fn paths_become_valid_uri_references() {
        assert_eq!(uri_reference("skills/pdf/SKILL.md"), "skills/pdf/SKILL.md");
        assert_eq!(
            uri_reference("my skill/café#1/SKILL.md"),
            "my%20skill/caf%C3%A9%231/SKILL.md"
        );
        assert_eq!(uri_reference("/w/a b/SKILL.md"), "file:///w/a%20b/SKILL.md");
        assert_eq!(uri_reference("100%/x?y"), "100%25/x%3Fy");
    }
}
