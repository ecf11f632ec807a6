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
    pub const NONE: ClientSet = ClientSet(0);
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

/// The clients that scan a project's client folder `<name>/skills`, as measured against each
/// client (`clients`, `tests/clients`): Claude Code reads `.claude/skills`; Codex
/// `.agents/skills` and `.codex/skills`; Copilot `.github/skills`, `.agents/skills` and
/// `.claude/skills`; OpenCode `.claude/skills`, `.agents/skills` and `.opencode/skills`; Gemini
/// CLI `.gemini/skills` and `.agents/skills` (each client's own order is in
/// `workspace::catalog`). `.agents/skills` is also the open specification's own folder.
#[must_use]
pub(crate) fn folder_readers(name: &str) -> Option<&'static [Client]> {
    CLIENT_FOLDERS
        .iter()
        .find(|(folder, _)| *folder == name)
        .map(|(_, readers)| *readers)
}

/// Each client folder whose `skills` folder a project's clients scan, and those clients.
const CLIENT_FOLDERS: [(&str, &[Client]); 6] = [
    (
        ".claude",
        &[Client::ClaudeCode, Client::Copilot, Client::OpenCode],
    ),
    (
        ".agents",
        &[
            Client::AgentSkills,
            Client::Codex,
            Client::Copilot,
            Client::OpenCode,
            Client::Gemini,
        ],
    ),
    (".codex", &[Client::Codex]),
    (".github", &[Client::Copilot]),
    (".opencode", &[Client::OpenCode]),
    (".gemini", &[Client::Gemini]),
];

/// The validators: a skill they reject still loads in every client, so their verdict is a
/// portability question (publishing to a registry, uploading) unless a user chose them.
pub(crate) const VALIDATORS: [Client; 2] = [Client::AgentSkills, Client::ClaudeUpload];

/// Where a SKILL.md lives, which says who reads it when no target was chosen (design.md §4,
/// "Which targets").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Home {
    /// A Claude Code plugin's skill: Claude Code reads it, once the plugin is installed.
    Plugin,
    /// A project's client folder (`.claude`, `.agents`, …, holding `skills`): the clients
    /// that scan it.
    ClientFolder(&'static str),
    /// Anywhere else, such as a collection's top-level `skills/`: a skill to be installed in
    /// any client, judged for portability.
    Portable,
}

impl Home {
    /// Where the SKILL.md at `path` lives; `is_plugin` says whether a folder is a plugin's root
    /// (the folder above a `skills/` folder), which takes the file system to answer.
    #[must_use]
    pub(crate) fn of(path: &Path, is_plugin: &dyn Fn(&Path) -> bool) -> Self {
        let components: Vec<&str> = path
            .components()
            .filter_map(|component| component.as_os_str().to_str())
            .collect();
        for pair in components.windows(2).rev() {
            if pair[1] != "skills" {
                continue;
            }
            if let Some((name, _)) = CLIENT_FOLDERS.iter().find(|(name, _)| *name == pair[0]) {
                return Self::ClientFolder(name);
            }
        }
        let skills_root = path.parent().and_then(Path::parent);
        let plugin_root = skills_root
            .filter(|root| root.file_name().is_some_and(|name| name == "skills"))
            .and_then(Path::parent);
        match plugin_root {
            Some(root) if is_plugin(root) => Self::Plugin,
            _ => Self::Portable,
        }
    }

    /// The clients a skill living here is checked for, and which of them are validators whose
    /// rejection is a portability warning rather than an error.
    #[must_use]
    pub(crate) fn readers(self) -> (Vec<Client>, ClientSet) {
        match self {
            Self::Plugin => (vec![Client::ClaudeCode], ClientSet::NONE),
            Self::ClientFolder(name) => {
                let readers = folder_readers(name).unwrap_or(&[]).to_vec();
                let advisory = ClientSet::of(
                    readers
                        .iter()
                        .copied()
                        .filter(|client| VALIDATORS.contains(client)),
                );
                (readers, advisory)
            }
            // The upload's own limits are left to those who upload (`--target claude-upload`).
            Self::Portable => (
                ALL_CLIENTS
                    .into_iter()
                    .filter(|client| *client != Client::ClaudeUpload)
                    .collect(),
                ClientSet::of([Client::AgentSkills]),
            ),
        }
    }

    /// How a group of skills living here is named in a summary: `plugin skills`,
    /// `.claude/skills skills`, `portable skills`.
    #[must_use]
    pub(crate) fn describe(self) -> String {
        match self {
            Self::Plugin => "plugin skills".to_owned(),
            Self::ClientFolder(name) => format!("{name}/skills skills"),
            Self::Portable => "portable skills".to_owned(),
        }
    }
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
    // Hurt clients first, then those with something to say, then those that ignore the field,
    // and those that simply load the skill last; in a stable order within each.
    let rank = |effect: &Effect| match effect {
        Effect::Skip | Effect::Reject | Effect::Misread => 0,
        Effect::Degrade(..) => 1,
        Effect::Fine(..) => 2,
        Effect::Ignore => 3,
        Effect::Load => 4,
    };
    ordered.sort_by_key(|(target, effect)| (rank(effect), *target));
    for (target, effect) in ordered {
        match groups.iter_mut().find(|(existing, _)| existing == effect) {
            Some((_, names)) => names.push(target.display()),
            None => groups.push((*effect, vec![target.display()])),
        }
    }
    let last = groups.len().saturating_sub(1);
    groups
        .iter()
        .enumerate()
        .map(|(at, (effect, names))| {
            // Several clients that simply load it, after those with more to say, are "the
            // others": naming five clients that see nothing wrong buries the one that does.
            if at == last && at > 0 && *effect == Effect::Load && names.len() > 1 {
                "the others load it".to_owned()
            } else {
                format!("{} {}", join_names(names), effect.phrase(names.len() > 1))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// What closes a message that only validators nobody chose object to: when their verdict
/// matters. Empty otherwise.
#[must_use]
pub(crate) fn portability_note(effects: &[(Client, Effect)], advisory: ClientSet) -> &'static str {
    let breaks = |advised: bool| {
        effects
            .iter()
            .any(|(client, effect)| effect.is_breaking() && advisory.contains(*client) == advised)
    };
    if breaks(true) && !breaks(false) {
        " (only a validator objects: this matters when publishing to a registry)"
    } else {
        ""
    }
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
    fn a_skill_is_read_by_the_clients_of_where_it_lives() {
        let no_plugin = |_: &Path| false;
        let home = |path: &str| Home::of(Path::new(path), &no_plugin);
        assert_eq!(
            home("repo/.claude/skills/pdf/SKILL.md"),
            Home::ClientFolder(".claude")
        );
        assert_eq!(
            home("repo/.claude/skills/pdf/SKILL.md").readers(),
            (
                vec![Client::ClaudeCode, Client::Copilot, Client::OpenCode],
                ClientSet::NONE
            )
        );
        assert_eq!(
            home(".agents/skills/pdf/SKILL.md").readers().1,
            ClientSet::of([Client::AgentSkills])
        );
        assert_eq!(
            home(".github/skills/x/SKILL.md"),
            Home::ClientFolder(".github")
        );
        assert_eq!(home("skills/pdf/SKILL.md"), Home::Portable);
        let (portable, advisory) = Home::Portable.readers();
        assert!(!portable.contains(&Client::ClaudeUpload) && portable.len() == 6);
        assert_eq!(advisory, ClientSet::of([Client::AgentSkills]));
        // A plugin: the folder above `skills/` is a plugin root.
        let plugin = |root: &Path| root.ends_with("plugins/deploy");
        assert_eq!(
            Home::of(Path::new("m/plugins/deploy/skills/x/SKILL.md"), &plugin),
            Home::Plugin
        );
        assert_eq!(
            Home::of(Path::new("m/plugins/deploy/other/x/SKILL.md"), &plugin),
            Home::Portable
        );
        assert_eq!(
            Home::Plugin.readers(),
            (vec![Client::ClaudeCode], ClientSet::NONE)
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
        let text = consequence(&[
            (Client::ClaudeCode, Effect::Load),
            (Client::Codex, Effect::Load),
            (Client::Gemini, Effect::Load),
            (Client::Copilot, Effect::Skip),
        ]);
        assert_eq!(text, "Copilot skips this skill; the others load it");
    }

    #[test]
    fn only_validators_nobody_chose_make_a_portability_note() {
        let advisory = ClientSet::of([Client::AgentSkills]);
        let rejected = [
            (Client::AgentSkills, Effect::Reject),
            (Client::ClaudeCode, Effect::Load),
        ];
        assert!(portability_note(&rejected, advisory).contains("registry"));
        assert_eq!(portability_note(&rejected, ClientSet::NONE), "");
        let skipped = [
            (Client::AgentSkills, Effect::Reject),
            (Client::Copilot, Effect::Skip),
        ];
        assert_eq!(portability_note(&skipped, advisory), "");
    }
}
