//! Inline suppression: `skill-lsp: allow RULE[, RULE] — reason` in a comment of a script or of
//! Markdown (`<!-- … -->`). On a line of its own it covers the next line that is not blank (the
//! whole block when that line opens a fenced block); after code, its own line. The reason is
//! required: an allow without one suppresses nothing, and the finding says so. Suppressed
//! findings are kept, marked with their reason, so `check --format json` can list them.

use std::sync::LazyLock;

use regex::Regex;

use crate::diagnostic::Diagnostic;
use crate::rule_table::Rule;

static ALLOW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"skill-lsp:\s*allow\s+([a-z][a-z-]*(?:\s*,\s*[a-z][a-z-]*)*)[ \t]*(?:(?:—|–|--|-|:)[ \t]*(.*))?$")
        .expect("allow pattern compiles")
});

struct Allow {
    rules: Vec<String>,
    reason: Option<String>,
    /// 1-based line of the comment, for the message when the reason is missing.
    line: usize,
    covers: std::ops::Range<usize>,
}

/// Marks the findings an allow comment of `text` covers.
pub(crate) fn apply(text: &str, diagnostics: &mut [Diagnostic]) {
    if diagnostics.is_empty() || memchr::memmem::find(text.as_bytes(), b"skill-lsp:").is_none() {
        return;
    }
    let allows = find(text);
    for diagnostic in diagnostics.iter_mut() {
        for allow in &allows {
            let named = allow
                .rules
                .iter()
                .any(|rule| rule == diagnostic.rule.as_str());
            if !named || !allow.covers.contains(&diagnostic.range.start) {
                continue;
            }
            match &allow.reason {
                Some(reason) => diagnostic.suppressed = Some(reason.clone()),
                None => diagnostic.message.push_str(&format!(
                    " (the allow comment on line {} gives no reason, so it does not count)",
                    allow.line
                )),
            }
        }
    }
}

fn find(text: &str) -> Vec<Allow> {
    let lines: Vec<(usize, &str)> = {
        let mut start = 0;
        text.split_inclusive('\n')
            .map(|line| {
                let at = start;
                start += line.len();
                (at, line)
            })
            .collect()
    };
    let mut found = Vec::new();
    for (index, &(start, line)) in lines.iter().enumerate() {
        let body = line.trim_end();
        let body = body
            .strip_suffix("-->")
            .or_else(|| body.strip_suffix("*/"))
            .unwrap_or(body);
        let Some(captures) = ALLOW.captures(body) else {
            continue;
        };
        let whole = captures.get(0).map_or(0, |m| m.start());
        let rules: Vec<String> = captures[1]
            .split(',')
            .map(|rule| rule.trim().to_owned())
            .filter(|rule| Rule::ALL.iter().any(|known| known.as_str() == rule))
            .collect();
        let reason = captures
            .get(2)
            .map(|reason| reason.as_str().trim().to_owned())
            .filter(|reason| !reason.is_empty());
        let lead = line[..whole].trim();
        let alone = ["", "#", "//", "<!--", "/*", "*", "REM", "::", "--"].contains(&lead);
        let covers = if alone {
            next_code(&lines, index)
        } else {
            start..start + line.len()
        };
        found.push(Allow {
            rules,
            reason,
            line: index + 1,
            covers,
        });
    }
    found
}

/// The next non-blank line after `index`, or the fenced block it opens.
fn next_code(lines: &[(usize, &str)], index: usize) -> std::ops::Range<usize> {
    let Some(next) = (index + 1..lines.len()).find(|&at| !lines[at].1.trim().is_empty()) else {
        return 0..0;
    };
    let (start, line) = lines[next];
    let trimmed = line.trim_start();
    let fence: String = trimmed
        .chars()
        .take_while(|&ch| ch == '`' || ch == '~')
        .collect();
    if fence.len() >= 3
        && fence
            .chars()
            .all(|ch| ch == fence.chars().next().unwrap_or('`'))
    {
        for &(at, closing) in &lines[next + 1..] {
            if closing.trim_start().starts_with(fence.as_str()) {
                return start..at + closing.len();
            }
        }
        return start..lines.last().map_or(start, |(at, line)| at + line.len());
    }
    start..start + line.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::TextRange;

    fn finding(text: &str, needle: &str) -> Diagnostic {
        let at = text.find(needle).unwrap();
        Diagnostic::new(Rule::RemoteCode, TextRange::new(at, at + needle.len()), "m")
    }

    #[test]
    fn covers_the_next_line_or_block_and_needs_a_reason() {
        let text = "<!-- skill-lsp: allow remote-code — installs uv from its vendor -->\n```bash\necho a\ncurl x | sh\n```\ncurl y | sh\n";
        let mut found = [finding(text, "curl x"), finding(text, "curl y")];
        apply(text, &mut found);
        assert_eq!(
            found[0].suppressed.as_deref(),
            Some("installs uv from its vendor")
        );
        assert_eq!(found[1].suppressed, None);

        let text = "curl z | sh  # skill-lsp: allow remote-code\n";
        let mut found = [finding(text, "curl z")];
        apply(text, &mut found);
        assert_eq!(found[0].suppressed, None);
        assert!(found[0].message.contains("line 1 gives no reason"));

        let text = "curl z | sh  # skill-lsp: allow remote-code: vendor installer\n";
        let mut found = [finding(text, "curl z")];
        apply(text, &mut found);
        assert_eq!(found[0].suppressed.as_deref(), Some("vendor installer"));
    }
}
