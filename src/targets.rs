//! The clients that read skills (design.md §4, `docs/clients.md`) and how a finding
//! affects each of them, in words. Which fields each client reads is in `field_table::FIELDS`.

use std::fmt;
use std::path::Path;

/// A client that reads skills. The clients a run checks against are its targets (`--target`,
/// the config's `targets`, or the owner of a skill's folder); `agentskills`, the open
/// specification's reference validator, counts as one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Client {
    AgentSkills,
    ClaudeUpload,
    ClaudeCode,
    Codex,
    Copilot,
    OpenCode,
    Gemini,
}

pub const ALL_CLIENTS: [Client; 7] = [
    Client::AgentSkills,
    Client::ClaudeUpload,
    Client::ClaudeCode,
    Client::Codex,
    Client::Copilot,
    Client::OpenCode,
    Client::Gemini,
];

impl Client {
    #[must_use]
    pub(crate) fn id(self) -> &'static str {
        match self {
            Client::AgentSkills => "agentskills",
            Client::ClaudeUpload => "claude-upload",
            Client::ClaudeCode => "claude-code",
            Client::Codex => "codex",
            Client::Copilot => "copilot",
            Client::OpenCode => "opencode",
            Client::Gemini => "gemini",
        }
    }

    /// The client's name as a user knows it.
    #[must_use]
    pub(crate) fn display(self) -> &'static str {
        match self {
            Client::AgentSkills => "skills-ref",
            Client::ClaudeUpload => "claude.ai upload",
            Client::ClaudeCode => "Claude Code",
            Client::Codex => "Codex",
            Client::Copilot => "Copilot",
            Client::OpenCode => "OpenCode",
            Client::Gemini => "Gemini CLI",
        }
    }

    #[must_use]
    pub(crate) fn parse(id: &str) -> Option<Self> {
        ALL_CLIENTS.into_iter().find(|target| target.id() == id)
    }

    /// Whether a key the client does not know makes it reject the skill.
    #[must_use]
    pub(crate) fn rejects_unknown_fields(self) -> bool {
        matches!(self, Client::AgentSkills | Client::ClaudeUpload)
    }

    /// The verb for "will not use this skill": validators and uploads reject, loaders skip.
    #[must_use]
    pub(crate) fn refusal(self) -> Effect {
        match self {
            Client::AgentSkills | Client::ClaudeUpload => Effect::Reject,
            _ => Effect::Skip,
        }
    }
}

impl fmt::Display for Client {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.id())
    }
}

/// A set of targets, as bits. The loader is told with one which clients' own readings of a
/// SKILL.md to compute (`workspace::loader`): each costs a parse, and only that client's
/// listing uses it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClientSet(u8);

impl ClientSet {
    pub(crate) const NONE: ClientSet = ClientSet(0);
    pub(crate) const ALL: ClientSet = ClientSet((1 << ALL_CLIENTS.len()) - 1);

    #[must_use]
    pub(crate) fn of(targets: impl IntoIterator<Item = Client>) -> Self {
        targets.into_iter().fold(Self::NONE, ClientSet::with)
    }

    #[must_use]
    pub(crate) fn with(self, target: Client) -> Self {
        ClientSet(self.0 | 1 << target as u8)
    }

    #[must_use]
    pub(crate) fn contains(self, target: Client) -> bool {
        self.0 & 1 << target as u8 != 0
    }

    /// The targets of `self` that `other` lacks.
    #[must_use]
    pub(crate) fn without(self, other: ClientSet) -> Self {
        ClientSet(self.0 & !other.0)
    }

    #[must_use]
    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// The targets that own the folder a skill sits in (design.md §4, "Which targets").
#[must_use]
pub(crate) fn default_targets_for(path: &Path) -> Vec<Client> {
    let components: Vec<&str> = path
        .components()
        .filter_map(|component| component.as_os_str().to_str())
        .collect();
    for pair in components.windows(2).rev() {
        if pair[1] != "skills" {
            continue;
        }
        let owner = match pair[0] {
            ".claude" => Client::ClaudeCode,
            ".codex" => Client::Codex,
            ".github" => Client::Copilot,
            ".opencode" => Client::OpenCode,
            ".gemini" => Client::Gemini,
            _ => continue,
        };
        return vec![owner];
    }
    vec![Client::AgentSkills]
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
pub(crate) fn consequence(effects: &[(Client, Effect)]) -> String {
    let mut groups: Vec<(Effect, Vec<&str>)> = Vec::new();
    let mut ordered: Vec<&(Client, Effect)> = effects.iter().collect();
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
        for target in ALL_CLIENTS {
            let one = ClientSet::of([target]);
            assert!(ClientSet::ALL.contains(target) && one.contains(target));
            assert_eq!(one.with(target), one);
            for other in ALL_CLIENTS.into_iter().filter(|other| *other != target) {
                assert!(!one.contains(other), "{target} {other}");
                assert_eq!(one.with(other).without(one), ClientSet::of([other]));
                assert_eq!(one.without(ClientSet::of([other])), one);
            }
        }
        assert!(ClientSet::NONE.is_empty() && !ClientSet::ALL.is_empty());
        assert_eq!(ClientSet::of(ALL_CLIENTS), ClientSet::ALL);
    }

    #[test]
    fn folders_pick_their_owner() {
        assert_eq!(
            default_targets_for(Path::new("repo/.claude/skills/pdf/SKILL.md")),
            vec![Client::ClaudeCode]
        );
        assert_eq!(
            default_targets_for(Path::new(".github/skills/x/SKILL.md")),
            vec![Client::Copilot]
        );
        assert_eq!(
            default_targets_for(Path::new("skills/pdf/SKILL.md")),
            vec![Client::AgentSkills]
        );
        assert_eq!(
            default_targets_for(Path::new(".agents/skills/pdf/SKILL.md")),
            vec![Client::AgentSkills]
        );
    }

    #[test]
    fn consequence_groups_and_agrees_in_number() {
        let text = consequence(&[
            (Client::ClaudeCode, Effect::Load),
            (Client::Codex, Effect::Skip),
            (Client::Copilot, Effect::Skip),
            (Client::AgentSkills, Effect::Reject),
        ]);
        assert_eq!(
            text,
            "skills-ref rejects it; Codex and Copilot skip this skill; Claude Code loads it"
        );
    }
}
