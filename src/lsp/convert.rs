//! Core findings and edits to LSP types, at the edge (byte offsets in, positions out).

use std::collections::HashMap;

use ropey::Rope;
use tower_lsp_server::ls_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag,
    Location, NumberOrString, Position, Range, TextEdit, Uri,
};

use super::documents::{Encoding, range_of};
use super::ext::RULE_DOCS;
use crate::diagnostic::{self as core, Edit, Severity};
use crate::rules::Rule;

#[must_use]
pub fn to_lsp_severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
        Severity::Hint => DiagnosticSeverity::HINT,
    }
}

fn tags(rule: Rule) -> Option<Vec<DiagnosticTag>> {
    // Keys that no selected client reads are dead weight: editors grey them out.
    matches!(rule, Rule::UnknownField).then(|| vec![DiagnosticTag::UNNECESSARY])
}

/// A position in a file that is not open: read it from disk to convert (first line on failure).
fn range_in_file(
    path: &std::path::Path,
    range: crate::text::TextRange,
    encoding: Encoding,
) -> Range {
    match crate::workspace::read::read_text(path) {
        Ok(text) => range_of(&Rope::from_str(&text), range.start, range.end, encoding),
        Err(_) => Range::new(Position::new(0, 0), Position::new(0, 0)),
    }
}

#[must_use]
pub fn to_lsp_diagnostic(
    diagnostic: &core::Diagnostic,
    rope: &Rope,
    encoding: Encoding,
    related_info: bool,
) -> Diagnostic {
    let code = diagnostic.rule.as_str();
    let href = format!("{RULE_DOCS}#{code}").parse().ok();
    let related = if related_info && !diagnostic.related.is_empty() {
        Some(
            diagnostic
                .related
                .iter()
                .filter_map(|related| {
                    let path = std::path::absolute(&related.path).ok()?;
                    Some(DiagnosticRelatedInformation {
                        location: Location {
                            uri: Uri::from_file_path(&path)?,
                            range: range_in_file(&path, related.range, encoding),
                        },
                        message: related.message.clone(),
                    })
                })
                .collect(),
        )
    } else {
        None
    };
    Diagnostic {
        range: range_of(rope, diagnostic.range.start, diagnostic.range.end, encoding),
        severity: Some(to_lsp_severity(diagnostic.severity)),
        code: Some(NumberOrString::String(code.to_owned())),
        code_description: href.map(|href| CodeDescription { href }),
        source: Some("skill-lsp".to_owned()),
        message: diagnostic.message.clone(),
        related_information: related,
        tags: tags(diagnostic.rule),
        data: None,
    }
}

#[must_use]
pub fn to_text_edit(edit: &Edit, rope: &Rope, encoding: Encoding) -> TextEdit {
    TextEdit {
        range: range_of(rope, edit.range.start, edit.range.end, encoding),
        new_text: edit.text.clone(),
    }
}

/// A `changes` map for one document's edits.
#[must_use]
pub fn changes_for(uri: &Uri, edits: Vec<TextEdit>) -> HashMap<Uri, Vec<TextEdit>> {
    HashMap::from([(uri.clone(), edits)])
}
