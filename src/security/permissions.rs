//! What a SKILL.md's frontmatter grants without asking: `allowed-tools` entries that
//! pre-approve any shell command or any web request, and `hooks` that run commands.

use crate::diagnostic::{Diagnostic, Severity};
use crate::document::{Node, NodeKind, SkillDocument};
use crate::rule_table::Rule;
use crate::text::TextRange;

/// The findings of the frontmatter's `allowed-tools` and `hooks`.
pub(crate) fn check(text: &str, document: &SkillDocument, out: &mut Vec<Diagnostic>) {
    if let Some(entry) = document.field("allowed-tools") {
        for (tool, range) in tools(text, &entry.value) {
            if let Some((why, severity)) = unrestricted(&tool) {
                let mut diagnostic = Diagnostic::new(
                    Rule::Permissions,
                    range,
                    format!(
                        "'allowed-tools' pre-approves '{tool}', {why} — while the skill is active the agent runs such commands without asking the user; name the commands the skill needs, such as 'Bash(git status:*)'"
                    ),
                );
                diagnostic.severity = severity;
                out.push(diagnostic);
            }
        }
    }
    if let Some(entry) = document.field("hooks") {
        let mut commands = Vec::new();
        hook_commands(&entry.value, &mut commands);
        for node in commands {
            let NodeKind::Scalar { value, .. } = &node.kind else {
                continue;
            };
            let mut diagnostic = Diagnostic::new(
                Rule::Permissions,
                node.range,
                format!(
                    "a frontmatter hook runs '{}' — Claude Code runs it by itself on the hook's event while the skill is active, with the user's permissions and no prompt; make sure it is what the skill needs, and say so in the description",
                    super::hidden::abridge(value, 80)
                ),
            );
            diagnostic.severity = Severity::Warning;
            out.push(diagnostic);
        }
    }
}

/// Why a tool entry grants too much, and how much that matters, or `None`.
fn unrestricted(tool: &str) -> Option<(&'static str, Severity)> {
    unrestricted_because(tool).map(|why| (why, Severity::Warning))
}

fn unrestricted_because(tool: &str) -> Option<&'static str> {
    let compact: String = tool.chars().filter(|ch| !ch.is_whitespace()).collect();
    let (name, inner) = match compact.split_once('(') {
        Some((name, rest)) => (name, Some(rest.trim_end_matches(')'))),
        None => (compact.as_str(), None),
    };
    let shell = matches!(
        name,
        "Bash" | "PowerShell" | "run_shell_command" | "shell" | "Shell"
    );
    if shell {
        let Some(inner) = inner else {
            return Some("every shell command");
        };
        let command = inner.split(':').next().unwrap_or("").trim_end_matches('*');
        return match command {
            "" => Some("every shell command"),
            "sudo" | "doas" | "su" => Some("a command that runs anything with root privileges"),
            "sh" | "bash" | "zsh" | "eval" | "exec" | "env" | "xargs" | "python" | "python3"
            | "node" | "perl" | "ruby" | "pwsh" | "powershell" => {
                Some("a command that runs any other command")
            }
            "curl" | "wget" | "nc" | "ncat" | "ssh" | "scp" => {
                Some("a command that reaches any address on the network")
            }
            _ => None,
        };
    }
    if name == "WebFetch" {
        return match inner {
            None | Some("" | "*" | "domain:*") => Some("fetching any web address"),
            Some(_) => None,
        };
    }
    None
}

/// The entries of `allowed-tools`, a list or a string of comma- or space-separated entries,
/// each with its range (parentheses keep `Bash(git status:*)` whole).
fn tools(text: &str, value: &Node) -> Vec<(String, TextRange)> {
    match &value.kind {
        NodeKind::Sequence(items) => items
            .iter()
            .filter_map(|item| match &item.kind {
                NodeKind::Scalar { value, .. } => Some((value.trim().to_owned(), item.range)),
                _ => None,
            })
            .collect(),
        NodeKind::Scalar { value: _, .. } => {
            let source = &text[value.range.as_range()];
            let mut found = Vec::new();
            let mut depth = 0usize;
            let mut start: Option<usize> = None;
            for (at, ch) in source.char_indices().chain([(source.len(), ',')]) {
                match ch {
                    '(' => depth += 1,
                    ')' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                let separator =
                    depth == 0 && (ch == ',' || ch.is_whitespace() || ch == '"' || ch == '\'');
                match (separator, start) {
                    (true, Some(from)) => {
                        let token = &source[from..at];
                        found.push((
                            token.to_owned(),
                            TextRange::new(value.range.start + from, value.range.start + at),
                        ));
                        start = None;
                    }
                    (false, None) => start = Some(at),
                    _ => {}
                }
            }
            found
        }
        _ => Vec::new(),
    }
}

/// Every `command` value under a `hooks` mapping.
fn hook_commands<'a>(node: &'a Node, out: &mut Vec<&'a Node>) {
    match &node.kind {
        NodeKind::Mapping(entries) => {
            for entry in entries {
                if entry.key.as_str() == Some("command") {
                    out.push(&entry.value);
                } else {
                    hook_commands(&entry.value, out);
                }
            }
        }
        NodeKind::Sequence(items) => {
            for item in items {
                hook_commands(item, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(frontmatter: &str) -> Vec<String> {
        let text = format!("---\nname: x\ndescription: y\n{frontmatter}---\nbody\n");
        let document = SkillDocument::parse(&text);
        let mut out = Vec::new();
        check(&text, &document, &mut out);
        out.iter()
            .map(|diagnostic| text[diagnostic.range.as_range()].to_owned())
            .collect()
    }

    #[test]
    fn unrestricted_tools() {
        assert_eq!(found("allowed-tools: Bash, Read\n"), ["Bash"]);
        assert_eq!(
            found("allowed-tools: Bash(git status:*) Read\n"),
            Vec::<String>::new()
        );
        assert_eq!(
            found("allowed-tools: Read Bash(curl:*)\n"),
            ["Bash(curl:*)"]
        );
        assert_eq!(
            found("allowed-tools:\n  - WebFetch\n  - Bash(*)\n"),
            ["WebFetch", "Bash(*)"]
        );
        assert_eq!(
            found("allowed-tools: \"Bash(python3:*), Grep\"\n"),
            ["Bash(python3:*)"]
        );
        assert_eq!(
            found("allowed-tools: WebFetch(domain:docs.rs)\n"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn hooks_that_run_commands() {
        let hooks = "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./scripts/guard.sh\n";
        assert_eq!(found(hooks), ["./scripts/guard.sh"]);
    }
}
