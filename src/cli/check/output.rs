//! What `check` writes, in path order as files finish, and the totals after them.

use super::*;

/// One rendered file: its output and what the totals need from it.
#[derive(Default)]
pub(super) struct Checked {
    pub(super) text: String,
    pub(super) summary: Summary,
    pub(super) fixable: usize,
    pub(super) failed_strict: bool,
    pub(super) failed: bool,
    pub(super) skill: bool,
    /// A file a skill ships besides its SKILL.md (security rules): not counted as a checked file.
    pub(super) part_of_skill: bool,
    /// Holds findings an allow comment suppressed (listed by JSON only).
    pub(super) suppressed: bool,
    /// Each finding's rule, and whether `--fix` applies its fix.
    pub(super) rules: Vec<(&'static str, bool)>,
    /// Whom a skill was checked for, said in the human summary.
    pub(super) checked_for: Option<String>,
}

impl Checked {
    /// Sorts and renders one file's findings, positions computed from its `text`.
    pub(super) fn new(
        output: &Output,
        path: &Path,
        text: String,
        mut diagnostics: Vec<Diagnostic>,
    ) -> Self {
        let mut checked = Checked::default();
        if diagnostics.is_empty() {
            return checked;
        }
        rules::sort(&mut diagnostics);
        checked.suppressed = diagnostics.iter().any(|d| d.suppressed.is_some());
        // Suppressed findings are listed by JSON only, and count nowhere.
        if output.format != Format::Json {
            diagnostics.retain(|diagnostic| diagnostic.suppressed.is_none());
            if diagnostics.is_empty() {
                return checked;
            }
        }
        for diagnostic in diagnostics.iter().filter(|d| d.suppressed.is_none()) {
            checked.summary.add(diagnostic.severity);
            let fixable = diagnostic.fixes.first().is_some_and(|fix| fix.safe);
            checked.fixable += usize::from(fixable);
            checked.rules.push((diagnostic.rule.as_str(), fixable));
            checked.failed |= diagnostic.severity == Severity::Error;
            checked.failed_strict |= diagnostic.severity == Severity::Warning;
        }
        let report = FileReport::new(path.to_path_buf(), text, diagnostics);
        checked.text = output.format.file(&report);
        checked
    }
}

/// The run's output, written as it goes: the head, each file's findings in path order, then
/// the totals (design.md §2 and 3). Exit code from what was written.
pub(super) struct Output {
    pub(super) format: Format,
    pub(super) strict: bool,
    pub(super) totals: Totals,
    pub(super) any: bool,
    pub(super) failed: bool,
    pub(super) pending: String,
}

/// Output is flushed to stdout in pieces of about this size.
pub(super) const FLUSH_BYTES: usize = 64 * 1024;

impl Output {
    pub(super) fn new(format: Format, strict: bool) -> Self {
        Self {
            format,
            strict,
            totals: Totals::default(),
            any: false,
            failed: false,
            pending: format.head(),
        }
    }

    pub(super) fn add(&mut self, checked: Checked) {
        self.totals.files_checked += usize::from(!checked.part_of_skill);
        self.totals.skills_checked += usize::from(checked.skill);
        self.totals.summary.merge(checked.summary);
        self.totals.fixable += checked.fixable;
        for (rule, fixable) in checked.rules {
            let counts = self.totals.by_rule.entry(rule).or_default();
            counts.0 += 1;
            counts.1 += usize::from(fixable);
        }
        if let Some(whom) = checked.checked_for.filter(|_| checked.skill) {
            *self.totals.checked_for.entry(whom).or_default() += 1;
        }
        self.failed |= checked.failed || (self.strict && checked.failed_strict);
        if !checked.text.is_empty() && !self.totals.statistics {
            self.pending.push_str(self.format.separator(!self.any));
            self.pending.push_str(&checked.text);
            self.any = true;
        }
        if self.pending.len() >= FLUSH_BYTES {
            write_stdout(&std::mem::take(&mut self.pending));
        }
    }

    /// Records what a skill can do, for the formats that report it.
    pub(super) fn capabilities(&mut self, skill: &Path, evidence: &[crate::security::Evidence]) {
        if self.format == Format::Json && !evidence.is_empty() {
            self.totals
                .capabilities
                .push((skill.to_path_buf(), evidence.to_vec()));
        }
    }

    /// Writes the rest and turns the run into the exit code (design.md §2).
    pub(super) fn finish(mut self, trouble: bool) -> u8 {
        let tail = self.format.tail(&self.totals, self.any);
        self.pending.push_str(&tail);
        write_stdout(&self.pending);
        if trouble {
            EXIT_TROUBLE
        } else if self.failed {
            EXIT_FINDINGS
        } else {
            0
        }
    }
}
