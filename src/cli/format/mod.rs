//! Output formats of `check`: human (code frames), json (SPEC section 3), github, sarif.
//! The JSON shapes are built here from dedicated structs, never by serialising core types.

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

use std::path::PathBuf;

use crate::diagnostic::{Diagnostic, Severity};
use crate::text::{ColumnUnit, LineIndex, TextRange};

/// One file's findings with the text their ranges point into.
pub struct FileReport {
    pub path: PathBuf,
    /// Empty once `compact` has turned every needed offset into a position.
    pub text: String,
    pub line_index: LineIndex,
    pub diagnostics: Vec<Diagnostic>,
    /// Positions of the offsets the findings use, sorted; set by `compact`.
    positions: Vec<(usize, Position)>,
}

/// A 1-based line and a 1-based column in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

impl FileReport {
    #[must_use]
    pub fn new(path: PathBuf, text: String, diagnostics: Vec<Diagnostic>) -> Self {
        let line_index = LineIndex::new(&text);
        Self {
            path,
            text,
            line_index,
            diagnostics,
            positions: Vec::new(),
        }
    }

    /// Gives the report its text back (to add findings, or draw code frames).
    pub fn set_text(&mut self, text: String) {
        self.line_index = LineIndex::new(&text);
        self.text = text;
        self.positions.clear();
    }

    /// Keeps only the positions the findings (and `anchors`, offsets that findings added later
    /// may use) need and drops the text: formats without code frames then hold a few bytes per
    /// finding instead of the whole file.
    pub fn compact(&mut self, anchors: &[usize]) {
        let mut offsets: Vec<usize> = anchors.to_vec();
        for diagnostic in &self.diagnostics {
            offsets.extend([diagnostic.range.start, diagnostic.range.end]);
            for fix in &diagnostic.fixes {
                for edit in &fix.edits {
                    offsets.extend([edit.range.start, edit.range.end]);
                }
            }
        }
        offsets.sort_unstable();
        offsets.dedup();
        self.positions = offsets
            .into_iter()
            .map(|offset| (offset, self.position(offset)))
            .collect();
        self.text = String::new();
        self.line_index = LineIndex::new("");
    }

    /// The CLI position of a byte offset.
    #[must_use]
    pub fn position(&self, offset: usize) -> Position {
        if let Ok(found) = self.positions.binary_search_by_key(&offset, |(at, _)| *at) {
            return self.positions[found].1;
        }
        let position = self
            .line_index
            .line_col(&self.text, offset, ColumnUnit::Char);
        Position {
            line: position.line + 1,
            column: position.col + 1,
        }
    }

    #[must_use]
    pub fn range(&self, range: TextRange) -> (Position, Position) {
        (self.position(range.start), self.position(range.end))
    }

    /// The path with `/` separators, as every format prints it.
    #[must_use]
    pub fn path_text(&self) -> String {
        self.path.to_string_lossy().replace('\\', "/")
    }
}

/// Everything `check` found, sorted by path then position.
pub struct Report {
    /// Only files with findings.
    pub files: Vec<FileReport>,
    pub files_checked: usize,
    pub skills_checked: usize,
}

#[derive(Default, Clone, Copy)]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub hints: usize,
}

impl Report {
    #[must_use]
    pub fn summary(&self) -> Summary {
        let mut summary = Summary::default();
        for diagnostic in self.files.iter().flat_map(|file| &file.diagnostics) {
            match diagnostic.severity {
                Severity::Error => summary.errors += 1,
                Severity::Warning => summary.warnings += 1,
                Severity::Info => summary.infos += 1,
                Severity::Hint => summary.hints += 1,
            }
        }
        summary
    }
}
