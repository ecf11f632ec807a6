//! `--format github`: workflow commands that GitHub Actions turns into annotations.

use std::fmt::Write;

use super::FileReport;
use crate::diagnostic::Severity;

/// Escapes a workflow command's message: file text in it is shown, not obeyed (the log
/// renders escape sequences), and stays on the command's line (`visible` escapes line breaks
/// too, so only `%` is left to encode).
fn escape_data(text: &str) -> String {
    crate::text::visible(text).replace('%', "%25")
}

/// Escapes a workflow command's property value.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// One workflow command per finding of `file`.
pub(super) fn file(file: &FileReport) -> String {
    let mut out = String::new();
    {
        for diagnostic in &file.diagnostics {
            let level = match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info | Severity::Hint => "notice",
            };
            let (start, end) = file.range(diagnostic.range);
            // Security findings share a title prefix, so the run's annotations list them
            // together, apart from the lint findings.
            let title = if diagnostic.rule.group() == crate::rules::Group::Security {
                format!("security/{}", diagnostic.rule.as_str())
            } else {
                diagnostic.rule.as_str().to_owned()
            };
            let _ = writeln!(
                out,
                "::{level} file={},line={},col={},endLine={},endColumn={},title={}::{}",
                escape_property(&file.path_text()),
                start.line,
                start.column,
                end.line,
                end.column,
                escape_property(&title),
                escape_data(&diagnostic.message),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_follow_the_workflow_command_rules() {
        assert_eq!(escape_data("50% a\nb"), "50%25 a\\u{a}b");
        assert_eq!(escape_data("a\u{1b}[2J"), "a\\u{1b}[2J");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
    }
}
