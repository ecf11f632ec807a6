//! `skill-lsp.toml` (or `.skill-lsp.toml`): lookup by walking up, and its model (design.md §2).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::diagnostic::Severity;
use crate::rules::{Rule, RuleSettings};
use crate::targets::Client;
use crate::text::{ColumnUnit, LineIndex};

pub(crate) const FILE_NAMES: [&str; 2] = ["skill-lsp.toml", ".skill-lsp.toml"];

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    targets: Option<Vec<String>>,
    roots: Option<Vec<PathBuf>>,
    /// Replaces the default exclusions.
    exclude: Option<Vec<String>>,
    /// Adds to them.
    #[serde(rename = "extend-exclude")]
    extend_exclude: Option<Vec<String>>,
    #[serde(default)]
    rules: BTreeMap<String, String>,
    #[serde(default)]
    agent: AgentConfig,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct AgentConfig {
    pub model: Option<String>,
    pub max_turns: Option<u32>,
    pub max_tokens: Option<u32>,
    /// Load skills with security errors without asking.
    pub allow_unsafe_skills: Option<bool>,
    /// What the model costs, for `eval --dry-run`'s estimate.
    pub price: Option<Price>,
}

/// `[agent.price]`: the model's price per million input and output tokens, in `currency`
/// (default `USD`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Price {
    #[serde(deserialize_with = "price_per_million")]
    pub input: f64,
    #[serde(deserialize_with = "price_per_million")]
    pub output: f64,
    #[serde(default = "default_currency")]
    pub currency: String,
}

/// A price, checked where it is read, so every front end reports it with its line and column.
fn price_per_million<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    let value = f64::deserialize(deserializer)?;
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(serde::de::Error::custom(format!(
            "a price must be a number of at least 0 per million tokens, got {value}"
        )))
    }
}

fn default_currency() -> String {
    "USD".to_owned()
}

/// The settings in force for a path.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Config {
    /// The file these settings came from; `None` for the defaults.
    pub path: Option<PathBuf>,
    /// Targets fixed by the config; `None` selects by folder (design.md §4).
    pub targets: Option<Vec<Client>>,
    /// Extra skills roots, relative to the config file's folder.
    pub roots: Vec<PathBuf>,
    /// What a walk leaves out (`exclude`, `extend-exclude`, `--exclude`).
    pub exclude: crate::exclude::Excludes,
    pub rules: RuleSettings,
    pub agent: AgentConfig,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}:{column}: {message}")]
    Invalid {
        path: PathBuf,
        line: u32,
        column: u32,
        message: String,
    },
}

/// The nearest config file at or above `start` (a file's folder, or the folder itself).
#[must_use]
pub(crate) fn find(start: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(start).ok()?;
    let mut dir = if absolute.is_dir() {
        Some(absolute.as_path())
    } else {
        absolute.parent()
    };
    while let Some(current) = dir {
        for name in FILE_NAMES {
            let candidate = current.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
        dir = current.parent();
    }
    None
}

impl Config {
    /// Loads the config file at `path`.
    ///
    /// # Errors
    /// A file that cannot be read, is not TOML, or names an unknown target, rule or severity;
    /// the error gives the file, line and column.
    pub(crate) fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = crate::workspace::read::read_text(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Parses config text; `path` names it in errors and anchors relative `roots`.
    ///
    /// # Errors
    /// See [`Config::load`].
    pub(crate) fn parse(text: &str, path: &Path) -> Result<Self, ConfigError> {
        let index = LineIndex::new(text);
        let invalid = |offset: usize, message: String| {
            let position = index.line_col(text, offset, ColumnUnit::Char);
            ConfigError::Invalid {
                path: path.to_path_buf(),
                line: position.line + 1,
                column: position.col + 1,
                message,
            }
        };
        let raw: RawConfig = toml::from_str(text).map_err(|error| {
            let offset = error.span().map_or(0, |span| span.start);
            invalid(offset, error.message().trim().to_owned())
        })?;
        let locate = |needle: &str| text.find(needle).unwrap_or(0);
        let targets = raw
            .targets
            .map(|ids| {
                ids.iter()
                    .map(|id| {
                        Client::parse(id).ok_or_else(|| {
                            invalid(
                                locate(&format!("\"{id}\"")),
                                format!(
                                    "unknown target '{id}'; expected one of: {}",
                                    crate::targets::ALL_CLIENTS.map(Client::id).join(", ")
                                ),
                            )
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        let mut rules = RuleSettings::default();
        for (id, level) in &raw.rules {
            let rule = Rule::parse(id).ok_or_else(|| {
                invalid(
                    locate(id),
                    format!("unknown rule '{id}'; `skill-lsp rules` lists them"),
                )
            })?;
            let severity = match level.as_str() {
                "off" => None,
                other => Some(Severity::parse(other).ok_or_else(|| {
                    invalid(locate(&format!("\"{level}\"")), format!("unknown severity '{other}' for {id}; expected off, hint, info, warning or error"))
                })?),
            };
            rules.overrides.insert(rule, severity);
        }
        let base = path.parent().unwrap_or(Path::new("."));
        let roots = raw
            .roots
            .unwrap_or_default()
            .into_iter()
            .map(|root| {
                if root.is_absolute() {
                    root
                } else {
                    base.join(root)
                }
            })
            .collect();
        let exclude = match &raw.exclude {
            Some(patterns) => crate::exclude::Excludes::new(base, patterns),
            None => Ok(crate::exclude::Excludes::default()),
        }
        .and_then(|excludes| {
            excludes.extended(base, raw.extend_exclude.as_deref().unwrap_or_default())
        })
        .map_err(|message| {
            let key = if raw.exclude.is_some() {
                "exclude"
            } else {
                "extend-exclude"
            };
            invalid(locate(key), message)
        })?;
        Ok(Config {
            path: Some(path.to_path_buf()),
            targets,
            roots,
            exclude,
            rules,
            agent: raw.agent,
        })
    }

    /// The config for `start`: the nearest file above it, or the defaults.
    ///
    /// # Errors
    /// See [`Config::load`].
    pub(crate) fn discover(start: &Path) -> Result<Self, ConfigError> {
        match find(start) {
            Some(path) => Self::load(&path),
            None => Ok(Config::default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_spec_example() {
        let text = "targets = [\"agentskills\", \"claude-code\"]\nroots = [\"skills\", \"vendor/skills\"]\n[rules]\ndescription-trigger = \"off\"\nunknown-field = \"error\"\n[agent]\nmodel = \"claude-sonnet-4-5\"\nmax-turns = 30\n";
        let config = Config::parse(text, Path::new("/w/skill-lsp.toml")).unwrap();
        assert_eq!(
            config.targets,
            Some(vec![Client::AgentSkills, Client::ClaudeCode])
        );
        assert_eq!(
            config.roots,
            vec![
                PathBuf::from("/w/skills"),
                PathBuf::from("/w/vendor/skills")
            ]
        );
        assert!(config.rules.is_off(Rule::DescriptionTrigger));
        assert_eq!(
            config.rules.overrides[&Rule::UnknownField],
            Some(Severity::Error)
        );
        assert_eq!(config.agent.max_turns, Some(30));
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let error = Config::parse(
            "targets = [\"agentskills\", \"cursor\"]\n",
            Path::new("c.toml"),
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "c.toml:1:27: unknown target 'cursor'; expected one of: agentskills, claude-upload, claude-code, codex, copilot, opencode, gemini"
        );
        let error =
            Config::parse("\n[rules]\nno-such-rule = \"off\"\n", Path::new("c.toml")).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("c.toml:3:1: unknown rule 'no-such-rule'"),
            "{error}"
        );
        let error = Config::parse("colour = 1\n", Path::new("c.toml")).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("c.toml:1:1: unknown field `colour`"),
            "{error}"
        );
        let error = Config::parse("[rules]\nbom = \"loud\"\n", Path::new("c.toml")).unwrap_err();
        assert!(
            error.to_string().contains("unknown severity 'loud'"),
            "{error}"
        );
        let error = Config::parse(
            "[agent.price]\ninput = -1\noutput = 15\n",
            Path::new("c.toml"),
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "c.toml:2:9: a price must be a number of at least 0 per million tokens, got -1"
        );
        let price = Config::parse(
            "[agent.price]\ninput = 3\noutput = 1.5\n",
            Path::new("c.toml"),
        )
        .unwrap()
        .agent
        .price
        .unwrap();
        assert_eq!(
            (price.input, price.output, price.currency.as_str()),
            (3.0, 1.5, "USD")
        );
    }
}
