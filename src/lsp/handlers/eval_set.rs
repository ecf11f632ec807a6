//! An eval set open in the editor (`<skill>/evals/triggers.json`): its parse and shape errors as
//! diagnostics (the messages of `skill-lsp eval`, from `agent::eval::set::parse`, without the
//! path), and completion of the keys and values of a case. No other JSON file is checked.

use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, Diagnostic, DiagnosticSeverity, NumberOrString,
};

use crate::agent::eval::set::{SetError, parse};
use crate::lsp::snapshot::Snapshot;

/// The code of an eval set's errors.
pub(crate) const EVAL_SET_CODE: &str = "eval-set";

/// The first broken rule of the set, at the line and column the parser stopped.
#[must_use]
pub(crate) fn diagnostics(snapshot: &Snapshot) -> Vec<Diagnostic> {
    let text: &str = &snapshot.document.text;
    let path = snapshot.document.path.clone().unwrap_or_default();
    let Err(SetError::Invalid {
        line,
        column,
        message,
        ..
    }) = parse(&path, text)
    else {
        return Vec::new();
    };
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let body = &text[bom..];
    // serde_json counts lines from 1 and the column in bytes from 1, at the byte it stopped on.
    let line_start = body
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum::<usize>();
    let line_text = body[line_start..].split('\n').next().unwrap_or("");
    let mut at = (column - 1).min(line_text.len());
    while !line_text.is_char_boundary(at) {
        at -= 1;
    }
    let width = line_text[at..].chars().next().map_or(0, char::len_utf8);
    let start = bom + line_start + at;
    vec![Diagnostic {
        range: snapshot.range(start, start + width),
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String(EVAL_SET_CODE.to_owned())),
        source: Some("skill-lsp".to_owned()),
        message,
        ..Diagnostic::default()
    }]
}

/// Where the cursor is in the JSON, as far as completion cares.
#[derive(Debug, PartialEq, Eq)]
enum Site {
    /// Where an object's key goes; `quoted` when the cursor is inside the key's quotes.
    Key {
        quoted: bool,
    },
    /// After `"key":` in an object.
    Value {
        key: String,
    },
    Other,
}

/// Scans the text before the cursor: strings, the open brackets, the last token.
fn site(before: &str) -> Site {
    let mut stack = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    let mut string = String::new();
    let mut last_string = String::new();
    // The last structural character outside strings, and whether a string came after it.
    let mut last = None;
    let mut string_since = false;
    for c in before.chars() {
        if in_string {
            if escaped {
                escaped = false;
                string.push(c);
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
                last_string = std::mem::take(&mut string);
                string_since = true;
            } else {
                string.push(c);
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => {
                stack.push(c);
                last = Some(c);
                string_since = false;
            }
            '}' | ']' => {
                stack.pop();
                last = Some(c);
                string_since = false;
            }
            ',' | ':' => {
                last = Some(c);
                string_since = false;
            }
            _ => {}
        }
    }
    if stack.last() != Some(&'{') {
        return Site::Other;
    }
    match last {
        Some('{' | ',') if in_string => Site::Key { quoted: true },
        Some('{' | ',') if !string_since => Site::Key { quoted: false },
        Some(':') if !string_since && !in_string => Site::Value { key: last_string },
        _ => Site::Other,
    }
}

/// `query` and `should_trigger` where a key goes in a case, `true`/`false` after a key.
#[must_use]
pub(crate) fn complete(snapshot: &Snapshot, offset: usize) -> Vec<CompletionItem> {
    let text: &str = &snapshot.document.text;
    let offset = crate::text::floor_char_boundary(text, offset);
    match site(&text[..offset]) {
        Site::Key { quoted } => [
            ("query", "the prompt a user might type", "\"\""),
            (
                "should_trigger",
                "whether the query should make the model load the skill",
                "true",
            ),
        ]
        .into_iter()
        .map(|(key, detail, value)| CompletionItem {
            label: key.to_owned(),
            kind: Some(CompletionItemKind::PROPERTY),
            detail: Some(detail.to_owned()),
            insert_text: Some(if quoted {
                key.to_owned()
            } else {
                format!("\"{key}\": {value}")
            }),
            ..CompletionItem::default()
        })
        .collect(),
        Site::Value { key } if key != "query" => ["true", "false"]
            .into_iter()
            .map(|value| CompletionItem {
                label: value.to_owned(),
                kind: Some(CompletionItemKind::VALUE),
                ..CompletionItem::default()
            })
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_set(text: &str) -> Snapshot {
        let mut snapshot = crate::lsp::snapshot::test_snapshot(text);
        snapshot.document.path = Some("/w/skills/pdf/evals/triggers.json".into());
        snapshot.document.uri = "file:///w/skills/pdf/evals/triggers.json"
            .parse()
            .expect("a valid uri");
        snapshot
    }

    fn labels(text: &str) -> Vec<String> {
        let offset = text.find('|').expect("a cursor");
        let text = text.replace('|', "");
        complete(&eval_set(&text), offset)
            .into_iter()
            .map(|item| item.label)
            .collect()
    }

    #[test]
    fn the_first_broken_rule_is_a_diagnostic_at_its_position() {
        let text = "[\n  {\"query\": \"merge pdfs\", \"should_trigger\": \"yes\"}\n]\n";
        let found = diagnostics(&eval_set(text));
        assert_eq!(found.len(), 1, "{found:?}");
        let diagnostic = &found[0];
        assert_eq!(diagnostic.range.start.line, 1);
        assert!(
            !diagnostic.message.contains("triggers.json") && !diagnostic.message.is_empty(),
            "{}",
            diagnostic.message
        );
        assert_eq!(
            diagnostic.code,
            Some(NumberOrString::String(EVAL_SET_CODE.to_owned()))
        );
        let good = "[{\"query\": \"merge pdfs\", \"should_trigger\": true}]";
        assert!(diagnostics(&eval_set(good)).is_empty());
        // Broken JSON at the end of the file stays in range.
        let cut = diagnostics(&eval_set("[{\"query\": \"a\""));
        assert_eq!(cut.len(), 1);
    }

    #[test]
    fn keys_and_booleans_complete_inside_a_case() {
        assert_eq!(labels("[{|}]"), ["query", "should_trigger"]);
        assert_eq!(
            labels("[{\"query\": \"a\", |}]"),
            ["query", "should_trigger"]
        );
        assert_eq!(labels("[{\"q|"), ["query", "should_trigger"]);
        assert_eq!(
            labels("[{\"query\": \"a\", \"should_trigger\": |}]"),
            ["true", "false"]
        );
        assert!(labels("[{\"query\": |}]").is_empty());
        assert!(labels("[|]").is_empty());
        assert!(labels("[{\"query\": \"in a va|").is_empty());
    }
}
