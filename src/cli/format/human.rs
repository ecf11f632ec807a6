//! `--format human`: a rustc-style code frame per finding, colour on a terminal.

use std::fmt::Write;
use std::io::IsTerminal;

use unicode_width::UnicodeWidthChar;

use super::{FileReport, Totals};
use crate::diagnostic::{Diagnostic, Severity};
use crate::text::visible;

/// Colour when stdout is a terminal and `NO_COLOR` is unset (or `CLICOLOR_FORCE` is set).
#[must_use]
pub(crate) fn use_colour() -> bool {
    if std::env::var_os("CLICOLOR_FORCE").is_some_and(|value| value != "0") {
        return true;
    }
    std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal()
}

pub(super) struct Style {
    pub(super) on: bool,
}

impl Style {
    pub(super) fn paint(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    pub(super) fn severity_code(severity: Severity) -> &'static str {
        match severity {
            Severity::Error => "1;31",
            Severity::Warning => "1;33",
            Severity::Info => "1;34",
            Severity::Hint => "1;36",
        }
    }
}

/// Display width of `text` as [`shown`] writes it: tabs as four columns, escaped characters as
/// their escapes.
fn width(text: &str) -> usize {
    text.chars()
        .map(|ch| {
            if ch == '\t' {
                4
            } else if crate::text::hidden_meaning(ch) {
                ch.escape_unicode().len()
            } else {
                ch.width().unwrap_or(0)
            }
        })
        .sum()
}

/// A line of the file as the frame shows it: tabs expanded, controls escaped.
fn shown(text: &str) -> String {
    crate::text::visible(&text.replace('\t', "    ")).into_owned()
}

const WINDOW_BEFORE: usize = 40;
const WINDOW_AFTER: usize = 80;

fn floor_to_char(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_to_char(text: &str, mut at: usize) -> usize {
    while at < text.len() && !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

fn frame(
    out: &mut String,
    style: &Style,
    file: &FileReport,
    diagnostic: &Diagnostic,
    gutter: usize,
) {
    let text = &file.text;
    let code = Style::severity_code(diagnostic.severity);
    let range = diagnostic.range;
    let start_line = file.line_index.line_of(range.start.min(text.len()));
    let Some(line_range) = file.line_index.line_range(start_line) else {
        return;
    };
    let line_text = text[line_range.as_range()].trim_end_matches(['\n', '\r']);
    let line_end = line_range.start + line_text.len();
    let caret_start = range.start.clamp(line_range.start, line_end);
    let caret_end = range.end.clamp(caret_start, line_end);
    // Long lines show a window around the range, marked with `…` where cut.
    let window_start = floor_to_char(
        text,
        caret_start
            .saturating_sub(WINDOW_BEFORE)
            .max(line_range.start),
    );
    // A long span is cut too: the underline shows where it starts, and ` …` that it goes on.
    let window_end = ceil_to_char(text, (caret_start + WINDOW_AFTER).min(line_end));
    let long = width(line_text) > WINDOW_BEFORE + WINDOW_AFTER;
    let (shown_start, lead) = if long && window_start > line_range.start {
        (window_start, "…")
    } else {
        (line_range.start, "")
    };
    let (shown_end, tail) = if long && window_end < line_end {
        (window_end, "…")
    } else {
        (line_end, "")
    };
    let caret_end = caret_end.min(shown_end);
    let pad = width(lead) + width(&text[shown_start..caret_start]);
    let carets = width(&text[caret_start..caret_end]).max(1);
    let bar = style.paint("1;34", "|");
    let _ = writeln!(out, "{:gutter$} {bar}", "");
    let _ = writeln!(
        out,
        "{} {bar} {lead}{}{tail}",
        style.paint("1;34", &format!("{:>gutter$}", start_line + 1)),
        shown(&text[shown_start..shown_end])
    );
    let more = if range.end > caret_end + 2 {
        " …"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "{:gutter$} {bar} {:pad$}{}{more}",
        "",
        "",
        style.paint(code, &"^".repeat(carets))
    );
}

fn describe_fix(diagnostic: &Diagnostic) -> Option<String> {
    let fix = diagnostic.fixes.first()?;
    let how = if fix.safe {
        "safe: `--fix` applies it"
    } else {
        "offered in the editor, not applied by `--fix`"
    };
    Some(format!("fix: {} ({how})", fix.title))
}

/// The code frames of one file's findings.
pub(super) fn file(file: &FileReport, colour: bool) -> String {
    let style = Style { on: colour };
    let mut out = String::new();
    let gutter = file
        .diagnostics
        .iter()
        .map(|diagnostic| {
            (file
                .line_index
                .line_of(diagnostic.range.start.min(file.text.len()))
                + 1)
            .to_string()
            .len()
        })
        .max()
        .unwrap_or(1);
    for diagnostic in &file.diagnostics {
        let code = Style::severity_code(diagnostic.severity);
        let heading = format!("{}[{}]", diagnostic.severity.as_str(), diagnostic.rule);
        let _ = writeln!(
            out,
            "{}{} {}",
            style.paint(code, &heading),
            style.paint("1", ":"),
            style.paint("1", &visible(&diagnostic.message))
        );
        let start = file.position(diagnostic.range.start);
        let _ = writeln!(
            out,
            "{:gutter$}{} {}:{}:{}",
            "",
            style.paint("1;34", "-->"),
            visible(&file.path_text()),
            start.line,
            start.column
        );
        if !file.text.is_empty() {
            frame(&mut out, &style, file, diagnostic, gutter);
        }
        let equals = style.paint("1;34", "=");
        for related in &diagnostic.related {
            let _ = writeln!(
                out,
                "{:gutter$} {equals} see: {} ({})",
                "",
                visible(&related.path.display().to_string()),
                visible(&related.message)
            );
        }
        if let Some(fix) = describe_fix(diagnostic) {
            let _ = writeln!(out, "{:gutter$} {equals} {}", "", visible(&fix));
        }
        out.push('\n');
    }
    out
}

/// Past this many findings, the human summary also counts them by rule.
const RULE_SUMMARY_FROM: usize = 20;

/// The closing summary of the human and concise formats: findings by rule (with
/// `--statistics`, or after code frames long enough to lose count in), whom the skills were
/// checked for, and the totals line.
pub(super) fn tail(totals: &Totals, concise: bool) -> String {
    let summary = totals.summary;
    let mut out = String::new();
    let findings: usize = totals.by_rule.values().map(|(count, _)| count).sum();
    if totals.statistics || (!concise && findings >= RULE_SUMMARY_FROM) {
        let mut rules: Vec<(&&str, &(usize, usize))> = totals.by_rule.iter().collect();
        rules.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
        let width = rules
            .first()
            .map_or(1, |(_, (count, _))| count.to_string().len());
        if !totals.statistics {
            out.push_str("Findings by rule:\n");
        }
        for (rule, (count, fixable)) in rules {
            let _ = write!(out, "{count:>width$}  {rule}");
            if *fixable > 0 {
                let _ = write!(out, " ({fixable} fixable)");
            }
            out.push('\n');
        }
        out.push('\n');
    }
    if !totals.checked_for.is_empty() {
        let groups: Vec<String> = totals
            .checked_for
            .iter()
            .map(|(whom, count)| {
                let whom = if *count == 1 {
                    whom.replacen("skills", "skill", 1)
                } else {
                    whom.clone()
                };
                format!("{count} {whom}")
            })
            .collect();
        let _ = writeln!(out, "Checked for: {}.", groups.join("; "));
    }
    let mut counts = Vec::new();
    for (count, singular, plural) in [
        (summary.errors, "error", "errors"),
        (summary.warnings, "warning", "warnings"),
        (summary.infos, "info", "infos"),
        (summary.hints, "hint", "hints"),
    ] {
        if count > 0 {
            counts.push(format!(
                "{count} {}",
                if count == 1 { singular } else { plural }
            ));
        }
    }
    let found = if counts.is_empty() {
        "no problems".to_owned()
    } else {
        counts.join(", ")
    };
    let _ = write!(
        out,
        "Checked {} file{} ({} skill{}): {found}",
        totals.files_checked,
        if totals.files_checked == 1 { "" } else { "s" },
        totals.skills_checked,
        if totals.skills_checked == 1 { "" } else { "s" },
    );
    if totals.fixable > 0 {
        let _ = write!(
            out,
            "; {} fixable with `skill-lsp check --fix`{}",
            totals.fixable,
            if concise { " (marked [*])" } else { "" }
        );
    }
    out.push_str(".\n");
    out
}
