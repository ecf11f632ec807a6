//! A skill's eval files open in the editor. A trigger set (`<skill>/evals/triggers.json` or
//! another name of `agent::eval::set::SET_FILES`): its parse and shape errors as diagnostics (the
//! messages of `skill-lsp eval`, from `agent::eval::set::parse`, without the path), a note when
//! another set comes first and this one is not measured, and completion of the keys and values
//! of a case. The output evals (`<skill>/evals/evals.json`): the problems
//! `agent::eval::outputs::check` finds, and completion of the keys of the file and of an eval.
//! No other JSON file is checked.

use std::path::Path;

use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, Diagnostic, DiagnosticSeverity, NumberOrString,
};

use crate::agent::eval::outputs::{self, EVAL_KEYS, FILE_KEYS, Level};
use crate::agent::eval::set::{SetError, find_set, parse, searched};
use crate::lsp::snapshot::Snapshot;
use crate::lsp::state::EvalFile;
use crate::workspace::Source;

/// The code of an eval set's errors.
pub(crate) const EVAL_SET_CODE: &str = "eval-set";

/// The code of the problems of `evals/evals.json`.
pub(crate) const OUTPUT_EVALS_CODE: &str = "output-evals";

/// The range of the first character of the document (empty when it is empty).
fn first_char(snapshot: &Snapshot) -> tower_lsp_server::ls_types::Range {
    let text: &str = &snapshot.document.text;
    let width = text.chars().next().map_or(0, char::len_utf8);
    snapshot.range(0, width)
}

/// The set's first broken rule, at the line and column the parser stopped; and, when another
/// set of the skill in `dir` comes first, an information that this one is not measured.
#[must_use]
pub(crate) fn diagnostics(snapshot: &Snapshot, dir: &Path) -> Vec<Diagnostic> {
    let mut found = shadowed(snapshot, dir).into_iter().collect::<Vec<_>>();
    found.extend(parse_error(snapshot));
    found
}

/// The note on a set that another set of the skill shadows.
fn shadowed(snapshot: &Snapshot, dir: &Path) -> Option<Diagnostic> {
    let path = snapshot.document.path.as_deref()?;
    let measured = find_set(&dir.join("SKILL.md"), &|path| snapshot.exists(path))?.path;
    if measured == path {
        return None;
    }
    let shown = measured.strip_prefix(dir).unwrap_or(&measured);
    Some(Diagnostic {
        range: first_char(snapshot),
        severity: Some(DiagnosticSeverity::INFORMATION),
        code: Some(NumberOrString::String(EVAL_SET_CODE.to_owned())),
        source: Some("skill-lsp".to_owned()),
        message: format!(
            "This set is not measured: the skill's trigger evals run {}, the first of {} that exists",
            shown.display(),
            searched()
        ),
        ..Diagnostic::default()
    })
}

/// The output evals' problems, each at the key or value it is about. The skill's frontmatter
/// name (for `skill_name`) and the `files` are read from the skill's folder `dir`.
#[must_use]
pub(crate) fn output_diagnostics(snapshot: &Snapshot, dir: &Path) -> Vec<Diagnostic> {
    let skill_name = ["SKILL.md", "skill.md", "Skill.md"]
        .iter()
        .find_map(|name| snapshot.overlay.read(&dir.join(name)).ok())
        .and_then(|text| {
            crate::document::SkillDocument::parse(&text)
                .field("name")
                .and_then(|entry| entry.value.as_str().map(str::to_owned))
        });
    let exists = |relative: &str| snapshot.exists(&dir.join(relative));
    outputs::check(&snapshot.document.text, skill_name.as_deref(), &exists)
        .into_iter()
        .map(|problem| Diagnostic {
            range: snapshot.range(problem.range.start, problem.range.end),
            severity: Some(match problem.level {
                Level::Error => DiagnosticSeverity::ERROR,
                Level::Warning => DiagnosticSeverity::WARNING,
            }),
            code: Some(NumberOrString::String(OUTPUT_EVALS_CODE.to_owned())),
            source: Some("skill-lsp".to_owned()),
            message: problem.message,
            ..Diagnostic::default()
        })
        .collect()
}

/// The set's first broken rule, at the line and column the parser stopped.
fn parse_error(snapshot: &Snapshot) -> Option<Diagnostic> {
    let text: &str = &snapshot.document.text;
    let path = snapshot.document.path.clone().unwrap_or_default();
    let Err(SetError::Invalid {
        line,
        column,
        message,
        ..
    }) = parse(&path, text)
    else {
        return None;
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
    Some(Diagnostic {
        range: snapshot.range(start, start + width),
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String(EVAL_SET_CODE.to_owned())),
        source: Some("skill-lsp".to_owned()),
        message,
        ..Diagnostic::default()
    })
}

/// Where the cursor is in the JSON, as far as completion cares.
#[derive(Debug, PartialEq, Eq)]
enum Site {
    /// Where an object's key goes; `quoted` when the cursor is inside the key's quotes;
    /// `depth` the number of brackets open around it (1 in the top-level object).
    Key {
        quoted: bool,
        depth: usize,
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
    let depth = stack.len();
    match last {
        Some('{' | ',') if in_string => Site::Key {
            quoted: true,
            depth,
        },
        Some('{' | ',') if !string_since => Site::Key {
            quoted: false,
            depth,
        },
        Some(':') if !string_since && !in_string => Site::Value { key: last_string },
        _ => Site::Other,
    }
}

/// A key for completion: its label, what it is, the value it is inserted with.
fn key_item(key: &str, detail: &str, value: &str, quoted: bool) -> CompletionItem {
    CompletionItem {
        label: key.to_owned(),
        kind: Some(CompletionItemKind::PROPERTY),
        detail: Some(detail.to_owned()),
        insert_text: Some(if quoted {
            key.to_owned()
        } else {
            format!("\"{key}\": {value}")
        }),
        ..CompletionItem::default()
    }
}

/// In a trigger set: `query` and `should_trigger` where a key goes in a case, `true`/`false`
/// after a key. In the output evals: `skill_name` and `evals` in the top-level object, the keys
/// of an eval in an object of `evals`.
#[must_use]
pub(crate) fn complete(snapshot: &Snapshot, file: &EvalFile, offset: usize) -> Vec<CompletionItem> {
    let text: &str = &snapshot.document.text;
    let offset = crate::text::floor_char_boundary(text, offset);
    let site = site(&text[..offset]);
    if let EvalFile::Outputs { .. } = file {
        let Site::Key { quoted, depth } = site else {
            return Vec::new();
        };
        let keys = match depth {
            1 => FILE_KEYS,
            3 => EVAL_KEYS,
            _ => return Vec::new(),
        };
        return keys
            .iter()
            .map(|(key, detail)| {
                let value = match *key {
                    "id" => "1",
                    "evals" | "files" | "assertions" | "expectations" => "[]",
                    _ => "\"\"",
                };
                key_item(key, detail, value, quoted)
            })
            .collect();
    }
    match site {
        Site::Key { quoted, .. } => [
            ("query", "the prompt a user might type", "\"\""),
            (
                "should_trigger",
                "whether the query should make the model load the skill",
                "true",
            ),
        ]
        .into_iter()
        .map(|(key, detail, value)| key_item(key, detail, value, quoted))
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

    const DIR: &str = "/w/skills/pdf";

    /// A snapshot of the skill's file `name` with `text`, beside an open SKILL.md (and the
    /// other files `open`), none on disk.
    fn file(name: &str, text: &str, open: &[(&str, &str)]) -> Snapshot {
        let mut snapshot = crate::lsp::snapshot::test_snapshot(text);
        let path = Path::new(DIR).join(name);
        snapshot.document.uri = format!("file://{}", path.display())
            .parse()
            .expect("a valid uri");
        snapshot.document.path = Some(path.clone());
        let skill = "---\nname: pdf\ndescription: d\n---\n";
        for (name, text) in [("SKILL.md", skill)].iter().chain(open) {
            snapshot
                .overlay
                .0
                .insert(Path::new(DIR).join(name), (*text).into());
        }
        snapshot.overlay.0.insert(path, text.into());
        snapshot
    }

    fn eval_set(text: &str) -> Snapshot {
        file("evals/triggers.json", text, &[])
    }

    fn diagnostics(snapshot: &Snapshot) -> Vec<Diagnostic> {
        match snapshot.eval_file().expect("an eval file") {
            EvalFile::Triggers { dir } => super::diagnostics(snapshot, &dir),
            EvalFile::Outputs { dir } => output_diagnostics(snapshot, &dir),
        }
    }

    fn labels_in(name: &str, text: &str) -> Vec<String> {
        let offset = text.find('|').expect("a cursor");
        let text = text.replace('|', "");
        let snapshot = file(name, &text, &[]);
        complete(
            &snapshot,
            &snapshot.eval_file().expect("an eval file"),
            offset,
        )
        .into_iter()
        .map(|item| item.label)
        .collect()
    }

    fn labels(text: &str) -> Vec<String> {
        labels_in("evals/triggers.json", text)
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

    #[test]
    fn a_set_that_another_set_shadows_says_which_one_is_measured() {
        let good = "[{\"query\": \"merge pdfs\", \"should_trigger\": true}]";
        let alone = file("eval_set.json", good, &[]);
        assert!(diagnostics(&alone).is_empty());
        let shadowed = file("eval_set.json", good, &[("evals/eval_queries.json", good)]);
        let found = diagnostics(&shadowed);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].severity, Some(DiagnosticSeverity::INFORMATION));
        assert_eq!(
            (found[0].range.start.line, found[0].range.end.character),
            (0, 1)
        );
        assert!(
            found[0].message.starts_with(
                "This set is not measured: the skill's trigger evals run evals/eval_queries.json, the first of evals/triggers.json, "
            ),
            "{}",
            found[0].message
        );
        // The set measured gets no such note.
        let first = file("evals/eval_queries.json", good, &[("eval_set.json", good)]);
        assert!(diagnostics(&first).is_empty());
        // No SKILL.md beside it: not a skill's set, so not an eval file at all.
        let mut stray = file("eval_set.json", good, &[]);
        stray.overlay.0.remove(&Path::new(DIR).join("SKILL.md"));
        assert_eq!(stray.eval_file(), None);
    }

    #[test]
    fn output_evals_problems_are_diagnostics_at_their_ranges() {
        let text = "{\n  \"skill_name\": \"pdf-tools\",\n  \"evals\": [\n    {\"id\": 1, \"files\": [\"evals/files/in.pdf\"]}\n  ]\n}\n";
        let snapshot = file("evals/evals.json", text, &[("evals/files/in.pdf", "%PDF")]);
        let found: Vec<(u32, u32, u32, Option<DiagnosticSeverity>, String)> =
            diagnostics(&snapshot)
                .into_iter()
                .map(|it| {
                    (
                        it.range.start.line,
                        it.range.start.character,
                        it.range.end.character,
                        it.severity,
                        it.message,
                    )
                })
                .collect();
        assert_eq!(
            found,
            [
                (
                    1,
                    16,
                    27,
                    Some(DiagnosticSeverity::WARNING),
                    "skill_name is 'pdf-tools', but the skill's frontmatter name is 'pdf'".into()
                ),
                (
                    3,
                    4,
                    5,
                    Some(DiagnosticSeverity::ERROR),
                    "eval 1 has no \"prompt\"; every eval needs the user message".into()
                ),
            ]
        );
        let code = diagnostics(&snapshot)[0].code.clone();
        assert_eq!(code, Some(NumberOrString::String(OUTPUT_EVALS_CODE.into())));
    }

    #[test]
    fn output_evals_complete_the_keys_of_the_file_and_of_an_eval() {
        let name = "evals/evals.json";
        assert_eq!(labels_in(name, "{|}"), ["skill_name", "evals"]);
        assert_eq!(
            labels_in(name, "{\"evals\": [{\"id\": 1, |}]}"),
            [
                "id",
                "prompt",
                "expected_output",
                "files",
                "assertions",
                "expectations",
                "name"
            ]
        );
        assert_eq!(
            labels_in(name, "{\"evals\": [{\"pr|"),
            labels_in(name, "{\"evals\": [{|")
        );
        assert!(labels_in(name, "{\"evals\": [{\"prompt\": |}]}").is_empty());
        assert!(labels_in(name, "{\"evals\": [{\"files\": [|]}]}").is_empty());
    }
}
