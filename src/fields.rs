//! What each frontmatter field means, for hover and completion (FIELDS.md, SPEC section 4).

use crate::targets::{ALL_TARGETS, Target};

#[derive(Clone, Copy, Debug)]
pub struct FieldDoc {
    pub name: &'static str,
    /// The YAML type, in words.
    pub kind: &'static str,
    pub summary: &'static str,
    /// A length limit in characters.
    pub limit: Option<usize>,
    /// The values completion offers.
    pub values: &'static [&'static str],
}

const BOOLS: &[&str] = &["true", "false"];

/// Licenses most skills use, as SPDX identifiers.
pub const COMMON_LICENSES: &[&str] = &[
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
pub const MODEL_ALIASES: &[&str] = &[
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

pub const FIELDS: &[FieldDoc] = &[
    FieldDoc {
        name: "name",
        kind: "string",
        summary: "The skill's identifier: lowercase letters, digits and single hyphens, equal to its folder's name.",
        limit: Some(64),
        values: &[],
    },
    FieldDoc {
        name: "description",
        kind: "string",
        summary: "What the skill does and when to use it. Agents see only this (with the name) before deciding to load the skill.",
        limit: Some(1024),
        values: &[],
    },
    FieldDoc {
        name: "license",
        kind: "string",
        summary: "The license: an SPDX identifier or the name of a bundled license file.",
        limit: None,
        values: COMMON_LICENSES,
    },
    FieldDoc {
        name: "compatibility",
        kind: "string",
        summary: "Environment requirements: products, system packages, network access.",
        limit: Some(500),
        values: &[],
    },
    FieldDoc {
        name: "metadata",
        kind: "mapping of strings",
        summary: "Free-form string keys and string values for tools and clients (version, author, tags).",
        limit: None,
        values: &[],
    },
    FieldDoc {
        name: "allowed-tools",
        kind: "space-separated string",
        summary: "Tools pre-approved while the skill is active, e.g. `Bash(git:*) Read` (experimental).",
        limit: None,
        values: &[],
    },
    FieldDoc {
        name: "when_to_use",
        kind: "string",
        summary: "Extra trigger text that Claude Code appends to the description in its listing; counts toward the 1,536-character cap.",
        limit: None,
        values: &[],
    },
    FieldDoc {
        name: "argument-hint",
        kind: "string",
        summary: "The hint shown when the skill is invoked as a slash command, e.g. `\"[issue-number]\"` (quote it).",
        limit: None,
        values: &[],
    },
    FieldDoc {
        name: "arguments",
        kind: "string or list",
        summary: "Named positional arguments for `$name` substitution in the body.",
        limit: None,
        values: &[],
    },
    FieldDoc {
        name: "disable-model-invocation",
        kind: "boolean",
        summary: "`true`: only the user can invoke the skill; its description leaves the model's context.",
        limit: None,
        values: BOOLS,
    },
    FieldDoc {
        name: "user-invocable",
        kind: "boolean",
        summary: "`false`: hidden from the `/` menu; only the model invokes it.",
        limit: None,
        values: BOOLS,
    },
    FieldDoc {
        name: "disallowed-tools",
        kind: "string or list",
        summary: "Tools removed while the skill is active.",
        limit: None,
        values: &[],
    },
    FieldDoc {
        name: "model",
        kind: "string",
        summary: "The model to use while the skill runs: an alias such as `sonnet` or `inherit`, or a full model id.",
        limit: None,
        values: MODEL_ALIASES,
    },
    FieldDoc {
        name: "effort",
        kind: "enum",
        summary: "Reasoning effort while the skill runs.",
        limit: None,
        values: &["low", "medium", "high", "xhigh", "max"],
    },
    FieldDoc {
        name: "context",
        kind: "enum",
        summary: "`fork` runs the skill in a forked subagent.",
        limit: None,
        values: &["fork"],
    },
    FieldDoc {
        name: "agent",
        kind: "string",
        summary: "The subagent type for `context: fork`, e.g. `Explore` or `Plan`.",
        limit: None,
        values: &["general-purpose", "Explore", "Plan"],
    },
    FieldDoc {
        name: "background",
        kind: "boolean",
        summary: "With `context: fork`: run in the background (default true).",
        limit: None,
        values: BOOLS,
    },
    FieldDoc {
        name: "hooks",
        kind: "mapping",
        summary: "Hooks registered while the skill is active: event → list of `{matcher, hooks: [{type, command}]}`.",
        limit: None,
        values: &[],
    },
    FieldDoc {
        name: "paths",
        kind: "string or list of globs",
        summary: "Load the skill automatically only when working with matching files.",
        limit: None,
        values: &[],
    },
    FieldDoc {
        name: "shell",
        kind: "enum",
        summary: "The shell for `!`-command injection.",
        limit: None,
        values: &["bash", "powershell"],
    },
];

#[must_use]
pub fn doc(name: &str) -> Option<&'static FieldDoc> {
    FIELDS.iter().find(|field| field.name == name)
}

/// The clients that read a field.
#[must_use]
pub fn readers(name: &str) -> Vec<Target> {
    ALL_TARGETS
        .iter()
        .copied()
        .filter(|target| target.knows(name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_field_is_documented() {
        for target in ALL_TARGETS {
            for field in target.fields() {
                assert!(doc(field).is_some(), "{field} has no doc");
            }
        }
        assert_eq!(readers("when_to_use"), vec![Target::ClaudeCode]);
    }
}
