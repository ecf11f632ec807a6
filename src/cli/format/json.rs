//! `--format json`: the contract of SPEC section 3.

use serde::Serialize;

use super::{FileReport, Position, Report};
use crate::diagnostic::{Diagnostic, Fix};

#[derive(Serialize)]
struct Output<'a> {
    version: u32,
    checked: Checked,
    summary: Summary,
    diagnostics: Vec<JsonDiagnostic<'a>>,
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
    }
}

#[must_use]
pub fn render(report: &Report) -> String {
    let summary = report.summary();
    let output = Output {
        version: 1,
        checked: Checked {
            files: report.files_checked,
            skills: report.skills_checked,
        },
        summary: Summary {
            errors: summary.errors,
            warnings: summary.warnings,
            infos: summary.infos,
            hints: summary.hints,
        },
        diagnostics: report
            .files
            .iter()
            .flat_map(|file| {
                file.diagnostics
                    .iter()
                    .map(move |item| diagnostic(file, item))
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&output)
        .unwrap_or_else(|error| format!("{{\"error\": \"{error}\"}}"));
    text.push('\n');
    text
}
