//! Core findings and edits to LSP types, at the edge (byte offsets in, positions out), and
//! LSP URIs to paths.

use std::path::PathBuf;

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
pub(crate) fn to_lsp_severity(severity: Severity) -> DiagnosticSeverity {
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

/// A span of another file: its positions were counted when its text was read.
fn span_range(span: crate::text::Span, encoding: Encoding) -> Range {
    let unit = match encoding {
        Encoding::Utf8 => crate::text::ColumnUnit::Utf8,
        Encoding::Utf16 => crate::text::ColumnUnit::Utf16,
    };
    let position = |point: crate::text::Point| Position::new(point.line, point.col(unit));
    Range::new(position(span.start), position(span.end))
}

#[must_use]
pub(crate) fn to_lsp_diagnostic(
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
                            range: span_range(related.span, encoding),
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
pub(crate) fn to_text_edit(edit: &Edit, rope: &Rope, encoding: Encoding) -> TextEdit {
    TextEdit {
        range: range_of(rope, edit.range.start, edit.range.end, encoding),
        new_text: edit.text.clone(),
    }
}

#[must_use]
pub(crate) fn uri_path(uri: &Uri) -> Option<PathBuf> {
    uri.to_file_path().map(std::borrow::Cow::into_owned)
}
