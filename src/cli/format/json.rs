//! `--format json`: the contract of design.md §3.

use serde::Serialize;

use super::{FileReport, Position, Totals, pretty_item, split_at_array};
use crate::diagnostic::{Diagnostic, Fix};

/// The document; `diagnostics` is streamed, so the totals come after it (design.md §3's keys
/// and values, in the order `version`, `diagnostics`, `checked`, `summary`).
#[derive(Serialize)]
struct Output {
    version: u32,
    diagnostics: &'static str,
    checked: Checked,
    /// What each checked skill can do, from its files (security rules).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    capabilities: Vec<JsonSkill>,
    summary: Summary,
}

#[derive(Serialize)]
struct JsonSkill {
    skill: String,
    capabilities: Vec<JsonCapability>,
}

#[derive(Serialize)]
struct JsonCapability {
    kind: &'static str,
    path: String,
    line: u32,
    evidence: String,
}

#[derive(Serialize)]
struct JsonRelated {
    path: String,
    range: JsonRange,
    message: String,
}

#[derive(Serialize)]
struct Checked {
    files: usize,
    skills: usize,
}

#[derive(Serialize)]
struct Summary {
    errors: usize,
    warnings: usize,
    infos: usize,
    hints: usize,
}

#[derive(Serialize)]
struct JsonPosition {
    line: u32,
    column: u32,
}

impl From<Position> for JsonPosition {
    fn from(position: Position) -> Self {
        Self {
            line: position.line,
            column: position.column,
        }
    }
}

#[derive(Serialize)]
struct JsonRange {
    start: JsonPosition,
    end: JsonPosition,
}

#[derive(Serialize)]
struct JsonEdit {
    range: JsonRange,
    text: String,
}

#[derive(Serialize)]
struct JsonRename {
    from: String,
    to: String,
}

#[derive(Serialize)]
struct JsonFix {
    title: String,
    safe: bool,
    edits: Vec<JsonEdit>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rename: Option<JsonRename>,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    path: String,
    rule: &'a str,
    severity: &'a str,
    message: &'a str,
    range: JsonRange,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix>,
    targets: Vec<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related: Vec<JsonRelated>,
    /// The reason of the allow comment that suppresses it.
    #[serde(skip_serializing_if = "Option::is_none")]
    suppressed: Option<&'a str>,
}

fn range(file: &FileReport, range: crate::text::TextRange) -> JsonRange {
    let (start, end) = file.range(range);
    JsonRange {
        start: start.into(),
        end: end.into(),
    }
}

fn fix(file: &FileReport, fix: &Fix) -> JsonFix {
    JsonFix {
        title: fix.title.clone(),
        safe: fix.safe,
        edits: fix
            .edits
            .iter()
            .map(|edit| JsonEdit {
                range: range(file, edit.range),
                text: edit.text.clone(),
            })
            .collect(),
        rename: fix.rename.as_ref().map(|rename| JsonRename {
            from: rename.from.to_string_lossy().replace('\\', "/"),
            to: rename.to.to_string_lossy().replace('\\', "/"),
        }),
    }
}

fn diagnostic<'a>(file: &FileReport, diagnostic: &'a Diagnostic) -> JsonDiagnostic<'a> {
    JsonDiagnostic {
        path: file.path_text(),
        rule: diagnostic.rule.as_str(),
        severity: diagnostic.severity.as_str(),
        message: &diagnostic.message,
        range: range(file, diagnostic.range),
        fix: diagnostic.fixes.first().map(|first| fix(file, first)),
        targets: diagnostic
            .targets
            .iter()
            .map(|target| target.id())
            .collect(),
        related: diagnostic
            .related
            .iter()
            .map(|related| {
                let at = |point: crate::text::Point| JsonPosition {
                    line: point.line + 1,
                    column: point.char + 1,
                };
                JsonRelated {
                    path: related.path.to_string_lossy().replace('\\', "/"),
                    range: JsonRange {
                        start: at(related.span.start),
                        end: at(related.span.end),
                    },
                    message: related.message.clone(),
                }
            })
            .collect(),
        suppressed: diagnostic.suppressed.as_deref(),
    }
}

/// Stands for the streamed array in the document (nothing else there can read so).
const MARKER: &str = "@@diagnostics@@";
const ITEM_INDENT: &str = "    ";

fn document(totals: &Totals) -> String {
    let summary = totals.summary;
    let output = Output {
        version: 1,
        diagnostics: MARKER,
        checked: Checked {
            files: totals.files_checked,
            skills: totals.skills_checked,
        },
        capabilities: totals
            .capabilities
            .iter()
            .map(|(skill, evidence)| JsonSkill {
                skill: skill.to_string_lossy().replace('\\', "/"),
                capabilities: evidence
                    .iter()
                    .map(|evidence| JsonCapability {
                        kind: evidence.capability.as_str(),
                        path: evidence.path.to_string_lossy().replace('\\', "/"),
                        line: evidence.line(),
                        evidence: evidence.snippet.clone(),
                    })
                    .collect(),
            })
            .collect(),
        summary: Summary {
            errors: summary.errors,
            warnings: summary.warnings,
            infos: summary.infos,
            hints: summary.hints,
        },
    };
    serde_json::to_string_pretty(&output).unwrap_or_default()
}

/// Everything before the first diagnostic (which does not depend on the totals).
pub(super) fn head() -> String {
    split_at_array(&document(&Totals::default()), MARKER).0
}

/// One file's diagnostics as array items, joined by `,\n`.
pub(super) fn file(file: &FileReport) -> String {
    let mut out = String::new();
    for (index, item) in file.diagnostics.iter().enumerate() {
        if index > 0 {
            out.push_str(",\n");
        }
        out.push_str(&pretty_item(&diagnostic(file, item), ITEM_INDENT));
    }
    out
}

/// The end of the array, then the totals.
pub(super) fn tail(totals: &Totals, any: bool) -> String {
    let (_, _, empty, full) = split_at_array(&document(totals), MARKER);
    let mut text = if any { full } else { empty };
    text.push('\n');
    text
}
