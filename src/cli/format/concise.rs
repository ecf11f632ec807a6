//! `--format concise`: one line per finding, `path:line:column: severity[rule] message`, for a
//! terminal that should not scroll and for tools that read `file:line:col:` lines (editors'
//! quickfix lists, `grep`).

use std::fmt::Write;

use super::FileReport;
use super::human::Style;
use crate::text::visible;

/// One line per finding of `file`; ` [*]` ends the line of a finding `--fix` repairs.
pub(super) fn file(file: &FileReport, colour: bool) -> String {
    let style = Style { on: colour };
    let mut out = String::new();
    let path = visible(&file.path_text()).into_owned();
    for diagnostic in &file.diagnostics {
        let start = file.position(diagnostic.range.start);
        let heading = format!("{}[{}]", diagnostic.severity.as_str(), diagnostic.rule);
        let fixable = diagnostic.fixes.first().is_some_and(|fix| fix.safe);
        let _ = writeln!(
            out,
            "{}:{}:{}: {} {}{}",
            style.paint("1", &path),
            start.line,
            start.column,
            style.paint(Style::severity_code(diagnostic.severity), &heading),
            visible(&diagnostic.message),
            if fixable { " [*]" } else { "" }
        );
    }
    out
}
