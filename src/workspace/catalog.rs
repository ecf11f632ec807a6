//! The catalog as clients list it: the plain text of the system prompt, the `<available_skills>`
//! XML, and each client's listing budget (design.md §4, `catalog-budget`).

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use crate::clients::js::utf16_len;
use crate::clients::{Fate, Hidden};
use crate::clients::{claude_code, codex, copilot, gemini, opencode};
use crate::targets::Client;

use super::Registry;
use super::loader::client_reads;
use super::registry::Refusal;

/// The listing budget of a client that has one: Claude Code's in columns, Codex's in tokens,
/// Copilot's in UTF-16 units.
#[must_use]
pub(crate) fn listing_budget(target: Client, context_window: Option<u64>) -> Option<usize> {
    match target {
        Client::ClaudeCode => Some(claude_code::budget(context_window)),
        Client::Codex => Some(codex::budget(context_window)),
        Client::Copilot => Some(copilot::BUDGET),
        _ => None,
    }
}

/// One skill's line as a client lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Listed {
    /// The name as the client lists it.
    pub name: String,
    /// The description as the client shows it (possibly cut; empty when listed by name only).
    pub description: String,
    /// Characters of the full text (with `when_to_use` for Claude Code), as the client counts.
    pub full_chars: usize,
    /// The description was cut to fit (empty when dropped).
    pub truncated: bool,
    pub fate: Fate,
    /// The SKILL.md listed.
    pub path: PathBuf,
    /// The plugin of the registry (`Registry::plugins`) it comes with, once installed.
    pub plugin: Option<usize>,
}

/// A skill the client loaded (or found) and keeps out of the model's listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Omitted {
    pub path: PathBuf,
    /// A stable id: `model-invocation-disabled`, `path-scoped`, `shadowed`, `not-loaded`,
    /// `over-budget`.
    pub reason: &'static str,
    /// The same in words.
    pub why: String,
    /// The name the client would list it under, for a skill it loads and hides from the model.
    pub name: Option<String>,
    /// The plugin of the registry (`Registry::plugins`) it comes with, once installed.
    pub plugin: Option<usize>,
}

/// What a client lists from a registry, and what it leaves out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ClientListing {
    pub listed: Vec<Listed>,
    pub omitted: Vec<Omitted>,
    /// Characters of the client's own skills listed beside these, counted against its budget.
    pub own_chars: usize,
    /// What the whole listing would take with every text whole, in the unit of the client's
    /// budget, when the model computes it (Codex: tokens).
    pub needed: Option<usize>,
}

/// A skill as Claude Code's listing sees it: registered, linked from outside its root, or a
/// plugin's (its folder and frontmatter name then namespaced, `plugin:name`, as Claude Code
/// lists them).
struct ClaudeSkill<'a> {
    path: &'a Path,
    root: &'a Path,
    folder: Cow<'a, str>,
    reading: Cow<'a, claude_code::Reading>,
    plugin: Option<usize>,
}

/// A client's listing of a registry, as the client's own model computes it (`clients`: Claude
/// Code, Codex, Copilot, OpenCode, Gemini CLI); the validators (`agentskills`,
/// `claude-upload`), which list nothing, get design.md §5's reading.
#[must_use]
pub(crate) fn client_listing(
    registry: &Registry,
    target: Client,
    context_window: Option<u64>,
) -> ClientListing {
    match target {
        Client::ClaudeCode => claude_code_listing(registry, context_window, false),
        Client::Codex => codex_listing(registry, context_window),
        Client::Copilot => copilot_listing(registry),
        Client::OpenCode => opencode_listing(registry),
        Client::Gemini => gemini_listing(registry),
        _ => ClientListing {
            listed: listing(registry),
            ..ClientListing::default()
        },
    }
}

/// Every SKILL.md of the registry a client that follows links finds, in the loader's order:
/// registered, shadowed, and linked from outside its root, with the root it was found under.
/// `registered` and `linked` give `None` for a file without the client's reading (one that went
/// away before it could be read for this client, see [`Registry::read_clients`]).
fn found_skills<'a, T>(
    registry: &'a Registry,
    target: Client,
    registered: impl Fn(&'a crate::workspace::Skill) -> Option<T>,
    linked: impl Fn(&'a super::registry::Refused) -> Option<T>,
    root_of: impl Fn(&T) -> (&'a Path, &'a Path),
) -> Vec<T> {
    let mut skills: Vec<T> = registry
        .skills
        .iter()
        .chain(registry.shadowed.iter().map(|(skill, _)| skill))
        .filter_map(registered)
        .chain(registry.refused.iter().filter_map(linked))
        .filter(|skill| client_reads(target, root_of(skill).0, registry.roots.len() == 1))
        .collect();
    let root_rank = |skill: &T| {
        let root = root_of(skill).0;
        registry
            .roots
            .iter()
            .position(|candidate| candidate == root)
    };
    skills.sort_by(|a, b| {
        root_rank(a)
            .cmp(&root_rank(b))
            .then_with(|| root_of(a).1.cmp(root_of(b).1))
    });
    skills
}

/// A skill as Codex's listing sees it.
struct CodexSkill<'a> {
    path: &'a Path,
    root: &'a Path,
    folder: &'a str,
    reading: &'a codex::Reading,
}

/// Codex's listing: `.agents/skills` and `.codex/skills`, links followed, hidden folders
/// skipped, each SKILL.md read as Codex reads it ([`codex::read`]).
fn codex_listing(registry: &Registry, context_window: Option<u64>) -> ClientListing {
    let skills = found_skills(
        registry,
        Client::Codex,
        |skill| {
            Some(CodexSkill {
                path: &skill.path,
                root: &skill.root,
                folder: &skill.folder,
                reading: skill.readings.codex.as_deref()?,
            })
        },
        |refused| match &refused.refusal {
            Refusal::OutsideRoot {
                readings: Some(readings),
                ..
            } => Some(CodexSkill {
                path: &refused.path,
                root: &refused.root,
                folder: refused.path.parent()?.file_name()?.to_str()?,
                reading: readings.codex.as_deref()?,
            }),
            _ => None,
        },
        |skill| (skill.root, skill.path),
    );
    let mut omitted = Vec::new();
    let mut loaded = Vec::new();
    for skill in skills.iter().filter(|skill| !skill.folder.starts_with('.')) {
        match skill.reading {
            codex::Reading::Loaded { name, description } => loaded.push((
                skill,
                name.as_deref().unwrap_or(skill.folder),
                description.as_str(),
                format!("{}/SKILL.md", skill.folder),
            )),
            codex::Reading::Refused(refusal) => omitted.push(Omitted {
                path: skill.path.to_path_buf(),
                reason: "not-loaded",
                why: format!("Codex does not load it: {}", refusal.describe()),
                name: None,
                plugin: None,
            }),
        }
    }
    let candidates: Vec<codex::Candidate<'_>> = loaded
        .iter()
        .map(|(skill, name, description, file)| codex::Candidate {
            name,
            description,
            file,
            path: skill.path,
        })
        .collect();
    let codex::Listing {
        lines,
        left_out,
        needed,
    } = codex::listing(&candidates, codex::budget(context_window));
    let listed = lines
        .into_iter()
        .map(|line| {
            let (skill, name, description, _) = &loaded[line.index];
            Listed {
                name: (*name).to_owned(),
                full_chars: description.chars().count(),
                truncated: line.fate != Fate::Full,
                description: line.description.unwrap_or_default(),
                fate: line.fate,
                path: skill.path.to_path_buf(),
                plugin: None,
            }
        })
        .collect();
    omitted.extend(left_out.into_iter().map(|index| {
        Omitted {
        path: loaded[index].0.path.to_path_buf(),
        reason: "over-budget",
        why: "even names alone overflow Codex's listing budget, and this skill's line did not fit"
            .to_owned(),
        name: None,
        plugin: None,
    }
    }));
    ClientListing {
        listed,
        omitted,
        own_chars: codex::OWN
            .iter()
            .map(|(name, length)| name.len() + length)
            .sum(),
        needed: Some(needed),
    }
}

/// A skill as Copilot's listing sees it.
struct CopilotSkill<'a> {
    path: &'a Path,
    root: &'a Path,
    folder: &'a str,
    reading: &'a copilot::Reading,
}

/// Copilot's order of roots: `.github/skills`, `.agents/skills`, `.claude/skills`, then any
/// other root it was given.
fn copilot_root_rank(root: &Path) -> usize {
    let mut parts = root
        .components()
        .rev()
        .filter_map(|part| part.as_os_str().to_str());
    match (parts.next(), parts.next()) {
        (Some("skills"), Some(".github")) => 0,
        (Some("skills"), Some(".agents")) => 1,
        (Some("skills"), Some(".claude")) => 2,
        _ => 3,
    }
}

/// Copilot's listing: `.github/skills`, `.agents/skills` and `.claude/skills` in that order,
/// folders by name, links followed, hidden folders skipped, each SKILL.md read as Copilot reads
/// it ([`copilot::read`]).
fn copilot_listing(registry: &Registry) -> ClientListing {
    let mut skills = found_skills(
        registry,
        Client::Copilot,
        |skill| {
            Some(CopilotSkill {
                path: &skill.path,
                root: &skill.root,
                folder: &skill.folder,
                reading: skill.readings.copilot.as_deref()?,
            })
        },
        |refused| match &refused.refusal {
            Refusal::OutsideRoot {
                readings: Some(readings),
                ..
            } => Some(CopilotSkill {
                path: &refused.path,
                root: &refused.root,
                folder: refused.path.parent()?.file_name()?.to_str()?,
                reading: readings.copilot.as_deref()?,
            }),
            _ => None,
        },
        |skill| (skill.root, skill.path),
    );
    skills.sort_by(|a, b| {
        copilot_root_rank(a.root)
            .cmp(&copilot_root_rank(b.root))
            .then_with(|| a.folder.cmp(b.folder))
    });
    let mut omitted = Vec::new();
    let mut loaded = Vec::new();
    for skill in skills.iter().filter(|skill| !skill.folder.starts_with('.')) {
        let refusal = match skill.reading {
            copilot::Reading::Loaded {
                name,
                description,
                hidden,
            } => match name
                .clone()
                .map_or_else(|| copilot::valid_name(skill.folder), Ok)
            {
                Ok(name) => {
                    loaded.push((skill, name, description.as_str(), *hidden));
                    continue;
                }
                Err(_) => "no valid skill name can be made of its folder's name".to_owned(),
            },
            copilot::Reading::Refused(refusal) => refusal.describe(),
        };
        omitted.push(Omitted {
            path: skill.path.to_path_buf(),
            reason: "not-loaded",
            why: format!("Copilot does not load it: {refusal}"),
            name: None,
            plugin: None,
        });
    }
    let candidates: Vec<copilot::Candidate<'_>> = loaded
        .iter()
        .map(|(_, name, description, hidden)| copilot::Candidate {
            name,
            description,
            hidden: *hidden,
        })
        .collect();
    let (lines, left_out) = copilot::listing(&candidates);
    let listed = lines
        .into_iter()
        .map(|line| {
            let (skill, name, description, _) = &loaded[line.index];
            Listed {
                name: name.clone(),
                full_chars: utf16_len(description),
                truncated: line.fate != Fate::Full,
                description: line.description.unwrap_or_default(),
                fate: line.fate,
                path: skill.path.to_path_buf(),
                plugin: None,
            }
        })
        .collect();
    omitted.extend(left_out.into_iter().map(|(index, why)| {
        let (reason, why) = match why {
            copilot::Omitted::Hidden => (
                Hidden::ModelInvocationDisabled.id(),
                Hidden::ModelInvocationDisabled.describe().to_owned(),
            ),
            copilot::Omitted::Shadowed(winner) => (
                "shadowed",
                format!(
                    "{} holds a skill of the same name, which wins",
                    loaded[winner].0.path.display()
                ),
            ),
        };
        Omitted {
            path: loaded[index].0.path.to_path_buf(),
            reason,
            why,
            name: None,
            plugin: None,
        }
    }));
    ClientListing {
        listed,
        omitted,
        own_chars: 0,
        needed: None,
    }
}

/// A skill as OpenCode's listing sees it.
struct OpenCodeSkill<'a> {
    path: &'a Path,
    root: &'a Path,
    folder: &'a str,
    reading: &'a opencode::Reading,
}

/// OpenCode's order of roots: `.claude/skills`, `.agents/skills`, then `.opencode/skills` and
/// any other root it was given.
fn opencode_root_rank(root: &Path) -> usize {
    let mut parts = root
        .components()
        .rev()
        .filter_map(|part| part.as_os_str().to_str());
    match (parts.next(), parts.next()) {
        (Some("skills"), Some(".claude")) => 0,
        (Some("skills"), Some(".agents")) => 1,
        _ => 2,
    }
}

/// OpenCode's listing: `.claude/skills`, `.agents/skills` and `.opencode/skills`, links
/// followed, each SKILL.md read as OpenCode reads it ([`opencode::read`]); hidden folders count
/// except under `.opencode`.
fn opencode_listing(registry: &Registry) -> ClientListing {
    let mut skills = found_skills(
        registry,
        Client::OpenCode,
        |skill| {
            Some(OpenCodeSkill {
                path: &skill.path,
                root: &skill.root,
                folder: &skill.folder,
                reading: skill.readings.opencode.as_deref()?,
            })
        },
        |refused| match &refused.refusal {
            Refusal::OutsideRoot {
                readings: Some(readings),
                ..
            } => Some(OpenCodeSkill {
                path: &refused.path,
                root: &refused.root,
                folder: refused.path.parent()?.file_name()?.to_str()?,
                reading: readings.opencode.as_deref()?,
            }),
            _ => None,
        },
        |skill| (skill.root, skill.path),
    );
    skills.sort_by(|a, b| {
        opencode_root_rank(a.root)
            .cmp(&opencode_root_rank(b.root))
            .then_with(|| a.path.cmp(b.path))
    });
    skills.retain(|skill| opencode_root_rank(skill.root) < 2 || !skill.folder.starts_with('.'));
    let mut omitted = Vec::new();
    let mut loaded = Vec::new();
    for skill in &skills {
        match skill.reading {
            opencode::Reading::Loaded { name, description } => {
                loaded.push((skill, name.as_str(), description.as_deref()));
            }
            opencode::Reading::Refused(refusal) => omitted.push(Omitted {
                path: skill.path.to_path_buf(),
                reason: "not-loaded",
                why: format!("OpenCode does not load it: {}", refusal.describe()),
                name: None,
                plugin: None,
            }),
        }
    }
    let candidates: Vec<opencode::Candidate<'_>> = loaded
        .iter()
        .map(|(_, name, description)| opencode::Candidate {
            name,
            description: *description,
        })
        .collect();
    let (order, left_out) = opencode::listing(&candidates);
    let listed = order
        .into_iter()
        .map(|index| {
            let (skill, name, description) = loaded[index];
            let description = description.unwrap_or_default();
            Listed {
                name: name.to_owned(),
                full_chars: utf16_len(description),
                truncated: false,
                description: description.to_owned(),
                fate: Fate::Full,
                path: skill.path.to_path_buf(),
                plugin: None,
            }
        })
        .collect();
    omitted.extend(left_out.into_iter().map(|(index, why)| {
        let (reason, why) = match why {
            opencode::Omitted::Shadowed(winner) => (
                "shadowed",
                format!(
                    "OpenCode keeps one skill named '{}' and which one varies from run to run; skill-lsp assumes {}",
                    loaded[index].1,
                    loaded[winner].0.path.display()
                ),
            ),
            opencode::Omitted::NoDescription => (
                "no-description",
                "OpenCode loads it but lists only skills with a description".to_owned(),
            ),
        };
        Omitted {
            path: loaded[index].0.path.to_path_buf(),
            reason,
            why,
            name: None,
            plugin: None,
        }
    }));
    ClientListing {
        listed,
        omitted,
        own_chars: 0,
        needed: None,
    }
}

/// A skill as Gemini CLI's listing sees it.
struct GeminiSkill<'a> {
    path: &'a Path,
    root: &'a Path,
    folder: &'a str,
    reading: &'a gemini::Reading,
}

/// Gemini CLI's listing: `.gemini/skills`, then `.agents/skills`, links followed, hidden folders
/// skipped, each SKILL.md read as Gemini CLI reads it ([`gemini::read`]). Within a root it lists
/// skills in the order the file system returns the folders, which skill-lsp cannot know: it
/// assumes name order.
fn gemini_listing(registry: &Registry) -> ClientListing {
    let mut skills = found_skills(
        registry,
        Client::Gemini,
        |skill| {
            Some(GeminiSkill {
                path: &skill.path,
                root: &skill.root,
                folder: &skill.folder,
                reading: skill.readings.gemini.as_deref()?,
            })
        },
        |refused| match &refused.refusal {
            Refusal::OutsideRoot {
                readings: Some(readings),
                ..
            } => Some(GeminiSkill {
                path: &refused.path,
                root: &refused.root,
                folder: refused.path.parent()?.file_name()?.to_str()?,
                reading: readings.gemini.as_deref()?,
            }),
            _ => None,
        },
        |skill| (skill.root, skill.path),
    );
    let rank = |root: &Path| {
        let mut parts = root
            .components()
            .rev()
            .filter_map(|part| part.as_os_str().to_str());
        match (parts.next(), parts.next()) {
            (Some("skills"), Some(".gemini")) => 0,
            (Some("skills"), Some(".agents")) => 1,
            _ => 2,
        }
    };
    skills.sort_by(|a, b| {
        rank(a.root)
            .cmp(&rank(b.root))
            .then_with(|| a.path.cmp(b.path))
    });
    let mut omitted = Vec::new();
    let mut loaded = Vec::new();
    for skill in skills.iter().filter(|skill| !skill.folder.starts_with('.')) {
        match &skill.reading.0 {
            Some(reading) => loaded.push((skill, reading)),
            None => omitted.push(Omitted {
                path: skill.path.to_path_buf(),
                reason: "not-loaded",
                why: "Gemini CLI does not load it: no frontmatter block at the very top, or no name or description line".to_owned(),
                name: None,
                plugin: None,
            }),
        }
    }
    let candidates: Vec<gemini::Candidate<'_>> = loaded
        .iter()
        .map(|(_, reading)| gemini::Candidate {
            name: &reading.name,
        })
        .collect();
    let (order, replaced) = gemini::listing(&candidates);
    let listed = order
        .into_iter()
        .map(|index| {
            let (skill, reading) = loaded[index];
            Listed {
                name: reading.name.clone(),
                full_chars: utf16_len(&reading.description),
                truncated: false,
                description: reading.description.clone(),
                fate: Fate::Full,
                path: skill.path.to_path_buf(),
                plugin: None,
            }
        })
        .collect();
    omitted.extend(replaced.into_iter().map(|(index, winner)| {
        let (skill, other) = (loaded[index].0, loaded[winner].0);
        let why = if skill.root == other.root {
            // In one root, the copy found last wins, in the file system's folder order.
            format!(
                "Gemini CLI keeps one skill named '{}' and which one varies with the order the file system lists folders in; skill-lsp assumes {}",
                loaded[index].1.name,
                other.path.display()
            )
        } else {
            format!(
                "{} has the same name and, found later, replaces it",
                other.path.display()
            )
        };
        Omitted {
            path: skill.path.to_path_buf(),
            reason: "shadowed",
            why,
            name: None,
            plugin: None,
        }
    }));
    ClientListing {
        listed,
        omitted,
        own_chars: 0,
        needed: None,
    }
}

/// What a client lists once the workspace's plugins (`Registry::plugins`) are installed, in
/// the marketplace's order: Claude Code's [`client_listing`] with each plugin's skills after
/// the project's; the other clients load no plugin, so theirs is [`client_listing`].
#[must_use]
pub(crate) fn installed_listing(
    registry: &Registry,
    target: Client,
    context_window: Option<u64>,
) -> ClientListing {
    match target {
        Client::ClaudeCode => claude_code_listing(registry, context_window, true),
        _ => client_listing(registry, target, context_window),
    }
}

/// Claude Code's listing: the project's skills, then, with `plugins`, each plugin's.
fn claude_code_listing(
    registry: &Registry,
    context_window: Option<u64>,
    plugins: bool,
) -> ClientListing {
    // Claude Code follows a linked skill folder wherever it leads, which design.md §5's loader
    // refuses. Roots in the loader's order, folders in the order each root was scanned.
    let mut skills = found_skills(
        registry,
        Client::ClaudeCode,
        |skill| {
            Some(ClaudeSkill {
                path: &skill.path,
                root: &skill.root,
                folder: Cow::Borrowed(&skill.folder),
                reading: Cow::Borrowed(skill.readings.claude.as_deref()?),
                plugin: None,
            })
        },
        |refused| match &refused.refusal {
            Refusal::OutsideRoot {
                readings: Some(readings),
                ..
            } => Some(ClaudeSkill {
                path: &refused.path,
                root: &refused.root,
                folder: Cow::Borrowed(refused.path.parent()?.file_name()?.to_str()?),
                reading: Cow::Borrowed(readings.claude.as_deref()?),
                plugin: None,
            }),
            _ => None,
        },
        |skill| (skill.root, skill.path),
    );
    if plugins {
        for (index, plugin) in registry.plugins.iter().enumerate() {
            for skill in &plugin.skills {
                let Some(reading) = skill.readings.claude.as_deref() else {
                    continue;
                };
                let mut reading = reading.clone();
                reading.display_name = reading
                    .display_name
                    .map(|name| format!("{}:{name}", plugin.name));
                skills.push(ClaudeSkill {
                    path: &skill.path,
                    root: &skill.root,
                    folder: Cow::Owned(plugin.skill_id(skill)),
                    reading: Cow::Owned(reading),
                    plugin: Some(index),
                });
            }
        }
    }
    let candidates: Vec<claude_code::Candidate<'_>> = skills
        .iter()
        .map(|skill| claude_code::Candidate {
            folder: &skill.folder,
            reading: &skill.reading,
            group: skill.plugin.map_or(0, |index| index + 1),
        })
        .collect();
    let (lines, left_out) = claude_code::listing(&candidates, claude_code::budget(context_window));
    let listed = lines
        .into_iter()
        .map(|line| {
            let full = &skills[line.index].reading.text;
            Listed {
                name: line.name,
                full_chars: utf16_len(full),
                truncated: line.fate != Fate::Full,
                description: line.description.unwrap_or_default(),
                fate: line.fate,
                path: skills[line.index].path.to_path_buf(),
                plugin: skills[line.index].plugin,
            }
        })
        .collect();
    let omitted = left_out
        .into_iter()
        .map(|(index, why)| {
            let (reason, why, name) = match why {
                claude_code::Omitted::Hidden(hidden, name) => {
                    (hidden.id(), hidden.describe().to_owned(), Some(name))
                }
                claude_code::Omitted::Shadowed(winner) => (
                    "shadowed",
                    format!(
                        "{} holds a skill folder of the same name, which wins",
                        skills[winner].path.display()
                    ),
                    None,
                ),
            };
            Omitted {
                path: skills[index].path.to_path_buf(),
                reason,
                why,
                name,
                plugin: skills[index].plugin,
            }
        })
        .collect();
    ClientListing {
        listed,
        omitted,
        own_chars: claude_code::OWN_SKILLS_CHARS,
        needed: None,
    }
}

/// A listing in design.md §5's reading, for the clients not modelled yet: every registered
/// skill, whole.
#[must_use]
fn listing(registry: &Registry) -> Vec<Listed> {
    registry
        .skills
        .iter()
        .map(|skill| Listed {
            name: skill.name.clone(),
            full_chars: skill.description.chars().count(),
            description: skill.description.clone(),
            truncated: false,
            fate: Fate::Full,
            path: skill.path.clone(),
            plugin: None,
        })
        .collect()
}

/// How a path is shown: relative to `base` when under it, with forward slashes.
fn shown(path: &Path, base: Option<&Path>) -> String {
    let relative = base
        .and_then(|base| path.strip_prefix(base).ok())
        .filter(|relative| !relative.as_os_str().is_empty())
        .unwrap_or(path);
    super::loader::clean(relative)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Why a catalog lists nothing: the roots it read, and the skills of the workspace's plugins,
/// which only Claude Code lists, once a plugin is installed.
fn empty_reason(registry: &Registry, roots: &[PathBuf], base: Option<&Path>) -> String {
    let roots: Vec<String> = roots.iter().map(|root| shown(root, base)).collect();
    let roots: Vec<&str> = roots.iter().map(String::as_str).collect();
    let mut reason = format!(
        "(no skills found: no skill folder in {})",
        crate::targets::join_names(&roots)
    );
    let plugin_skills: usize = registry
        .plugins
        .iter()
        .map(|plugin| plugin.skills.len())
        .sum();
    if plugin_skills > 0 {
        let plugins = registry.plugins.len();
        reason.pop();
        reason.push_str(&format!(
            "; {plugin_skills} skill{} of {plugins} Claude Code plugin{} here {} listed by Claude Code once a plugin is installed: skill-lsp catalog --target claude-code)",
            if plugin_skills == 1 { "" } else { "s" },
            if plugins == 1 { "" } else { "s" },
            if plugin_skills == 1 { "is" } else { "are" },
        ));
    }
    reason
}

/// The catalog as `skill-lsp catalog` prints it: the loader's (the agent's system prompt), or
/// with a target that client's listing, and for Claude Code then what each of the workspace's
/// plugins adds once installed, under a line naming it. Where nothing is listed, a line says
/// why. Paths are shown relative to `base`.
#[must_use]
pub(crate) fn catalog_text(
    registry: &Registry,
    target: Option<(Client, &ClientListing)>,
    base: Option<&Path>,
) -> String {
    let Some((target, listing)) = target else {
        return if registry.skills.is_empty() {
            empty_reason(registry, &registry.roots, base)
        } else {
            registry.catalog()
        };
    };
    let project: Vec<Listed> = listing
        .listed
        .iter()
        .filter(|item| item.plugin.is_none())
        .cloned()
        .collect();
    let mut out = if project.is_empty() {
        let read: Vec<PathBuf> = registry
            .roots
            .iter()
            .filter(|root| client_reads(target, root, registry.roots.len() == 1))
            .cloned()
            .collect();
        let hidden = listing
            .omitted
            .iter()
            .filter(|item| item.plugin.is_none())
            .count();
        if hidden > 0 {
            format!(
                "(no skills listed from the roots {} reads: it keeps all {hidden} from the model)",
                target.display()
            )
        } else if read.is_empty() {
            let roots: Vec<&str> = super::explain::default_roots_of(target);
            format!(
                "(no skills listed: {} reads {}, and this workspace has none of them)",
                target.display(),
                crate::targets::join_names(&roots)
            )
        } else {
            let folders: Vec<String> = read.iter().map(|root| shown(root, base)).collect();
            let folders: Vec<&str> = folders.iter().map(String::as_str).collect();
            format!(
                "(no skills listed: no skill folder in {})",
                crate::targets::join_names(&folders)
            )
        }
    } else {
        listing_text(&project)
    };
    if target != Client::ClaudeCode {
        return out;
    }
    let mut without_skills = 0;
    for (index, plugin) in registry.plugins.iter().enumerate() {
        if plugin.skills.is_empty() {
            without_skills += 1;
            continue;
        }
        let from = plugin
            .marketplace
            .as_deref()
            .map(|marketplace| format!(" from the marketplace {marketplace}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "\n\nPlugin {}{from}, listed once installed ({}):\n",
            plugin.name,
            plugin.install_command()
        ));
        let lines: Vec<Listed> = listing
            .listed
            .iter()
            .filter(|item| item.plugin == Some(index))
            .cloned()
            .collect();
        if lines.is_empty() {
            let hidden: Vec<&str> = listing
                .omitted
                .iter()
                .filter(|item| item.plugin == Some(index))
                .filter_map(|item| item.name.as_deref())
                .collect();
            out.push_str(&format!(
                "(none listed: Claude Code keeps {} from the model; skill-lsp explain NAME says why)",
                crate::targets::join_names(&hidden)
            ));
        } else {
            out.push_str(&listing_text(&lines));
        }
    }
    if without_skills > 0 {
        out.push_str(&format!(
            "\n\n({without_skills} {} here provide{} no skills)",
            if without_skills == 1 {
                "more plugin"
            } else {
                "more plugins"
            },
            if without_skills == 1 { "s" } else { "" },
        ));
    }
    out
}

/// The listing as text, in the shape of the system prompt's catalog.
#[must_use]
pub(crate) fn listing_text(items: &[Listed]) -> String {
    if items.is_empty() {
        return "(no skills found)".to_owned();
    }
    items
        .iter()
        .map(|item| {
            if item.description.is_empty() || item.fate == Fate::NameOnly {
                format!("- {}", item.name)
            } else {
                format!("- {}: {}", item.name, item.description)
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A listing as the client puts it before its model, as far as skill-lsp models the shape:
/// the header and line of Claude Code's Skill tool, Codex's `### Available skills` lines with
/// their `(file: …)`, Copilot's escaped `<skill>` entries and its by-name line past the budget,
/// OpenCode's and Gemini CLI's `<available_skills>` entries (the shapes the oracle tests read
/// back, `tests/clients/clients.py`). The validators, which list nothing, get
/// [`listing_text`].
#[must_use]
pub(crate) fn client_prompt(target: Client, listing: &ClientListing) -> String {
    let shown = |item: &Listed| item.fate != Fate::NameOnly && !item.description.is_empty();
    let mut out = String::new();
    match target {
        Client::ClaudeCode => {
            out.push_str("The following skills are available for use with the Skill tool:\n\n");
            out.push_str(&listing_text(&listing.listed));
        }
        Client::Codex => {
            out.push_str("<skills_instructions>\n### Available skills\n");
            for item in &listing.listed {
                let folder = item
                    .path
                    .parent()
                    .and_then(Path::file_name)
                    .map(|folder| folder.to_string_lossy())
                    .unwrap_or_default();
                let file = format!("(file: r0/{folder}/SKILL.md)");
                if shown(item) {
                    out.push_str(&format!("- {}: {} {file}\n", item.name, item.description));
                } else {
                    out.push_str(&format!("- {}: {file}\n", item.name));
                }
            }
            out.push_str("</skills_instructions>");
        }
        Client::Copilot => {
            out.push_str("<available_skills>\n");
            let mut by_name = Vec::new();
            for item in &listing.listed {
                if shown(item) {
                    // The listing keeps Copilot's escaped description; the name is escaped here.
                    out.push_str(&format!(
                        "<skill>\n  <name>{}</name>\n  <description>{}</description>\n  <location>project</location>\n</skill>\n",
                        copilot::escape(&item.name),
                        item.description
                    ));
                } else {
                    by_name.push(item.name.as_str());
                }
            }
            if !by_name.is_empty() {
                out.push_str(&format!(
                    "Additional skills available (invoke by name): {}\n",
                    by_name.join(", ")
                ));
            }
            out.push_str("</available_skills>");
        }
        Client::OpenCode | Client::Gemini => {
            // Names and descriptions as written: neither client escapes them.
            out.push_str("<available_skills>\n");
            for item in &listing.listed {
                out.push_str(&format!(
                    "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>\n",
                    item.name,
                    item.description,
                    item.path.display()
                ));
            }
            out.push_str("</available_skills>");
        }
        Client::AgentSkills | Client::ClaudeUpload => out = listing_text(&listing.listed),
    }
    out
}

/// The names the client's model may load a listed skill by, the one it is listed under first:
/// Claude Code's `folder (name)` answers to both its folder and its name; the other clients
/// list one name.
#[must_use]
pub(crate) fn call_names(target: Client, item: &Listed) -> Vec<String> {
    let claude_pair = item
        .name
        .strip_suffix(')')
        .and_then(|rest| rest.split_once(" ("))
        .filter(|_| target == Client::ClaudeCode);
    match claude_pair {
        Some((folder, name)) => vec![folder.to_owned(), name.to_owned(), item.name.clone()],
        None => vec![item.name.clone()],
    }
}

/// The `<available_skills>` block that several clients put in their prompts.
#[must_use]
pub(crate) fn xml(registry: &Registry) -> String {
    let mut out = String::from("<available_skills>\n");
    for skill in &registry.skills {
        out.push_str(&format!(
            "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>\n",
            crate::text::xml_escape(&skill.name),
            crate::text::xml_escape(&skill.description),
            crate::text::xml_escape(&skill.path.to_string_lossy()),
        ));
    }
    out.push_str("</available_skills>");
    out
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::workspace::Skill;

    fn registry(descriptions: &[usize]) -> Registry {
        let mut registry = Registry::default();
        for (index, length) in descriptions.iter().enumerate() {
            registry.add(Skill {
                name: format!("s{index}"),
                description: "d".repeat(*length),
                when_to_use: None,
                path: PathBuf::from(format!("skills/s{index}/SKILL.md")),
                root: PathBuf::from("skills"),
                folder: format!("s{index}"),
                name_range: None,
                description_range: None,
                name_span: None,
                readings: crate::clients::Readings {
                    claude: Some(Default::default()),
                    codex: Some(Default::default()),
                    copilot: Some(Default::default()),
                    opencode: Some(Default::default()),
                    gemini: Some(Default::default()),
                },
            });
        }
        registry
    }

    #[test]
    fn budgets() {
        assert_eq!(listing_budget(Client::Codex, None), Some(5_440));
        assert_eq!(listing_budget(Client::Codex, Some(100_000)), Some(2_000));
        assert_eq!(listing_budget(Client::ClaudeCode, None), Some(30_000));
        assert_eq!(
            listing_budget(Client::ClaudeCode, Some(200_000)),
            Some(6_000)
        );
        assert_eq!(listing_budget(Client::Copilot, None), Some(15_000));
        assert_eq!(listing_budget(Client::AgentSkills, None), None);
    }

    #[test]
    fn claude_code_caps_each_skill() {
        let mut registry = registry(&[0, 0]);
        for (skill, length) in registry.skills.iter_mut().zip([2_000, 100]) {
            skill.root = PathBuf::from(".claude/skills");
            skill.readings.claude.as_mut().unwrap().text = "d".repeat(length);
        }
        registry.roots = vec![PathBuf::from("skills"), PathBuf::from(".claude/skills")];
        let listing = client_listing(&registry, Client::ClaudeCode, Some(10_000_000));
        let items = &listing.listed;
        assert_eq!((items[0].fate, items[1].fate), (Fate::Capped, Fate::Full));
        assert_eq!(utf16_len(&items[0].description), claude_code::SKILL_CAP);
        assert!(items[0].description.ends_with('…'));
    }

    /// A registry read without client readings, then given one client's (as `check` reads
    /// them), lists as the registry read with every client's, and reads no file of a root the
    /// client does not read.
    #[cfg(unix)]
    #[test]
    fn readings_added_later_list_as_readings_read_at_once() {
        use crate::targets::ClientSet;
        use crate::workspace::loader::{Disk, roots_for};
        let dir = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        let long = "Fills forms. ".repeat(200);
        for root in [
            "skills",
            ".claude/skills",
            ".agents/skills",
            ".codex/skills",
            ".github/skills",
            ".opencode/skills",
            ".gemini/skills",
        ] {
            for (folder, text) in [
                (
                    "pdf",
                    format!("---\nname: pdf\ndescription: {long}\n---\nBody\n"),
                ),
                (
                    "colon",
                    "---\nname: colon\ndescription: Use when: x\n---\nB\n".into(),
                ),
                ("bare", "No frontmatter at all.\n".into()),
            ] {
                write(&format!("{root}/{folder}/SKILL.md"), &text);
            }
        }
        write(
            "outside/linked/SKILL.md",
            "---\nname: linked\ndescription: Out.\n---\n",
        );
        for root in [".claude/skills", ".agents/skills", "skills"] {
            std::os::unix::fs::symlink(
                dir.path().join("outside/linked"),
                dir.path().join(root).join("linked"),
            )
            .unwrap();
        }
        for roots in [
            roots_for(dir.path(), &[]),
            vec![dir.path().join(".claude/skills")],
        ] {
            let whole = Registry::scan(&roots, &Disk);
            for target in [
                Client::ClaudeCode,
                Client::Codex,
                Client::Copilot,
                Client::OpenCode,
                Client::Gemini,
            ] {
                let mut later = Registry::scan_for(&roots, &Disk, ClientSet::NONE);
                later.read_clients(ClientSet::of([target]), &Disk);
                let listed = client_listing(&later, target, None).listed;
                assert!(
                    listed
                        .iter()
                        .any(|item| item.path.ends_with("linked/SKILL.md")),
                    "the linked skill is read too: {target} {listed:?}"
                );
                for window in [None, Some(1_000_000)] {
                    assert_eq!(
                        client_listing(&later, target, window),
                        client_listing(&whole, target, window),
                        "{target} {roots:?}"
                    );
                }
                for skill in &later.skills {
                    assert_eq!(
                        skill.readings.clients().contains(target),
                        client_reads(target, &skill.root, roots.len() == 1),
                        "{target} {}",
                        skill.path.display()
                    );
                }
                // Read at once for the one client, as `catalog --target` does.
                let one = Registry::scan_for(&roots, &Disk, ClientSet::of([target]));
                assert_eq!(
                    client_listing(&one, target, None),
                    client_listing(&whole, target, None),
                    "{target} {roots:?}"
                );
            }
        }
    }

    #[test]
    fn xml_escapes() {
        let mut registry = registry(&[1]);
        registry.skills[0].description = "a <b> & c".into();
        assert!(xml(&registry).contains("<description>a &lt;b&gt; &amp; c</description>"));
    }
}
