//! What a SKILL.md's frontmatter grants without asking: `allowed-tools` entries that
//! pre-approve any shell command or any web request, and `hooks` that run commands.
//!
//! A broad grant is common in real skills, and what it risks depends on the rest of the skill,
//! so it is judged with the whole folder (`Engine::scan_skill_files`). It is a warning when it
//! runs as root; when a shell grant comes with a tool that reads any web page (what the page says
//! can reach an agent that runs commands unasked); when the skill's files also read secrets,
//! install themselves, write outside the project or reach a suspicious address (the grant lets
//! that run unasked); or when it opens the network to a skill whose description never leaves the
//! machine.
//! Otherwise it is information: the risk left is a command that other text talks the agent
//! into. A hook always runs by itself, so it is always a warning.

use crate::diagnostic::{Diagnostic, Related, Severity};
use crate::document::{Node, NodeKind, SkillDocument};
use crate::rule_table::Rule;
use crate::text::TextRange;

use super::Evidence;
use super::patterns::Capability;

/// The findings of the frontmatter's `allowed-tools` and `hooks`; `evidence` is what the
/// skill's files were found to do, `folder` the skill's folder as the evidence names it.
pub(crate) fn check(
    text: &str,
    document: &SkillDocument,
    evidence: &[Evidence],
    folder: &std::path::Path,
    out: &mut Vec<Diagnostic>,
) {
    if let Some(entry) = document.field("allowed-tools") {
        let description = document
            .field("description")
            .and_then(|entry| entry.value.as_str())
            .unwrap_or_default();
        let tools = tools(text, &entry.value);
        // A tool that brings in text from anywhere on the web: what it reads can tell an agent
        // with a pre-approved shell what to run.
        let reader = tools.iter().find_map(|(tool, _)| {
            let name = tool.split('(').next().unwrap_or("").trim();
            (name == "WebSearch" || (name == "WebFetch" && grant(tool).is_some())).then_some(name)
        });
        let risky: Vec<&Evidence> = evidence.iter().filter(|found| is_risky(found)).collect();
        for (tool, range) in &tools {
            let Some(grant) = grant(tool) else {
                continue;
            };
            let (severity, because) = match (grant.kind, reader, risky.first()) {
                (Kind::Root, _, _) => (Severity::Warning, String::new()),
                (Kind::Shell, Some(reader), _) => (
                    Severity::Warning,
                    format!(
                        ", and '{reader}' lets any web page's text reach an agent that may run what it says"
                    ),
                ),
                (_, _, Some(first)) => (
                    Severity::Warning,
                    format!(
                        ", and the skill {} ({} line {})",
                        first.capability.describe(),
                        first
                            .path
                            .strip_prefix(folder)
                            .unwrap_or(&first.path)
                            .display(),
                        first.line(),
                    ),
                ),
                // Most skills that run commands do not say so, but a grant of the network is
                // news to a user whose skill's description never leaves the machine.
                _ if grant.kind == Kind::Network && !super::declares_online_work(description) => (
                    Severity::Warning,
                    format!(
                        ", which the description never says the skill {}",
                        Capability::Network.describe()
                    ),
                ),
                _ => (Severity::Info, String::new()),
            };
            let consequence = if severity == Severity::Info {
                "while the skill is active the agent runs such commands without asking the user; the skill's own files stay inside the project, so the risk is a command that other text (a web page, a file) talks the agent into"
            } else {
                "while the skill is active the agent runs such commands without asking the user"
            };
            let mut diagnostic = Diagnostic::new(
                Rule::Permissions,
                *range,
                format!(
                    "'allowed-tools' pre-approves '{tool}', {}{because} — {consequence}; name the commands the skill needs, such as 'Bash(git status:*)'",
                    grant.why
                ),
            );
            diagnostic.severity = severity;
            if severity == Severity::Warning {
                let mut seen = Vec::new();
                for found in &risky {
                    if !seen.contains(&found.capability) {
                        seen.push(found.capability);
                        diagnostic.related.push(Related {
                            path: found.path.clone(),
                            span: found.span,
                            message: format!("this {} without asking", found.capability.describe()),
                        });
                    }
                }
            }
            out.push(diagnostic);
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

/// What a pre-approved tool would let run unasked that a user would want to be asked about:
/// persistence that runs something new, and notable secrets, writes outside the project or network
/// destinations.
fn is_risky(evidence: &Evidence) -> bool {
    match evidence.capability {
        // An API key read from the environment is how most clients are configured; a key
        // file or a cloud login is worth asking about; a variable kept in `~/.bashrc` runs
        // nothing.
        Capability::Persistence
        | Capability::Secrets
        | Capability::WritesOutside
        | Capability::Network => evidence.notable,
        Capability::Shell | Capability::ReadsOutside => false,
    }
}

/// What an unrestricted grant allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Any command, or a command that runs any other.
    Shell,
    /// Anything, as root.
    Root,
    /// A request to any address.
    Network,
}

/// An entry of `allowed-tools` that grants too much: what it allows and why that is too much.
struct Grant {
    kind: Kind,
    why: &'static str,
}

fn grant(tool: &str) -> Option<Grant> {
    let compact: String = tool.chars().filter(|ch| !ch.is_whitespace()).collect();
    let (name, inner) = match compact.split_once('(') {
        Some((name, rest)) => (name, Some(rest.trim_end_matches(')'))),
        None => (compact.as_str(), None),
    };
    let shell = matches!(
        name,
        "Bash" | "PowerShell" | "run_shell_command" | "shell" | "Shell"
    );
    let found = |kind, why| Some(Grant { kind, why });
    if shell {
        let Some(inner) = inner else {
            return found(Kind::Shell, "every shell command");
        };
        let command = inner.split(':').next().unwrap_or("").trim_end_matches('*');
        return match command {
            "" => found(Kind::Shell, "every shell command"),
            "sudo" | "doas" | "su" => found(
                Kind::Root,
                "a command that runs anything with root privileges",
            ),
            "sh" | "bash" | "zsh" | "eval" | "exec" | "env" | "xargs" | "python" | "python3"
            | "node" | "perl" | "ruby" | "pwsh" | "powershell" => {
                found(Kind::Shell, "a command that runs any other command")
            }
            "curl" | "wget" | "nc" | "ncat" | "ssh" | "scp" => found(
                Kind::Network,
                "a command that reaches any address on the network",
            ),
            _ => None,
        };
    }
    if name == "WebFetch" {
        return match inner {
            None | Some("" | "*" | "domain:*") => found(Kind::Network, "fetching any web address"),
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

/// What `skill-lsp rules` says of the rules checked here.
pub(crate) fn rule_doc(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    use crate::rule_table::{Rule, RuleDoc};
    Some(match rule {
        Rule::Permissions => RuleDoc::new(
            "The frontmatter grants more than the task needs: `allowed-tools` that pre-approves any shell command (`Bash`, `Bash(*)`, `Bash(sh:*)`, interpreters), any network command (`Bash(curl:*)`) or any web address (`WebFetch`), and `hooks` that run commands.",
            "Pre-approved tools run without asking the user while the skill is active; a frontmatter hook runs its command on its event with no prompt at all. A broad grant is common in real skills and its risk depends on the rest of the skill, so it is judged with the whole folder: a warning when it runs as root, when a shell grant sits beside `WebFetch` or `WebSearch` (any page's text can reach an agent that runs commands unasked), when the skill's files also read a key file or cloud login, install themselves, write outside the project or reach a suspicious address (named as related information), or when it opens the network to a skill whose description never leaves the machine; information otherwise. A hook is always a warning.",
            "`allowed-tools: Bash, Read` on a skill whose script reads `~/.aws/credentials`.",
            "Name the commands the skill needs: `Bash(git status:*)`, `WebFetch(domain:docs.example.com)`.",
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of a SKILL.md with `frontmatter` after its name, and its findings beside a folder
    /// whose files showed `evidence`.
    fn checked(frontmatter: &str, evidence: &[Evidence]) -> (String, Vec<Diagnostic>) {
        let text = format!("---\nname: x\n{frontmatter}---\nbody\n");
        let document = SkillDocument::parse(&text);
        let mut out = Vec::new();
        check(
            &text,
            &document,
            evidence,
            std::path::Path::new("skill"),
            &mut out,
        );
        (text, out)
    }

    fn found(frontmatter: &str) -> Vec<String> {
        let (text, out) = checked(&format!("description: y\n{frontmatter}"), &[]);
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

    fn evidence(capability: Capability, notable: bool) -> Evidence {
        Evidence {
            capability,
            path: std::path::PathBuf::from("skill/scripts/run.sh"),
            span: crate::text::Span::default(),
            snippet: String::new(),
            notable,
            in_script: true,
        }
    }

    fn graded(evidence: &[Evidence]) -> Vec<(Severity, String, usize)> {
        graded_with(
            "description: Runs shell commands.\nallowed-tools: Bash Read\n",
            evidence,
        )
    }

    fn graded_with(frontmatter: &str, evidence: &[Evidence]) -> Vec<(Severity, String, usize)> {
        checked(frontmatter, evidence)
            .1
            .into_iter()
            .map(|found| (found.severity, found.message, found.related.len()))
            .collect()
    }

    #[test]
    fn a_broad_grant_is_graded_by_what_the_files_do() {
        let quiet = graded(&[
            evidence(Capability::Shell, false),
            evidence(Capability::Network, false),
            evidence(Capability::ReadsOutside, true),
            evidence(Capability::Secrets, false),
            // A variable kept in a start-up file: persistence graded as information.
            evidence(Capability::Persistence, false),
        ]);
        assert_eq!(quiet.len(), 1);
        assert_eq!(quiet[0].0, Severity::Info);
        assert!(
            quiet[0].1.contains("stay inside the project"),
            "{}",
            quiet[0].1
        );
        for risky in [
            evidence(Capability::Secrets, true),
            evidence(Capability::Persistence, true),
            evidence(Capability::WritesOutside, true),
            evidence(Capability::Network, true),
        ] {
            let capability = risky.capability;
            let found = graded(&[evidence(Capability::Shell, false), risky]);
            assert_eq!(found[0].0, Severity::Warning, "{capability:?}");
            assert!(
                found[0].1.contains(&format!(
                    "the skill {} (scripts/run.sh line 1)",
                    capability.describe()
                )),
                "{}",
                found[0].1
            );
            assert_eq!(found[0].2, 1, "the evidence as related information");
        }
        assert_eq!(
            graded(&[evidence(Capability::WritesOutside, false)])[0].0,
            Severity::Info
        );
    }

    #[test]
    fn root_a_web_reader_beside_a_shell_and_an_undeclared_grant_are_warnings() {
        let root = graded_with(
            "description: Runs maintenance commands.\nallowed-tools: Bash(sudo:*)\n",
            &[],
        );
        assert_eq!(root[0].0, Severity::Warning, "{}", root[0].1);
        let reader = graded_with(
            "description: Runs research commands.\nallowed-tools: [Bash, WebSearch]\n",
            &[],
        );
        assert_eq!(reader[0].0, Severity::Warning);
        assert!(
            reader[0]
                .1
                .contains("'WebSearch' lets any web page's text reach"),
            "{}",
            reader[0].1
        );
        let undeclared = graded_with(
            "description: Summarises the local Markdown docs.\nallowed-tools: WebFetch Read\n",
            &[],
        );
        assert_eq!(undeclared[0].0, Severity::Warning);
        assert!(
            undeclared[0]
                .1
                .contains("the description never says the skill talks to the network"),
            "{}",
            undeclared[0].1
        );
        let declared = graded_with(
            "description: Looks pages up on the internet.\nallowed-tools: WebFetch Read\n",
            &[],
        );
        assert_eq!(declared[0].0, Severity::Info);
        // Work on a service online says as much as "network" does, for a grant.
        let online = graded_with(
            "description: Deploys the app to Railway and checks its status.\nallowed-tools: Bash(curl:*)\n",
            &[],
        );
        assert_eq!(online[0].0, Severity::Info, "{}", online[0].1);
        // "Downloads" does not cover a grant of any address.
        let downloads = graded_with(
            "description: Downloads the fonts the project is missing.\nallowed-tools: Bash(wget:*)\n",
            &[],
        );
        assert_eq!(downloads[0].0, Severity::Warning, "{}", downloads[0].1);
    }

    #[test]
    fn a_hook_is_a_warning_whatever_the_files_do() {
        let hooks = "description: y\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: echo done\n";
        let found = graded_with(hooks, &[]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, Severity::Warning);
    }
}
