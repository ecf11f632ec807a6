//! The catalog as clients list it: the plain text of the system prompt, the `<available_skills>`
//! XML, and each client's listing budget (SPEC section 4, `catalog-budget`).

use std::path::{Path, PathBuf};

use crate::clients::Fate;
use crate::clients::claude_code;
use crate::clients::js::utf16_len;
use crate::targets::Target;

use super::Registry;
use super::loader::root_readers;
use super::registry::Refusal;

/// Codex's listing budget when it does not know the context window.
pub(crate) const CODEX_DEFAULT_BUDGET: usize = 8_000;
/// Characters per token for budget estimates.
const CHARS_PER_TOKEN: u64 = 4;

/// The listing budget in characters of a client that has one.
#[must_use]
pub(crate) fn listing_budget(target: Target, context_window: Option<u64>) -> Option<usize> {
    let chars = |window: u64, percent: u64| {
        usize::try_from(window * CHARS_PER_TOKEN * percent / 100).unwrap_or(usize::MAX)
    };
    match target {
        Target::ClaudeCode => Some(claude_code::budget(context_window)),
        Target::Codex => {
            Some(context_window.map_or(CODEX_DEFAULT_BUDGET, |window| chars(window, 2)))
        }
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
}

/// A skill the client loaded (or found) and keeps out of the model's listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Omitted {
    pub path: PathBuf,
    /// A stable id: `model-invocation-disabled`, `path-scoped`, `shadowed`.
    pub reason: &'static str,
    /// The same in words.
    pub why: String,
    /// The name the client would list it under, for a skill it loads and hides from the model.
    pub name: Option<String>,
}

/// What a client lists from a registry, and what it leaves out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ClientListing {
    pub listed: Vec<Listed>,
    pub omitted: Vec<Omitted>,
    /// Characters of the client's own skills listed beside these, counted against its budget.
    pub own_chars: usize,
}

/// Whether `target` reads the skills under `root`: the roots it owns in a workspace; a folder
/// given as the only root stands for every client.
fn reads(target: Target, root: &Path, only_root: bool) -> bool {
    only_root || root_readers(root).is_some_and(|readers| readers.contains(&target))
}

/// A skill as Claude Code's listing sees it: registered, or linked from outside its root.
struct ClaudeSkill<'a> {
    path: &'a Path,
    root: &'a Path,
    folder: &'a str,
    reading: &'a claude_code::Reading,
}

/// A client's listing of a registry. Claude Code's is its own model
/// ([`claude_code::listing`]); the other clients' follow SPEC section 5's reading.
#[must_use]
pub(crate) fn client_listing(
    registry: &Registry,
    target: Target,
    context_window: Option<u64>,
) -> ClientListing {
    if target != Target::ClaudeCode {
        return ClientListing {
            listed: listing(registry, target, context_window),
            ..ClientListing::default()
        };
    }
    // Claude Code follows a linked skill folder wherever it leads, which SPEC section 5's loader
    // refuses.
    let linked = registry
        .refused
        .iter()
        .filter_map(|refused| match &refused.refusal {
            Refusal::OutsideRoot {
                claude: Some(reading),
                ..
            } => Some(ClaudeSkill {
                path: &refused.path,
                root: &refused.root,
                folder: refused.path.parent()?.file_name()?.to_str()?,
                reading,
            }),
            _ => None,
        });
    let mut skills: Vec<ClaudeSkill<'_>> = registry
        .skills
        .iter()
        .chain(registry.shadowed.iter().map(|(skill, _)| skill))
        .map(|skill| ClaudeSkill {
            path: &skill.path,
            root: &skill.root,
            folder: &skill.folder,
            reading: &skill.claude,
        })
        .chain(linked)
        .filter(|skill| reads(target, skill.root, registry.roots.len() == 1))
        .collect();
    // Roots in the loader's order, folders in the order each root was scanned.
    let root_rank =
        |skill: &ClaudeSkill<'_>| registry.roots.iter().position(|root| root == skill.root);
    skills.sort_by(|a, b| {
        root_rank(a)
            .cmp(&root_rank(b))
            .then_with(|| a.path.cmp(b.path))
    });
    let candidates: Vec<claude_code::Candidate<'_>> = skills
        .iter()
        .map(|skill| claude_code::Candidate {
            folder: skill.folder,
            reading: skill.reading,
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
            }
        })
        .collect();
    ClientListing {
        listed,
        omitted,
        own_chars: claude_code::OWN_SKILLS_CHARS,
    }
}

/// Simulates a budgeted listing in SPEC section 5's reading: the whole-listing budget shared
/// evenly among the skills whose descriptions do not fit (Codex).
#[must_use]
fn listing(registry: &Registry, target: Target, context_window: Option<u64>) -> Vec<Listed> {
    let mut listed: Vec<Listed> = registry
        .skills
        .iter()
        .map(|skill| {
            let description = skill.description.clone();
            Listed {
                name: skill.name.clone(),
                full_chars: description.chars().count(),
                description,
                truncated: false,
                fate: Fate::Full,
                path: skill.path.clone(),
            }
        })
        .collect();
    let Some(budget) = listing_budget(target, context_window) else {
        return listed;
    };
    // `- name: ` and a newline per line.
    let overhead: usize = listed
        .iter()
        .map(|item| item.name.chars().count() + 5)
        .sum();
    let total: usize = overhead
        + listed
            .iter()
            .map(|item| item.description.chars().count())
            .sum::<usize>();
    if total <= budget {
        return listed;
    }
    // Water-filling: short descriptions keep their length, long ones share what is left equally.
    let mut lengths: Vec<usize> = listed
        .iter()
        .map(|item| item.description.chars().count())
        .collect();
    lengths.sort_unstable();
    let mut remaining = budget.saturating_sub(overhead);
    let mut share = 0;
    let count = lengths.len();
    for (index, length) in lengths.iter().enumerate() {
        let equal = remaining / (count - index);
        if *length <= equal {
            remaining -= length;
        } else {
            share = equal;
            break;
        }
    }
    for item in &mut listed {
        if item.description.chars().count() > share {
            cut(item, share);
        }
    }
    listed
}

fn cut(item: &mut Listed, chars: usize) {
    item.truncated = true;
    item.fate = Fate::Capped;
    if chars == 0 {
        item.description.clear();
        return;
    }
    let keep: String = item
        .description
        .chars()
        .take(chars.saturating_sub(1))
        .collect();
    item.description = format!("{}…", keep.trim_end());
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

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The `<available_skills>` block that several clients put in their prompts.
#[must_use]
pub(crate) fn xml(registry: &Registry) -> String {
    let mut out = String::from("<available_skills>\n");
    for skill in &registry.skills {
        out.push_str(&format!(
            "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>\n",
            xml_escape(&skill.name),
            xml_escape(&skill.description),
            xml_escape(&skill.path.to_string_lossy()),
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
                claude: Default::default(),
            });
        }
        registry
    }

    #[test]
    fn budgets() {
        assert_eq!(listing_budget(Target::Codex, None), Some(8_000));
        assert_eq!(listing_budget(Target::Codex, Some(100_000)), Some(8_000));
        assert_eq!(listing_budget(Target::ClaudeCode, None), Some(30_000));
        assert_eq!(
            listing_budget(Target::ClaudeCode, Some(200_000)),
            Some(6_000)
        );
        assert_eq!(listing_budget(Target::AgentSkills, None), None);
    }

    #[test]
    fn claude_code_caps_each_skill() {
        let mut registry = registry(&[0, 0]);
        for (skill, length) in registry.skills.iter_mut().zip([2_000, 100]) {
            skill.root = PathBuf::from(".claude/skills");
            skill.claude.text = "d".repeat(length);
        }
        registry.roots = vec![PathBuf::from("skills"), PathBuf::from(".claude/skills")];
        let listing = client_listing(&registry, Target::ClaudeCode, Some(10_000_000));
        let items = &listing.listed;
        assert_eq!((items[0].fate, items[1].fate), (Fate::Capped, Fate::Full));
        assert_eq!(utf16_len(&items[0].description), claude_code::SKILL_CAP);
        assert!(items[0].description.ends_with('…'));
    }

    #[test]
    fn over_budget_long_descriptions_share_what_is_left() {
        let items = listing(
            &registry(&[100, 900, 900, 900, 900, 900, 900, 900, 900, 900, 900]),
            Target::Codex,
            None,
        );
        assert!(!items[0].truncated, "short descriptions keep their text");
        assert!(items[1..].iter().all(|item| item.truncated));
        let total: usize = items
            .iter()
            .map(|item| item.name.len() + 5 + item.description.chars().count())
            .sum();
        assert!(total <= 8_000, "{total}");
        assert_eq!(
            listing(&registry(&[100, 200]), Target::Codex, None)
                .iter()
                .filter(|i| i.truncated)
                .count(),
            0
        );
    }

    #[test]
    fn xml_escapes() {
        let mut registry = registry(&[1]);
        registry.skills[0].description = "a <b> & c".into();
        assert!(xml(&registry).contains("<description>a &lt;b&gt; &amp; c</description>"));
    }
}
