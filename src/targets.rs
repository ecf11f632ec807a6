//! The clients that read skills (design.md §4, `docs/clients.md`) and how a finding
//! affects each of them, in words. Which fields each client reads is in `field_table::FIELDS`.

use std::fmt;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    AgentSkills,
    ClaudeUpload,
    ClaudeCode,
    Codex,
    Copilot,
    OpenCode,
    Gemini,
}

pub const ALL_TARGETS: [Target; 7] = [
    Target::AgentSkills,
    Target::ClaudeUpload,
    Target::ClaudeCode,
    Target::Codex,
    Target::Copilot,
    Target::OpenCode,
    Target::Gemini,
];

impl Target {
    #[must_use]
    pub(crate) fn id(self) -> &'static str {
        match self {
            Target::AgentSkills => "agentskills",
            Target::ClaudeUpload => "claude-upload",
            Target::ClaudeCode => "claude-code",
            Target::Codex => "codex",
            Target::Copilot => "copilot",
            Target::OpenCode => "opencode",
            Target::Gemini => "gemini",
        }
    }

    /// The client's name as a user knows it.
    #[must_use]
    pub(crate) fn display(self) -> &'static str {
        match self {
            Target::AgentSkills => "skills-ref",
            Target::ClaudeUpload => "claude.ai upload",
            Target::ClaudeCode => "Claude Code",
            Target::Codex => "Codex",
            Target::Copilot => "Copilot",
            Target::OpenCode => "OpenCode",
            Target::Gemini => "Gemini CLI",
        }
    }

    #[must_use]
    pub(crate) fn parse(id: &str) -> Option<Self> {
        ALL_TARGETS.into_iter().find(|target| target.id() == id)
    }

    /// Whether a key the client does not know makes it reject the skill.
    #[must_use]
    pub(crate) fn rejects_unknown_fields(self) -> bool {
        matches!(self, Target::AgentSkills | Target::ClaudeUpload)
    }

    /// The verb for "will not use this skill": validators and uploads reject, loaders skip.
    #[must_use]
    pub(crate) fn refusal(self) -> Effect {
        match self {
            Target::AgentSkills | Target::ClaudeUpload => Effect::Reject,
            _ => Effect::Skip,
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.id())
    }
}

/// A set of targets, as bits. The loader is told with one which clients' own readings of a
/// SKILL.md to compute (`workspace::loader`): each costs a parse, and only that client's
/// listing uses it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TargetSet(u8);

impl TargetSet {
    pub(crate) const NONE: TargetSet = TargetSet(0);
    pub(crate) const ALL: TargetSet = TargetSet((1 << ALL_TARGETS.len()) - 1);

    #[must_use]
    pub(crate) fn of(targets: impl IntoIterator<Item = Target>) -> Self {
        targets.into_iter().fold(Self::NONE, TargetSet::with)
    }

    #[must_use]
    pub(crate) fn with(self, target: Target) -> Self {
        TargetSet(self.0 | 1 << target as u8)
    }

    #[must_use]
    pub(crate) fn contains(self, target: Target) -> bool {
        self.0 & 1 << target as u8 != 0
    }

    /// The targets of `self` that `other` lacks.
    #[must_use]
    pub(crate) fn without(self, other: TargetSet) -> Self {
        TargetSet(self.0 & !other.0)
    }

    #[must_use]
    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// The targets that own the folder a skill sits in (design.md §4, "Which targets").
#[must_use]
pub(crate) fn default_targets_for(path: &Path) -> Vec<Target> {
    let components: Vec<&str> = path
        .components()
        .filter_map(|component| component.as_os_str().to_str())
        .collect();
    for pair in components.windows(2).rev() {
        if pair[1] != "skills" {
            continue;
        }
        let owner = match pair[0] {
            ".claude" => Target::ClaudeCode,
            ".codex" => Target::Codex,
            ".github" => Target::Copilot,
            ".opencode" => Target::OpenCode,
            ".gemini" => Target::Gemini,
            _ => continue,
        };
        return vec![owner];
    }
    vec![Target::AgentSkills]
}

/// What a finding does to one client.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Effect {
    /// The client loads the skill as if nothing were wrong.
    Load,
    /// The client is fine with it, and does something worth saying: (singular, plural) phrases.
    Fine(&'static str, &'static str),
    /// The client never reads this field.
    Ignore,
    /// The loader drops the skill.
    Skip,
    /// A validator or upload refuses the skill.
    Reject,
    /// The client loads the skill but reads the value wrongly.
    Misread,
    /// The client loads the skill in a lesser form: (singular, plural) verb phrases.
    Degrade(&'static str, &'static str),
}

impl Effect {
    /// True when the client is hurt by the finding.
    #[must_use]
    pub(crate) fn affects(self) -> bool {
        !matches!(self, Effect::Load | Effect::Ignore | Effect::Fine(..))
    }

    /// True when the client would skip, reject or misread the skill.
    #[must_use]
    pub(crate) fn is_breaking(self) -> bool {
        matches!(self, Effect::Skip | Effect::Reject | Effect::Misread)
    }

    fn phrase(self, plural: bool) -> &'static str {
        match (self, plural) {
            (Effect::Load, false) => "loads it",
            (Effect::Load, true) => "load it",
            (Effect::Ignore, false) => "ignores it",
            (Effect::Ignore, true) => "ignore it",
            (Effect::Skip, false) => "skips this skill",
            (Effect::Skip, true) => "skip this skill",
            (Effect::Reject, false) => "rejects it",
            (Effect::Reject, true) => "reject it",
            (Effect::Misread, false) => "misreads the value",
            (Effect::Misread, true) => "misread the value",
            (Effect::Degrade(singular, _) | Effect::Fine(singular, _), false) => singular,
            (Effect::Degrade(_, plural) | Effect::Fine(_, plural), true) => plural,
        }
    }
}

/// Joins names as `A`, `A and B`, `A, B and C`.
#[must_use]
pub(crate) fn join_names(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The closing words of a message: how each selected target takes the finding, grouped, hurt
/// clients first, e.g. `Codex and skills-ref skip this skill; Claude Code loads it`.
#[must_use]
pub(crate) fn consequence(effects: &[(Target, Effect)]) -> String {
    let mut groups: Vec<(Effect, Vec<&str>)> = Vec::new();
    let mut ordered: Vec<&(Target, Effect)> = effects.iter().collect();
    // Hurt clients first, in a stable order.
    ordered.sort_by_key(|(target, effect)| (!effect.affects(), !effect.is_breaking(), *target));
    for (target, effect) in ordered {
        match groups.iter_mut().find(|(existing, _)| existing == effect) {
            Some((_, names)) => names.push(target.display()),
            None => groups.push((*effect, vec![target.display()])),
        }
    }
    groups
        .iter()
        .map(|(effect, names)| format!("{} {}", join_names(names), effect.phrase(names.len() > 1)))
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_sets_hold_each_target_alone() {
        for target in ALL_TARGETS {
            let one = TargetSet::of([target]);
            assert!(TargetSet::ALL.contains(target) && one.contains(target));
            assert_eq!(one.with(target), one);
            for other in ALL_TARGETS.into_iter().filter(|other| *other != target) {
                assert!(!one.contains(other), "{target} {other}");
                assert_eq!(one.with(other).without(one), TargetSet::of([other]));
                assert_eq!(one.without(TargetSet::of([other])), one);
            }
        }
        assert!(TargetSet::NONE.is_empty() && !TargetSet::ALL.is_empty());
        assert_eq!(TargetSet::of(ALL_TARGETS), TargetSet::ALL);
    }

    #[test]
    fn folders_pick_their_owner() {
        assert_eq!(
            default_targets_for(Path::new("repo/.claude/skills/pdf/SKILL.md")),
            vec![Target::ClaudeCode]
        );
        assert_eq!(
            default_targets_for(Path::new(".github/skills/x/SKILL.md")),
            vec![Target::Copilot]
        );
        assert_eq!(
            default_targets_for(Path::new("skills/pdf/SKILL.md")),
            vec![Target::AgentSkills]
        );
        assert_eq!(
            default_targets_for(Path::new(".agents/skills/pdf/SKILL.md")),
            vec![Target::AgentSkills]
        );
    }

    #[test]
    fn consequence_groups_and_agrees_in_number() {
        let text = consequence(&[
            (Target::ClaudeCode, Effect::Load),
            (Target::Codex, Effect::Skip),
            (Target::Copilot, Effect::Skip),
            (Target::AgentSkills, Effect::Reject),
        ]);
        assert_eq!(
            text,
            "skills-ref rejects it; Codex and Copilot skip this skill; Claude Code loads it"
        );
    }
}
