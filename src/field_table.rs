//! Every fact about a frontmatter field in one table (design.md §4, `docs/clients.md`):
//! its name, YAML shape, length limit, allowed or suggested values, the words hover and
//! completion show, and the clients that read it. The field rules, hover, completion, inlay
//! hints, rename and `Client::knows` all read [`FIELDS`]; a new field is one entry here.

use crate::targets::{ALL_CLIENTS, Client};

/// The YAML a field takes, as the `field-type` and `field-value` rules check it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A string.
    String,
    /// A string, one of the field's `values` (`field-value` otherwise).
    Enum,
    /// A string or a list of strings.
    StringOrList,
    /// `true` or `false`.
    Bool,
    /// A mapping of string keys to string values (`metadata`).
    Metadata,
    /// Event names to lists of `{matcher, hooks: [{type, command}]}` (`hooks`).
    Hooks,
}

/// One frontmatter field.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Field {
    pub name: &'static str,
    pub shape: Shape,
    /// The YAML type, in words, for hover and completion.
    pub kind: &'static str,
    pub summary: &'static str,
    /// A length limit in characters, checked by the field's length rule.
    pub max_chars: Option<usize>,
    /// Whether an inlay hint shows the value's length against `max_chars` (design.md §7: after
    /// `name` and `description`).
    pub length_hint: bool,
    /// The values completion offers; for [`Shape::Enum`] the only values allowed.
    pub values: &'static [&'static str],
    /// The clients that read the field, in [`ALL_CLIENTS`] order.
    pub readers: &'static [Client],
}

const BOOLS: &[&str] = &["true", "false"];

/// Licenses most skills use, as SPDX identifiers.
pub(crate) const COMMON_LICENSES: &[&str] = &[
    "Apache-2.0",
    "MIT",
    "BSD-3-Clause",
    "BSD-2-Clause",
    "ISC",
    "MPL-2.0",
    "GPL-3.0-only",
    "LGPL-3.0-only",
    "CC-BY-4.0",
    "Unlicense",
    "Proprietary. LICENSE.txt has complete terms",
];

/// Model values Claude Code accepts besides full model ids.
pub(crate) const MODEL_ALIASES: &[&str] = &[
    "inherit",
    "default",
    "best",
    "sonnet",
    "opus",
    "haiku",
    "sonnet[1m]",
    "opus[1m]",
    "opusplan",
];

/// The fields, in the order completion lists them.
pub(crate) const FIELDS: &[Field] = &[
    Field {
        name: "name",
        shape: Shape::String,
        kind: "string",
        summary: "The skill's identifier: lowercase letters, digits and single hyphens, equal to its folder's name.",
        max_chars: Some(NAME_MAX),
        length_hint: true,
        values: &[],
        readers: &ALL_CLIENTS,
    },
    Field {
        name: "description",
        shape: Shape::String,
        kind: "string",
        summary: "What the skill does and when to use it. Agents see only this (with the name) before deciding to load the skill.",
        max_chars: Some(DESCRIPTION_MAX),
        length_hint: true,
        values: &[],
        readers: &ALL_CLIENTS,
    },
    Field {
        name: "license",
        shape: Shape::String,
        kind: "string",
        summary: "The license: an SPDX identifier or the name of a bundled license file.",
        max_chars: None,
        length_hint: false,
        values: COMMON_LICENSES,
        readers: &[
            Client::AgentSkills,
            Client::ClaudeUpload,
            Client::ClaudeCode,
            Client::Copilot,
            Client::OpenCode,
        ],
    },
    Field {
        name: "compatibility",
        shape: Shape::String,
        kind: "string",
        summary: "Environment requirements: products, system packages, network access.",
        max_chars: Some(COMPATIBILITY_MAX),
        length_hint: false,
        values: &[],
        readers: &[
            Client::AgentSkills,
            Client::ClaudeUpload,
            Client::ClaudeCode,
            Client::OpenCode,
        ],
    },
    Field {
        name: "metadata",
        shape: Shape::Metadata,
        kind: "mapping of strings",
        summary: "Free-form string keys and string values for tools and clients (version, author, tags).",
        max_chars: None,
        length_hint: false,
        values: &[],
        readers: &[
            Client::AgentSkills,
            Client::ClaudeUpload,
            Client::ClaudeCode,
            Client::Codex,
            Client::OpenCode,
        ],
    },
    Field {
        name: "allowed-tools",
        shape: Shape::StringOrList,
        kind: "space-separated string",
        summary: "Tools pre-approved while the skill is active, e.g. `Bash(git:*) Read` (experimental).",
        max_chars: None,
        length_hint: false,
        values: &[],
        readers: &[
            Client::AgentSkills,
            Client::ClaudeUpload,
            Client::ClaudeCode,
        ],
    },
    Field {
        name: "when_to_use",
        shape: Shape::String,
        kind: "string",
        summary: "Extra trigger text that Claude Code appends to the description in its listing; counts toward the 1,536-character cap.",
        max_chars: None,
        length_hint: false,
        values: &[],
        readers: &[Client::ClaudeCode],
    },
    Field {
        name: "argument-hint",
        shape: Shape::String,
        kind: "string",
        summary: "The hint shown when the skill is invoked as a slash command, e.g. `\"[issue-number]\"` (quote it).",
        max_chars: None,
        length_hint: false,
        values: &[],
        readers: &[Client::ClaudeCode, Client::Copilot],
    },
    Field {
        name: "arguments",
        shape: Shape::StringOrList,
        kind: "string or list",
        summary: "Named positional arguments for `$name` substitution in the body.",
        max_chars: None,
        length_hint: false,
        values: &[],
        readers: &[Client::ClaudeCode],
    },
    Field {
        name: "disable-model-invocation",
        shape: Shape::Bool,
        kind: "boolean",
        summary: "`true`: only the user can invoke the skill; its description leaves the model's context.",
        max_chars: None,
        length_hint: false,
        values: BOOLS,
        readers: &[Client::ClaudeCode, Client::Copilot],
    },
    Field {
        name: "user-invocable",
        shape: Shape::Bool,
        kind: "boolean",
        summary: "`false`: hidden from the `/` menu; only the model invokes it.",
        max_chars: None,
        length_hint: false,
        values: BOOLS,
        readers: &[Client::ClaudeCode, Client::Copilot],
    },
    Field {
        name: "disallowed-tools",
        shape: Shape::StringOrList,
        kind: "string or list",
        summary: "Tools removed while the skill is active.",
        max_chars: None,
        length_hint: false,
        values: &[],
        readers: &[Client::ClaudeCode],
    },
    Field {
        name: "model",
        shape: Shape::String,
        kind: "string",
        summary: "The model to use while the skill runs: an alias such as `sonnet` or `inherit`, or a full model id.",
        max_chars: None,
        length_hint: false,
        values: MODEL_ALIASES,
        readers: &[Client::ClaudeCode],
    },
    Field {
        name: "effort",
        shape: Shape::Enum,
        kind: "enum",
        summary: "Reasoning effort while the skill runs.",
        max_chars: None,
        length_hint: false,
        values: &["low", "medium", "high", "xhigh", "max"],
        readers: &[Client::ClaudeCode],
    },
    Field {
        name: "context",
        shape: Shape::Enum,
        kind: "enum",
        summary: "`fork` runs the skill in a forked subagent.",
        max_chars: None,
        length_hint: false,
        values: &["fork"],
        readers: &[Client::ClaudeCode, Client::Copilot],
    },
    Field {
        name: "agent",
        shape: Shape::String,
        kind: "string",
        summary: "The subagent type for `context: fork`, e.g. `Explore` or `Plan`.",
        max_chars: None,
        length_hint: false,
        values: &["general-purpose", "Explore", "Plan"],
        readers: &[Client::ClaudeCode],
    },
    Field {
        name: "background",
        shape: Shape::Bool,
        kind: "boolean",
        summary: "With `context: fork`: run in the background (default true).",
        max_chars: None,
        length_hint: false,
        values: BOOLS,
        readers: &[Client::ClaudeCode],
    },
    Field {
        name: "hooks",
        shape: Shape::Hooks,
        kind: "mapping",
        summary: "Hooks registered while the skill is active: event → list of `{matcher, hooks: [{type, command}]}`.",
        max_chars: None,
        length_hint: false,
        values: &[],
        readers: &[Client::ClaudeCode],
    },
    Field {
        name: "paths",
        shape: Shape::StringOrList,
        kind: "string or list of globs",
        summary: "Load the skill automatically only when working with matching files.",
        max_chars: None,
        length_hint: false,
        values: &[],
        readers: &[Client::ClaudeCode],
    },
    Field {
        name: "shell",
        shape: Shape::Enum,
        kind: "enum",
        summary: "The shell for `!`-command injection.",
        max_chars: None,
        length_hint: false,
        values: &["bash", "powershell"],
        readers: &[Client::ClaudeCode],
    },
];

/// The longest `name`, in characters.
pub(crate) const NAME_MAX: usize = 64;
/// The longest `description`, in characters.
pub(crate) const DESCRIPTION_MAX: usize = 1024;
/// The longest `compatibility`, in characters.
pub(crate) const COMPATIBILITY_MAX: usize = 500;

/// The field called `name`, if any client knows it.
#[must_use]
pub(crate) fn lookup(name: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|field| field.name == name)
}

/// The clients that read a field.
#[must_use]
pub(crate) fn readers(name: &str) -> Vec<Client> {
    ALL_CLIENTS
        .iter()
        .copied()
        .filter(|target| target.knows(name))
        .collect()
}

/// Whether a key is one of the open standard's six fields (`agentskills`).
#[must_use]
pub(crate) fn is_standard_field(field: &str) -> bool {
    Client::AgentSkills.knows(field)
}

/// A valid skill name (design.md §4, `name-format` and `name-length`): lowercase ASCII letters,
/// digits and single inner hyphens, at most [`NAME_MAX`] characters.
#[must_use]
pub(crate) fn is_valid_skill_name(name: &str) -> bool {
    name.len() <= NAME_MAX && has_valid_name_characters(name)
}

/// Lowercase ASCII letters, digits and single inner hyphens; the length is `name-length`'s.
#[must_use]
pub(crate) fn has_valid_name_characters(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
        && name
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
}

impl Field {
    /// The hover and completion text of the field.
    #[must_use]
    pub(crate) fn markdown(&self) -> String {
        let readers: Vec<&str> = self.readers.iter().map(|target| target.display()).collect();
        let limit = self.max_chars.map_or(String::new(), |limit| {
            format!(" · at most {limit} characters")
        });
        format!(
            "**{}** — {}{limit}\n\n{}\n\nRead by: {}",
            self.name,
            self.kind,
            self.summary,
            readers.join(", ")
        )
    }

    /// The limit an inlay hint shows, if the field has one.
    #[must_use]
    pub(crate) fn hinted_limit(&self) -> Option<usize> {
        self.max_chars.filter(|_| self.length_hint)
    }
}

// The table's answers to "which fields does this client read", next to the table. (`targets`
// knows the clients; this module knows the fields and who reads them.)
impl Client {
    /// The top-level frontmatter keys this client knows, in table order.
    pub(crate) fn fields(self) -> impl Iterator<Item = &'static str> {
        FIELDS
            .iter()
            .filter(move |field| field.readers.contains(&self))
            .map(|field| field.name)
    }

    #[must_use]
    pub(crate) fn knows(self, field: &str) -> bool {
        lookup(field).is_some_and(|it| it.readers.contains(&self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readers_are_in_target_order() {
        for field in FIELDS {
            assert_eq!(readers(field.name), field.readers, "{}", field.name);
        }
        assert_eq!(readers("when_to_use"), vec![Client::ClaudeCode]);
    }

    #[test]
    fn limits_agree_with_the_constants() {
        let max = |name| lookup(name).and_then(|field| field.max_chars);
        assert_eq!(max("name"), Some(NAME_MAX));
        assert_eq!(max("description"), Some(DESCRIPTION_MAX));
        assert_eq!(max("compatibility"), Some(COMPATIBILITY_MAX));
    }

    #[test]
    fn fields_the_targets_know() {
        let names = |target: Client| target.fields().collect::<Vec<_>>();
        let spec = [
            "name",
            "description",
            "license",
            "compatibility",
            "metadata",
            "allowed-tools",
        ];
        assert_eq!(names(Client::AgentSkills), spec);
        assert_eq!(names(Client::ClaudeUpload), spec);
        assert_eq!(names(Client::ClaudeCode).len(), FIELDS.len());
        assert_eq!(names(Client::Codex), ["name", "description", "metadata"]);
        assert_eq!(
            names(Client::Copilot),
            [
                "name",
                "description",
                "license",
                "argument-hint",
                "disable-model-invocation",
                "user-invocable",
                "context"
            ]
        );
        assert_eq!(
            names(Client::OpenCode),
            [
                "name",
                "description",
                "license",
                "compatibility",
                "metadata"
            ]
        );
        assert_eq!(names(Client::Gemini), ["name", "description"]);
    }

    #[test]
    fn skill_names() {
        assert!(is_valid_skill_name("pdf-tools"));
        assert!(!is_valid_skill_name("-pdf"));
        assert!(!is_valid_skill_name("pdf--tools"));
        assert!(!is_valid_skill_name("PDF"));
        assert!(!is_valid_skill_name(&"a".repeat(65)));
    }
}
