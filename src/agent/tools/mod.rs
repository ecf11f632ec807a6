//! The six tools of design.md §6, in order: `bash`, `read_file`, `write_file`, `edit_file`,
//! `glob`, `load_skill`. A failing tool is a result with `is_error`, never an error that ends the
//! loop.

pub(crate) mod bash;
pub mod files;
pub mod sandbox;

use std::path::Path;

use serde_json::{Value, json};

use super::approval::{ApprovalKind, ApprovalRequest};
use super::provider::ToolSpec;

/// What a tool call gave: the text the model reads, and whether it is an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolOutput {
    pub content: String,
    pub is_error: bool,
}

impl ToolOutput {
    #[must_use]
    pub fn ok(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            is_error: false,
        }
    }

    #[must_use]
    pub(crate) fn error(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            is_error: true,
        }
    }
}

/// The six tools, each named, specified, approved, summarised and run here and nowhere else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Tool {
    Bash,
    ReadFile,
    WriteFile,
    EditFile,
    Glob,
    LoadSkill,
}

impl Tool {
    /// Every tool, in the order of design.md §6 (the order the model is told them in).
    pub(crate) const ALL: [Tool; 6] = [
        Tool::Bash,
        Tool::ReadFile,
        Tool::WriteFile,
        Tool::EditFile,
        Tool::Glob,
        Tool::LoadSkill,
    ];

    /// The name the model calls the tool by.
    #[must_use]
    pub(crate) fn name(self) -> &'static str {
        match self {
            Tool::Bash => "bash",
            Tool::ReadFile => "read_file",
            Tool::WriteFile => "write_file",
            Tool::EditFile => "edit_file",
            Tool::Glob => "glob",
            Tool::LoadSkill => "load_skill",
        }
    }

    /// The tool the model called `name`, if there is one.
    #[must_use]
    pub(crate) fn parse(name: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|tool| tool.name() == name)
    }

    /// What the user must approve before a call runs; `None` for the tools that change nothing.
    #[must_use]
    pub(crate) fn approval(self) -> Option<ApprovalKind> {
        match self {
            Tool::Bash => Some(ApprovalKind::Bash),
            Tool::WriteFile | Tool::EditFile => Some(ApprovalKind::Write),
            Tool::ReadFile | Tool::Glob | Tool::LoadSkill => None,
        }
    }

    /// The tool as the model is told it; `load_skill`'s `name` is an enum of `skill_names` when
    /// there are any.
    #[must_use]
    pub(crate) fn spec(self, skill_names: &[&str]) -> ToolSpec {
        let (description, input_schema) = match self {
            Tool::Bash => (
                "Run a shell command in the workspace (needs the user's approval). Output is capped; long runs time out.",
                json!({"type": "object", "properties": {
                    "command": {"type": "string", "description": "The command line, run with bash -c."},
                    "timeout_ms": {"type": "integer", "description": "Time limit in milliseconds (default 120000)."}
                }, "required": ["command"]}),
            ),
            Tool::ReadFile => (
                "Read a text file of the workspace.",
                json!({"type": "object", "properties": {
                    "path": {"type": "string", "description": "Path relative to the workspace."},
                    "offset": {"type": "integer", "description": "First line to read, 1-based (default 1)."},
                    "limit": {"type": "integer", "description": "How many lines (default: all, up to the size cap)."}
                }, "required": ["path"]}),
            ),
            Tool::WriteFile => (
                "Create or overwrite a file of the workspace (needs the user's approval).",
                json!({"type": "object", "properties": {
                    "path": {"type": "string"},
                    "content": {"type": "string"}
                }, "required": ["path", "content"]}),
            ),
            Tool::EditFile => (
                "Replace exactly one occurrence of old_string with new_string in a file (needs the user's approval).",
                json!({"type": "object", "properties": {
                    "path": {"type": "string"},
                    "old_string": {"type": "string", "description": "Text that occurs exactly once in the file."},
                    "new_string": {"type": "string"}
                }, "required": ["path", "old_string", "new_string"]}),
            ),
            Tool::Glob => (
                "List workspace files matching a glob pattern such as **/*.md.",
                json!({"type": "object", "properties": {
                    "pattern": {"type": "string"}
                }, "required": ["pattern"]}),
            ),
            Tool::LoadSkill => {
                let mut name_schema = json!({"type": "string", "description": "The skill's name, as in the catalog."});
                if !skill_names.is_empty() {
                    name_schema["enum"] = json!(skill_names);
                }
                (
                    "Load a skill's full instructions (its SKILL.md) into the conversation.",
                    json!({"type": "object", "properties": {"name": name_schema}, "required": ["name"]}),
                )
            }
        };
        ToolSpec {
            name: self.name().to_owned(),
            description: description.to_owned(),
            input_schema,
        }
    }

    /// Runs one call in `workspace`. `load_skill` needs the agent's registry and conversation,
    /// so the agent passes that call in.
    pub(crate) async fn run(
        self,
        workspace: &Path,
        input: &Value,
        load_skill: impl FnOnce(&Value) -> ToolOutput,
    ) -> ToolOutput {
        match self {
            Tool::Bash => bash::run(workspace, input).await,
            Tool::ReadFile => files::read_file(workspace, input),
            Tool::WriteFile => files::write_file(workspace, input),
            Tool::EditFile => files::edit_file(workspace, input),
            Tool::Glob => files::glob(workspace, input),
            Tool::LoadSkill => load_skill(input),
        }
    }

    /// One line that says what a call does (see [`summary`]), before escaping.
    fn raw_summary(self, input: &Value) -> String {
        let field = |key| text_field(input, key);
        match self {
            Tool::Bash => format!("run '{}'", first_line(field("command"))),
            Tool::WriteFile => format!(
                "write {} ({} bytes)",
                field("path"),
                input
                    .get("content")
                    .and_then(Value::as_str)
                    .map_or(0, str::len)
            ),
            Tool::EditFile => format!("edit {}", field("path")),
            Tool::ReadFile => format!("read {}", field("path")),
            Tool::Glob => format!("glob {}", field("pattern")),
            Tool::LoadSkill => format!("load skill {}", field("name")),
        }
    }

    /// What is going on while a call runs, as an editor's progress line says it: a verb first,
    /// the argument as written (`Running ls -la`, `Reading skills/pdf/SKILL.md`), never the
    /// JSON input.
    fn raw_activity(self, input: &Value) -> String {
        let field = |key| text_field(input, key);
        match self {
            Tool::Bash => format!("Running {}", first_line(field("command"))),
            Tool::WriteFile => format!("Writing {}", field("path")),
            Tool::EditFile => format!("Editing {}", field("path")),
            Tool::ReadFile => format!("Reading {}", field("path")),
            Tool::Glob => format!("Listing files matching {}", field("pattern")),
            Tool::LoadSkill => format!("Loading the skill {}", field("name")),
        }
    }

    /// What the user is asked to approve. Unlike [`summary`], a command is shown whole (up to
    /// [`APPROVAL_TEXT_CAP`] characters, saying first when it is longer): a first line could
    /// hide what runs after it. Characters that could disguise the text are shown escaped
    /// (`\u{1b}`), line breaks and tabs of a command excepted.
    #[must_use]
    pub(crate) fn approval_summary(self, input: &Value) -> String {
        if self != Tool::Bash {
            return escaped(&self.raw_summary(input), &[]);
        }
        let command = text_field(input, "command");
        let shown: String = command.chars().take(APPROVAL_TEXT_CAP).collect();
        let total = command.chars().count();
        let shown = escaped(&shown, &['\n', '\t']);
        // Said first: an editor may cut a long message at its end.
        if total > APPROVAL_TEXT_CAP {
            format!(
                "run a command of {total} characters, of which only the first {APPROVAL_TEXT_CAP} are shown: '{shown}'"
            )
        } else {
            format!("run '{shown}'")
        }
    }

    /// The argument a reader looks for in a call (the command's first line, the path, the
    /// pattern or the skill's name), as written; `None` when the call lacks it.
    fn argument(self, input: &Value) -> Option<String> {
        let key = match self {
            Tool::Bash => "command",
            Tool::ReadFile | Tool::WriteFile | Tool::EditFile => "path",
            Tool::Glob => "pattern",
            Tool::LoadSkill => "name",
        };
        let value = input.get(key)?.as_str()?;
        Some(if self == Tool::Bash {
            first_line(value)
        } else {
            value.to_owned()
        })
    }

    /// The call in full, as the user approves it: the command as it will run, or the file and
    /// the text it gets (each text cut at [`APPROVAL_TEXT_CAP`] characters, saying so). Hidden
    /// characters are shown escaped, line breaks and tabs excepted.
    fn approval_detail(self, input: &Value) -> String {
        let field = |key| text_field(input, key);
        let cut = |key| {
            let text = input.get(key).and_then(Value::as_str).unwrap_or("");
            let total = text.chars().count();
            if total > APPROVAL_TEXT_CAP {
                let shown: String = text.chars().take(APPROVAL_TEXT_CAP).collect();
                format!(
                    "{shown}\n… ({} more characters; the tool call has the whole input)",
                    total - APPROVAL_TEXT_CAP
                )
            } else {
                text.to_owned()
            }
        };
        let detail = match self {
            Tool::Bash => cut("command"),
            Tool::WriteFile => {
                format!("{}\n--- new content ---\n{}", field("path"), cut("content"))
            }
            Tool::EditFile => format!(
                "{}\n--- replace ---\n{}\n--- with ---\n{}",
                field("path"),
                cut("old_string"),
                cut("new_string")
            ),
            Tool::ReadFile | Tool::Glob | Tool::LoadSkill => {
                serde_json::to_string_pretty(input).unwrap_or_default()
            }
        };
        escaped(&detail, &['\n', '\t'])
    }

    /// `bash, read_file, …, glob and load_skill`, for the model when it names another tool.
    #[must_use]
    pub(crate) fn listing() -> String {
        let names = Tool::ALL.map(Tool::name);
        let (last, rest) = names.split_last().unwrap_or((&"", &[]));
        format!("{} and {last}", rest.join(", "))
    }
}

/// The tool list sent to the model, in SPEC order; `load_skill`'s `name` is an enum of the
/// registered names when there are any.
#[must_use]
pub(crate) fn specs(skill_names: &[&str]) -> Vec<ToolSpec> {
    Tool::ALL
        .iter()
        .map(|tool| tool.spec(skill_names))
        .collect()
}

/// A required string argument, or the error the model gets.
pub(crate) fn string_arg<'a>(input: &'a Value, key: &str) -> Result<&'a str, ToolOutput> {
    input.get(key).and_then(Value::as_str).ok_or_else(|| {
        ToolOutput::error(format!(
            "missing or non-string argument `{key}`; the input was {input}"
        ))
    })
}

/// One line that says what a call does, for logs and the terminal (characters that could
/// disguise it shown escaped, see [`Tool::approval_summary`]); an unknown tool is its name.
#[must_use]
pub(crate) fn summary(name: &str, input: &Value) -> String {
    match Tool::parse(name) {
        Some(tool) => escaped(&tool.raw_summary(input), &[]),
        None => escaped(name, &[]),
    }
}

/// What a call is doing, for progress lines (see [`Tool::raw_activity`]); characters that
/// could disguise it are shown escaped, and an unknown tool is its name.
#[must_use]
pub(crate) fn activity(name: &str, input: &Value) -> String {
    match Tool::parse(name) {
        Some(tool) => escaped(&tool.raw_activity(input), &[]),
        None => format!("Calling {}", escaped(name, &[])),
    }
}

/// The question a call of a tool that changes things needs answered before it runs (`None`
/// for the others and for unknown tools); the agent skips it when the chat already allows the
/// kind.
#[must_use]
pub fn approval_for(name: &str, input: &Value) -> Option<ApprovalRequest> {
    let tool = Tool::parse(name)?;
    Some(ApprovalRequest {
        tool: name.to_owned(),
        kind: tool.approval()?,
        summary: tool.approval_summary(input),
        detail: tool.approval_detail(input),
    })
}

/// The argument a reader looks for in a call (see [`Tool::argument`]), characters that could
/// disguise it shown escaped; `None` for an unknown tool or a call without it.
#[must_use]
pub(crate) fn argument(name: &str, input: &Value) -> Option<String> {
    Tool::parse(name)?
        .argument(input)
        .map(|argument| escaped(&argument, &[]))
}

/// A string argument as a summary shows it: `?` when it is missing or not a string.
fn text_field<'a>(input: &'a Value, key: &str) -> &'a str {
    input.get(key).and_then(Value::as_str).unwrap_or("?")
}

/// The first line of `text`, cut at 120 characters; `…` says when anything was left out.
fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    if line.chars().count() > 120 || text.lines().count() > 1 {
        format!("{}…", line.chars().take(120).collect::<String>())
    } else {
        line.to_owned()
    }
}

/// Commands and file texts longer than this many characters are cut in what the user approves,
/// which then says how much is not shown.
pub(crate) const APPROVAL_TEXT_CAP: usize = 4000;

/// `text` as it may go to a terminal: model and tool output can carry escape sequences that
/// would hide or redraw what the user reads next (an approval question); line breaks and tabs
/// stay.
#[must_use]
pub(crate) fn terminal_safe(text: &str) -> String {
    escaped(text, &['\n', '\t'])
}

/// `text` with the characters of [`crate::text::hidden_meaning`] escaped, but for those in
/// `keep`.
fn escaped(text: &str, keep: &[char]) -> String {
    crate::text::escape_hidden(text, keep).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_output_shows_escape_sequences_instead_of_running_them() {
        let hostile = "done\u{1b}[8m hidden \u{1b}[0m\u{202e}txt.exe\nnext\tline";
        let safe = terminal_safe(hostile);
        assert!(
            !safe.contains('\u{1b}') && !safe.contains('\u{202e}'),
            "{safe}"
        );
        assert!(
            safe.contains("\\u{1b}[8m") && safe.contains("\\u{202e}"),
            "{safe}"
        );
        assert!(safe.contains("\nnext\tline"), "{safe}");
    }

    #[test]
    fn progress_lines_say_what_a_call_does_in_words() {
        let cases = [
            (
                "bash",
                json!({"command": "ls -la skills/pdf-tools"}),
                "Running ls -la skills/pdf-tools",
            ),
            (
                "bash",
                json!({"command": "make\nrm -rf /"}),
                "Running make…",
            ),
            (
                "read_file",
                json!({"path": "skills/pdf/SKILL.md"}),
                "Reading skills/pdf/SKILL.md",
            ),
            (
                "write_file",
                json!({"path": "a.txt", "content": "x"}),
                "Writing a.txt",
            ),
            ("edit_file", json!({"path": "a.txt"}), "Editing a.txt"),
            (
                "glob",
                json!({"pattern": "**/*.md"}),
                "Listing files matching **/*.md",
            ),
            (
                "load_skill",
                json!({"name": "pdf"}),
                "Loading the skill pdf",
            ),
            ("load_skill", json!({}), "Loading the skill ?"),
            ("fly", json!({"to": "moon"}), "Calling fly"),
            (
                "read_file",
                json!({"path": "a\u{1b}[2Jb"}),
                "Reading a\\u{1b}[2Jb",
            ),
        ];
        for (name, input, want) in cases {
            assert_eq!(activity(name, &input), want, "{name} {input}");
        }
    }

    #[test]
    fn an_approval_shows_the_call_whole_up_to_a_cap_with_hidden_characters_escaped() {
        let long = "x".repeat(APPROVAL_TEXT_CAP + 5);
        let request = approval_for(
            "write_file",
            &json!({"path": "a.txt", "content": format!("{long}\u{202e}")}),
        )
        .unwrap();
        assert_eq!(request.kind, ApprovalKind::Write);
        assert_eq!(
            request.detail,
            format!(
                "a.txt\n--- new content ---\n{}\n… (6 more characters; the tool call has the whole input)",
                &long[..APPROVAL_TEXT_CAP]
            )
        );
        let request = approval_for("bash", &json!({"command": "ls\u{1b}[2J\n\tpwd"})).unwrap();
        assert_eq!(request.detail, "ls\\u{1b}[2J\n\tpwd");
        assert!(approval_for("read_file", &json!({"path": "a"})).is_none());
        assert!(approval_for("fly", &json!({})).is_none());
        assert_eq!(
            argument("bash", &json!({"command": "make\nrm x"})).as_deref(),
            Some("make…")
        );
        assert_eq!(argument("glob", &json!({})), None);
    }

    #[test]
    fn tools_are_listed_for_the_model() {
        assert_eq!(
            Tool::listing(),
            "bash, read_file, write_file, edit_file, glob and load_skill"
        );
        for tool in Tool::ALL {
            assert_eq!(Tool::parse(tool.name()), Some(tool));
        }
    }

    #[test]
    fn tools_come_in_spec_order_with_the_skill_enum() {
        let names: Vec<String> = specs(&["pdf", "code-review"])
            .into_iter()
            .map(|spec| spec.name)
            .collect();
        assert_eq!(
            names,
            [
                "bash",
                "read_file",
                "write_file",
                "edit_file",
                "glob",
                "load_skill"
            ]
        );
        let load = specs(&["pdf"]).pop().unwrap();
        assert_eq!(
            load.input_schema["properties"]["name"]["enum"],
            json!(["pdf"])
        );
        assert!(
            specs(&[]).pop().unwrap().input_schema["properties"]["name"]
                .get("enum")
                .is_none()
        );
    }
}
