//! `skill-lsp rules [RULE]`: the rule list, or one rule explained.

use std::fmt::Write;

use super::{EXIT_TROUBLE, error_line, write_stdout};
use crate::rules::{Group, Rule};

pub(super) fn run(rule: Option<&str>) -> u8 {
    let mut out = String::new();
    match rule {
        None => {
            for group in [
                Group::File,
                Group::Fields,
                Group::Body,
                Group::Workspace,
                Group::Codex,
                Group::Plugin,
                Group::Security,
            ] {
                let _ = writeln!(out, "{}", group.title());
                for rule in Rule::ALL.iter().filter(|rule| rule.group() == group) {
                    let _ = writeln!(
                        out,
                        "  {:<28} {:<20} {}",
                        rule.as_str(),
                        rule.severity_list(),
                        rule.doc().summary
                    );
                }
                out.push('\n');
            }
            out.push_str(
                "A rule with several severities prints the one that fits what the clients the skill is \
                 checked for do with it (security rules: how certain the pattern is and where the text \
                 sits); `skill-lsp rules RULE` says how, and `[rules]` in skill-lsp.toml overrides it.\n",
            );
        }
        Some(id) => {
            let Some(rule) = Rule::parse(id) else {
                let close: Vec<&str> = Rule::ALL
                    .iter()
                    .map(|rule| rule.as_str())
                    .filter(|known| known.contains(id) || id.contains(known))
                    .collect();
                let hint = if close.is_empty() {
                    String::new()
                } else {
                    format!(" (did you mean {}?)", close.join(", "))
                };
                error_line(&format!(
                    "unknown rule '{id}'{hint}; `skill-lsp rules` lists them"
                ));
                return EXIT_TROUBLE;
            };
            let doc = rule.doc();
            let _ = writeln!(
                out,
                "{} ({}, {})\n",
                rule.as_str(),
                rule.group().title().to_lowercase(),
                rule.severity_list()
            );
            let _ = writeln!(out, "What:     {}", doc.summary);
            let _ = writeln!(out, "Severity: {}", rule.severity_text());
            let _ = writeln!(out, "Why:      {}", doc.why);
            let _ = writeln!(out, "Example:  {}", doc.example);
            let _ = writeln!(out, "Fix:      {}", doc.fix);
        }
    }
    write_stdout(&out);
    0
}
