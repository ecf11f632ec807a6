//! Findings and their fixes as plain data: byte ranges, no LSP or JSON types.

use std::path::PathBuf;

use crate::rule_table::Rule;
pub use crate::rule_table::Severity;
use crate::targets::Client;
use crate::text::{Span, TextRange};

/// Replace the bytes of `range` with `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub range: TextRange,
    pub text: String,
}

impl Edit {
    #[must_use]
    pub(crate) fn replace(range: TextRange, text: impl Into<String>) -> Self {
        Self {
            range,
            text: text.into(),
        }
    }

    #[must_use]
    pub(crate) fn insert(offset: usize, text: impl Into<String>) -> Self {
        Self::replace(TextRange::empty(offset), text)
    }

    #[must_use]
    pub(crate) fn delete(range: TextRange) -> Self {
        Self::replace(range, "")
    }
}

/// A file rename that a fix needs (only `skill-md-case` uses it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rename {
    pub(crate) from: PathBuf,
    pub(crate) to: PathBuf,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    /// Safe fixes keep the author's meaning; `check --fix` and `source.fixAll` apply only these.
    pub(crate) safe: bool,
    pub edits: Vec<Edit>,
    pub(crate) rename: Option<Rename>,
    /// Made to change what a client reads, its title saying how: a respelt key a client then
    /// acts on, a missing field inserted for the author to complete. Never safe: the fix guard
    /// (`rules::fix::keep_readings`) keeps it for the editor, where it withdraws any other fix
    /// that changes a reading.
    pub(crate) changes_reading: bool,
}

impl Fix {
    #[must_use]
    pub(crate) fn new(title: impl Into<String>, safe: bool, edits: Vec<Edit>) -> Self {
        Self {
            title: title.into(),
            safe,
            edits,
            rename: None,
            changes_reading: false,
        }
    }

    /// The fix is made to change what a client reads ([`Fix::changes_reading`]).
    #[must_use]
    pub(crate) fn changing_reading(mut self) -> Self {
        self.changes_reading = true;
        self
    }
}

/// Another place that a finding refers to, such as the other skill of a `duplicate-name` pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Related {
    pub path: PathBuf,
    /// Positions rather than byte offsets: the other file's text is not at hand when a front end
    /// converts them, and it must not read the file again.
    pub(crate) span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub rule: Rule,
    pub severity: Severity,
    pub message: String,
    pub range: TextRange,
    /// The selected targets this finding breaks or degrades.
    pub(crate) targets: Vec<Client>,
    /// The preferred fix first.
    pub fixes: Vec<Fix>,
    pub(crate) related: Vec<Related>,
    /// The reason of the allow comment that suppresses it (security rules): kept so that
    /// `check --format json` lists it, left out of every other output and of the exit code.
    pub(crate) suppressed: Option<String>,
}

impl Diagnostic {
    #[must_use]
    pub(crate) fn new(rule: Rule, range: TextRange, message: impl Into<String>) -> Self {
        Self {
            rule,
            severity: rule.default_severity(),
            message: message.into(),
            range,
            targets: Vec::new(),
            fixes: Vec::new(),
            related: Vec::new(),
            suppressed: None,
        }
    }
}

/// Why a set of edits could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("edit range {start}..{end} lies outside the text or off a character boundary")]
    OutOfBounds { start: usize, end: usize },
    #[error("edits overlap at byte {at}")]
    Overlap { at: usize },
}

/// Applies non-overlapping edits to `text`.
///
/// # Errors
/// Returns an error, and leaves nothing half-applied, when an edit is out of bounds, off a char
/// boundary, or overlaps another.
pub fn apply_edits(text: &str, edits: &[Edit]) -> Result<String, EditError> {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|edit| (edit.range.start, edit.range.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut cursor = 0;
    for edit in sorted {
        let TextRange { start, end } = edit.range;
        if end > text.len() || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            return Err(EditError::OutOfBounds { start, end });
        }
        if start < cursor {
            return Err(EditError::Overlap { at: start });
        }
        out.push_str(&text[cursor..start]);
        out.push_str(&edit.text);
        cursor = end;
    }
    out.push_str(&text[cursor..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_apply_in_offset_order() {
        let edits = vec![
            Edit::replace(TextRange::new(4, 5), "Z"),
            Edit::insert(0, ">"),
            Edit::delete(TextRange::new(1, 2)),
        ];
        assert_eq!(apply_edits("abcdef", &edits).unwrap(), ">acdZf");
    }

    #[test]
    fn overlapping_and_off_boundary_edits_are_refused() {
        let overlap = vec![
            Edit::replace(TextRange::new(0, 3), "x"),
            Edit::replace(TextRange::new(2, 4), "y"),
        ];
        assert_eq!(
            apply_edits("abcdef", &overlap),
            Err(EditError::Overlap { at: 2 })
        );
        let split_char = vec![Edit::delete(TextRange::new(0, 1))];
        assert!(matches!(
            apply_edits("é", &split_char),
            Err(EditError::OutOfBounds { .. })
        ));
    }
}
