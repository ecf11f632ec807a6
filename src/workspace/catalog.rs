//! The catalog as clients list it: the plain text of the system prompt, the `<available_skills>`
//! XML, and each client's listing budget (SPEC section 4, `catalog-budget`).

use crate::targets::Target;

use super::Registry;

/// Claude Code's cap on description plus `when_to_use` per skill in its listing.
pub(crate) const CLAUDE_CODE_SKILL_CAP: usize = 1_536;
/// Codex's listing budget when it does not know the context window.
pub(crate) const CODEX_DEFAULT_BUDGET: usize = 8_000;
/// Claude Code's default context window, in tokens.
pub(crate) const CLAUDE_CODE_DEFAULT_WINDOW: u64 = 200_000;
/// Characters per token for budget estimates.
const CHARS_PER_TOKEN: u64 = 4;

/// The listing budget in characters of a client that has one.
#[must_use]
pub(crate) fn listing_budget(target: Target, context_window: Option<u64>) -> Option<usize> {
    let chars = |window: u64, percent: u64| {
        usize::try_from(window * CHARS_PER_TOKEN * percent / 100).unwrap_or(usize::MAX)
    };
    match target {
        Target::ClaudeCode => Some(chars(
            context_window.unwrap_or(CLAUDE_CODE_DEFAULT_WINDOW),
            1,
        )),
        Target::Codex => {
            Some(context_window.map_or(CODEX_DEFAULT_BUDGET, |window| chars(window, 2)))
        }
        _ => None,
    }
}

/// One skill's line as a client lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Listed {
    pub name: String,
    /// The description as the client shows it (possibly cut).
    pub description: String,
    /// Characters of the full description (with `when_to_use` for Claude Code).
    pub full_chars: usize,
    /// The description was cut to fit (empty when dropped).
    pub truncated: bool,
}

/// Simulates a client's listing: Claude Code's per-skill cap, then the whole-listing budget
/// shared evenly among the skills whose descriptions do not fit.
#[must_use]
pub(crate) fn listing(
    registry: &Registry,
    target: Target,
    context_window: Option<u64>,
) -> Vec<Listed> {
    let mut listed: Vec<Listed> = registry
        .skills
        .iter()
        .map(|skill| {
            let description = match (&skill.when_to_use, target) {
                (Some(extra), Target::ClaudeCode) => format!("{} {extra}", skill.description),
                _ => skill.description.clone(),
            };
            let full_chars = description.chars().count();
            let mut item = Listed {
                name: skill.name.clone(),
                description,
                full_chars,
                truncated: false,
            };
            if target == Target::ClaudeCode && full_chars > CLAUDE_CODE_SKILL_CAP {
                cut(&mut item, CLAUDE_CODE_SKILL_CAP);
            }
            item
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
            if item.description.is_empty() {
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
            });
        }
        registry
    }

    #[test]
    fn budgets() {
        assert_eq!(listing_budget(Target::Codex, None), Some(8_000));
        assert_eq!(listing_budget(Target::Codex, Some(100_000)), Some(8_000));
        assert_eq!(listing_budget(Target::ClaudeCode, None), Some(8_000));
        assert_eq!(listing_budget(Target::AgentSkills, None), None);
    }

    #[test]
    fn claude_code_caps_each_skill() {
        let items = listing(
            &registry(&[2_000, 100]),
            Target::ClaudeCode,
            Some(10_000_000),
        );
        assert!(items[0].truncated && !items[1].truncated);
        assert_eq!(items[0].description.chars().count(), CLAUDE_CODE_SKILL_CAP);
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
