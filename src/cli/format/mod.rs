//! Output formats of `check`: human (code frames), concise (a line per finding), json
//! (design.md §3), github, sarif.
//! The JSON shapes are built here from dedicated structs, never by serialising core types.

pub(crate) mod concise;
pub(crate) mod github;
pub(crate) mod human;
pub(crate) mod json;
pub(crate) mod sarif;

use std::path::PathBuf;

use crate::diagnostic::{Diagnostic, Severity};
use crate::text::{ColumnUnit, LineIndex, TextRange};

/// One file's findings with the text their ranges point into: every position is computed
/// from that text, which is at hand while the file is rendered.
pub(crate) struct FileReport {
    pub path: PathBuf,
    pub text: String,
    pub line_index: LineIndex,
    pub diagnostics: Vec<Diagnostic>,
}

/// A 1-based line and a 1-based column in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    pub line: u32,
    pub column: u32,
}

impl FileReport {
    #[must_use]
    pub(crate) fn new(path: PathBuf, text: String, diagnostics: Vec<Diagnostic>) -> Self {
        let line_index = LineIndex::new(&text);
        Self {
            path,
            text,
            line_index,
            diagnostics,
        }
    }

    /// The CLI position of a byte offset.
    #[must_use]
    pub(crate) fn position(&self, offset: usize) -> Position {
        let position = self
            .line_index
            .line_col(&self.text, offset, ColumnUnit::Char);
        Position {
            line: position.line + 1,
            column: position.col + 1,
        }
    }

    #[must_use]
    pub(crate) fn range(&self, range: TextRange) -> (Position, Position) {
        (self.position(range.start), self.position(range.end))
    }

    /// The path with `/` separators, as every format prints it.
    #[must_use]
    pub(crate) fn path_text(&self) -> String {
        self.path.to_string_lossy().replace('\\', "/")
    }
}

/// Counts of findings by severity.
#[derive(Default, Clone, Copy)]
pub(crate) struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub hints: usize,
}

impl Summary {
    pub(crate) fn add(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Info => self.infos += 1,
            Severity::Hint => self.hints += 1,
        }
    }

    /// No finding at all.
    #[must_use]
    pub(crate) fn is_empty(&self) -> bool {
        self.errors + self.warnings + self.infos + self.hints == 0
    }

    pub(crate) fn merge(&mut self, other: Summary) {
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.infos += other.infos;
        self.hints += other.hints;
    }
}

/// What the closing part of the output reports, known once every file has been rendered.
#[derive(Default, Clone)]
pub(crate) struct Totals {
    pub summary: Summary,
    /// Findings whose first fix is safe (`--fix` applies it).
    pub fixable: usize,
    pub files_checked: usize,
    pub skills_checked: usize,
    /// What each checked skill can do (`--format json`): the SKILL.md and its evidence.
    pub capabilities: Vec<(PathBuf, Vec<crate::security::Evidence>)>,
    /// Findings per rule, and how many of them `--fix` applies.
    pub by_rule: std::collections::BTreeMap<&'static str, (usize, usize)>,
    /// Skills per whom they were checked for ([`crate::analysis::Engine::checked_for`]).
    pub checked_for: std::collections::BTreeMap<String, usize>,
    /// `--statistics`: the per-rule counts stand for the findings.
    pub statistics: bool,
}

/// The output formats of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Human { colour: bool },
    Concise { colour: bool },
    Json,
    Github,
    Sarif,
}

/// Streams a run's output: [`Format::head`], then each file's findings as soon as the file is
/// done ([`Format::file`], which may run on any thread; files joined by
/// [`Format::separator`]), then [`Format::tail`] with the totals. Memory holds one file's
/// findings at a time, whatever their number.
impl Format {
    /// What comes before the first finding.
    #[must_use]
    pub(crate) fn head(self) -> String {
        match self {
            Format::Human { .. } | Format::Concise { .. } | Format::Github => String::new(),
            Format::Json => json::head(),
            Format::Sarif => sarif::head(),
        }
    }

    /// One file's findings (sorted by position). Empty when it has none.
    #[must_use]
    pub(crate) fn file(self, file: &FileReport) -> String {
        match self {
            Format::Human { colour } => human::file(file, colour),
            Format::Concise { colour } => concise::file(file, colour),
            Format::Json => json::file(file),
            Format::Github => github::file(file),
            Format::Sarif => sarif::file(file),
        }
    }

    /// Goes between two non-empty [`Format::file`] outputs; `first` for the first one.
    #[must_use]
    pub(crate) fn separator(self, first: bool) -> &'static str {
        match (self, first) {
            (Format::Json | Format::Sarif, true) => "\n",
            (Format::Json | Format::Sarif, false) => ",\n",
            _ => "",
        }
    }

    /// What comes after the last finding; `any` tells whether there was one.
    #[must_use]
    pub(crate) fn tail(self, totals: &Totals, any: bool) -> String {
        match self {
            Format::Human { .. } => human::tail(totals, false),
            Format::Concise { .. } => human::tail(totals, true),
            Format::Json => json::tail(totals, any),
            Format::Github => String::new(),
            Format::Sarif => sarif::tail(any),
        }
    }
}

/// Splits a pretty-printed document at the string `marker`, which stands for an array: the
/// text before it (ending with the `[`), the indentation of the array's items, and the text
/// after it for an empty array (`]...`) and a non-empty one (`\n<indent>]...`).
fn split_at_array(document: &str, marker: &str) -> (String, String, String, String) {
    let quoted = format!("\"{marker}\"");
    let at = document.find(&quoted).unwrap_or(document.len());
    let line_start = document[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent = document[line_start..]
        .chars()
        .take_while(|ch| *ch == ' ')
        .count();
    let head = format!("{}[", &document[..at]);
    let rest = document.get(at + quoted.len()..).unwrap_or_default();
    (
        head,
        " ".repeat(indent + 2),
        format!("]{rest}"),
        format!("\n{}]{rest}", " ".repeat(indent)),
    )
}

/// Pretty-prints `value` as an array item at `indent` (JSON strings hold no raw newline).
fn pretty_item(value: &impl serde::Serialize, indent: &str) -> String {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    let mut out = String::with_capacity(text.len() + 64);
    for (index, line) in text.lines().enumerate() {
        if index > 0 {
            out.push('\n');
        }
        out.push_str(indent);
        out.push_str(line);
    }
    out
}
