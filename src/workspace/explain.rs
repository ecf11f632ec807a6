//! "Why is my skill invisible?": what each client does with one skill of a workspace — the root
//! it reads the skill from, whether another skill shadows it, whether its listing shows the skill
//! and with which text, and who can invoke it. Read off the same client listing that
//! `catalog --target` prints and the client oracles check, so the answer cannot drift from it.
//! `skill-lsp explain` and the hover on `name` both print [`render`].

use std::path::{Path, PathBuf};

use crate::clients::{Fate, Hidden};
use crate::targets::{Client, join_names};

use super::catalog::{ClientListing, installed_listing};
use super::loader::{DEFAULT_ROOTS, root_readers};
use super::plugins::{Plugin, plugin_skill};
use super::registry::{Refusal, Registry, Skill};

/// The clients that list skills to a model, in the order answers are given.
pub(crate) const CLIENTS: [Client; 5] = crate::clients::MODELLED;

/// The clients to explain for: those of an outright selection (`--target`, the config's
/// `targets`, the editor's setting), else every client.
#[must_use]
pub(crate) fn clients_for(selected: Option<&[Client]>) -> Vec<Client> {
    let chosen: Vec<Client> = selected
        .unwrap_or_default()
        .iter()
        .copied()
        .filter(|target| CLIENTS.contains(target))
        .collect();
    if chosen.is_empty() {
        CLIENTS.to_vec()
    } else {
        chosen
    }
}

/// What one client does with the skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClientView {
    pub target: Client,
    /// The root of this workspace the client reads the skill from; `None` when none does.
    pub root: Option<PathBuf>,
    pub presence: Presence,
    pub model: Invocation,
    /// `None` where how the user invokes a skill in that client is not modelled.
    pub user: Option<Invocation>,
    /// The Claude Code plugin the client lists the skill with, once installed.
    pub plugin: Option<PluginNote>,
}

/// The plugin a skill comes with, as an answer names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PluginNote {
    pub name: String,
    pub marketplace: Option<String>,
    /// What installs it: `claude plugin install entry@marketplace`, or `claude --plugin-dir`.
    pub install: String,
}

impl PluginNote {
    fn of(plugin: &Plugin) -> Self {
        Self {
            name: plugin.name.clone(),
            marketplace: plugin.marketplace.clone(),
            install: plugin.install_command(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Presence {
    /// In the model's listing.
    Listed {
        /// The name the model sees.
        name: String,
        /// The text the model sees; `None` when listed by name only.
        description: Option<String>,
        fate: Fate,
        /// Characters of the whole text, as the client counts them.
        full_chars: usize,
    },
    /// Read, and kept out of the listing: `reason` is a stable id, `why` its words.
    Omitted { reason: &'static str, why: String },
    /// No root the client reads holds the skill; `reads` are the default roots it scans.
    /// `plugin` names the Claude Code plugin it comes with, which this client does not load.
    NotRead {
        reads: Vec<&'static str>,
        plugin: Option<String>,
    },
    /// A root of the client holds it and the client's reading leaves it out.
    Dropped { why: String },
}

/// Whether someone can invoke the skill, and why (or why not).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Invocation {
    pub can: bool,
    pub why: String,
}

impl Invocation {
    fn yes(why: impl Into<String>) -> Self {
        Self {
            can: true,
            why: why.into(),
        }
    }

    fn no(why: impl Into<String>) -> Self {
        Self {
            can: false,
            why: why.into(),
        }
    }
}

/// A path-scoped skill joins Claude Code's skills (for the model and for the slash command)
/// only once a file matching its `paths` is touched.
const NOT_UNTIL_PATHS: &str = "not until a file matching its paths is touched";

/// The default roots a client scans in a project, as written in a workspace.
#[must_use]
pub(crate) fn default_roots_of(target: Client) -> Vec<&'static str> {
    DEFAULT_ROOTS
        .into_iter()
        .filter(|root| {
            root_readers(Path::new(root)).is_some_and(|readers| readers.contains(&target))
        })
        .collect()
}

/// The skills the loader read: the winners and the ones a skill of the same name shadows.
fn registered(registry: &Registry) -> impl Iterator<Item = &Skill> {
    registry
        .skills
        .iter()
        .chain(registry.shadowed.iter().map(|(skill, _)| skill))
}

/// Every SKILL.md the registry knows: registered, shadowed or refused, or a plugin's.
pub(crate) fn skills_in(registry: &Registry) -> impl Iterator<Item = &Path> {
    registered(registry)
        .map(|skill| skill.path.as_path())
        .chain(
            registry
                .refused
                .iter()
                .map(|refused| refused.path.as_path()),
        )
        .chain(
            registry
                .plugins
                .iter()
                .flat_map(|plugin| plugin.skills.iter().map(|skill| skill.path.as_path())),
        )
}

/// Every SKILL.md of the registry that answers to `name`: its frontmatter name, its folder, or
/// a name a client lists it under (`Folder (name)`), registered, shadowed or refused; a
/// plugin's skill also to `plugin:folder` and `plugin:name`, as Claude Code names it.
#[must_use]
pub(crate) fn skills_named(registry: &Registry, name: &str) -> Vec<PathBuf> {
    let listed_as = |folder: &str, display: Option<&str>| {
        display.is_some_and(|display| name == format!("{folder} ({display})"))
    };
    let mut paths: Vec<PathBuf> = Vec::new();
    let mut push = |path: &Path| {
        if !paths.iter().any(|known| known == path) {
            paths.push(path.to_path_buf());
        }
    };
    for skill in registered(registry) {
        if skill.name == name
            || skill.folder == name
            || listed_as(
                &skill.folder,
                skill
                    .readings
                    .claude
                    .as_ref()
                    .and_then(|reading| reading.display_name.as_deref()),
            )
        {
            push(&skill.path);
        }
    }
    for refused in &registry.refused {
        let folder = refused
            .path
            .parent()
            .and_then(Path::file_name)
            .and_then(|folder| folder.to_str());
        if folder == Some(name) {
            push(&refused.path);
        }
    }
    for plugin in &registry.plugins {
        for skill in &plugin.skills {
            let bare = name
                .strip_prefix(plugin.name.as_str())
                .and_then(|rest| rest.strip_prefix(':'))
                .unwrap_or(name);
            if skill.name == bare || skill.folder == bare {
                push(&skill.path);
            }
        }
    }
    paths
}

/// What each of `targets` does with the SKILL.md at `path`, a member of `registry`.
#[must_use]
pub(crate) fn explain(
    registry: &Registry,
    path: &Path,
    targets: &[Client],
    context_window: Option<u64>,
) -> Vec<ClientView> {
    targets
        .iter()
        .map(|&target| {
            let listing = installed_listing(registry, target, context_window);
            view(registry, path, target, &listing)
        })
        .collect()
}

fn view(registry: &Registry, path: &Path, target: Client, listing: &ClientListing) -> ClientView {
    let only_root = registry.roots.len() == 1;
    let project_root = root_of(registry, path).filter(|root| {
        only_root || root_readers(root).is_some_and(|readers| readers.contains(&target))
    });
    // A plugin's skill reaches Claude Code through the plugin unless a root it reads holds it.
    let plugin = plugin_skill(&registry.plugins, path).filter(|_| project_root.is_none());
    let root = project_root.or_else(|| {
        plugin
            .filter(|_| target == Client::ClaudeCode)
            .map(|(_, skill)| skill.root.clone())
    });
    let listed = listing.listed.iter().find(|item| item.path == path);
    let omitted = listing.omitted.iter().find(|item| item.path == path);
    let presence = match (listed, omitted, &root) {
        // A listing only holds skills of roots the client reads.
        (_, _, None) => Presence::NotRead {
            reads: default_roots_of(target),
            plugin: plugin.map(|(plugin, _)| plugin.name.clone()),
        },
        (Some(item), _, _) => Presence::Listed {
            name: item.name.clone(),
            description: (item.fate != Fate::NameOnly).then(|| item.description.clone()),
            fate: item.fate,
            full_chars: item.full_chars,
        },
        (None, Some(item), _) => Presence::Omitted {
            reason: item.reason,
            why: item.why.clone(),
        },
        (None, None, Some(_)) => Presence::Dropped {
            why: dropped_why(registry, path),
        },
    };
    let model = model_invocation(target, &presence);
    let user = if root.is_some() {
        user_invocation(registry, path, target, listing)
    } else {
        user_invocation(registry, path, target, &ClientListing::default())
    };
    ClientView {
        target,
        plugin: plugin
            .filter(|_| target == Client::ClaudeCode)
            .map(|(plugin, _)| PluginNote::of(plugin)),
        root,
        presence,
        model,
        user,
    }
}

/// The root a SKILL.md of the registry was found under.
fn root_of(registry: &Registry, path: &Path) -> Option<PathBuf> {
    registered(registry)
        .find(|skill| skill.path == path)
        .map(|skill| skill.root.clone())
        .or_else(|| {
            registry
                .refused
                .iter()
                .find(|refused| refused.path == path)
                .map(|refused| refused.root.clone())
        })
}

/// Why a client that reads the skill's root lists nothing for it, as the loader saw the file.
fn dropped_why(registry: &Registry, path: &Path) -> String {
    if let Some((_, winner)) = registry
        .shadowed
        .iter()
        .find(|(skill, _)| skill.path == path)
    {
        let winner = &registry.skills[*winner];
        return format!(
            "{} has the same name `{}` and comes first",
            winner.path.display(),
            winner.name
        );
    }
    match registry
        .refused
        .iter()
        .find(|refused| refused.path == path)
        .map(|refused| &refused.refusal)
    {
        Some(Refusal::OutsideRoot { resolved, .. }) => format!(
            "it is a link that leads outside its root, to {}",
            resolved.display()
        ),
        Some(Refusal::NotAFile) => "it is not a regular file".to_owned(),
        Some(Refusal::Unreadable { reason }) => format!("it cannot be read: {reason}"),
        None => "its reading of the file leaves the skill out".to_owned(),
    }
}

fn model_invocation(target: Client, presence: &Presence) -> Invocation {
    let client = target.display();
    match presence {
        Presence::Listed {
            fate: Fate::NameOnly,
            ..
        } => Invocation::yes(format!(
            "{client} lists it by name only, so the model has only the name to go on"
        )),
        Presence::Listed { .. } => Invocation::yes("the model sees it in the listing"),
        Presence::Omitted { reason, .. } if *reason == Hidden::PathScoped.id() => {
            Invocation::no(NOT_UNTIL_PATHS)
        }
        Presence::Omitted { .. } => Invocation::no("it is not in the model's listing"),
        Presence::NotRead { .. } | Presence::Dropped { .. } => {
            Invocation::no(format!("{client} does not load it"))
        }
    }
}

/// How the user invokes the skill, where the client's rule is modelled: Claude Code's slash
/// command, which answers to the name the skill is listed under — the folder, and the
/// frontmatter name shown beside it — unless `user-invocable` turns it off.
fn user_invocation(
    registry: &Registry,
    path: &Path,
    target: Client,
    listing: &ClientListing,
) -> Option<Invocation> {
    if target != Client::ClaudeCode {
        return None;
    }
    let listed_as = listing
        .listed
        .iter()
        .find(|item| item.path == path)
        .map(|item| item.name.as_str())
        .or_else(|| {
            listing
                .omitted
                .iter()
                .find(|item| item.path == path)
                .and_then(|item| item.name.as_deref())
        });
    let Some(listed_as) = listed_as else {
        return Some(Invocation::no("Claude Code does not load it"));
    };
    let reading = registered(registry)
        .find(|skill| skill.path == path)
        .and_then(|skill| skill.readings.claude.as_deref())
        .or_else(|| {
            registry
                .refused
                .iter()
                .find_map(|refused| match &refused.refusal {
                    Refusal::OutsideRoot {
                        readings: Some(readings),
                        ..
                    } if refused.path == path => readings.claude.as_deref(),
                    _ => None,
                })
        })
        .or_else(|| {
            plugin_skill(&registry.plugins, path)
                .and_then(|(_, skill)| skill.readings.claude.as_deref())
        })?;
    if reading.hidden == Some(Hidden::PathScoped) {
        return Some(Invocation::no(NOT_UNTIL_PATHS));
    }
    if reading.hidden_from_user {
        return Some(Invocation::no(
            "user-invocable is false, so there is no slash command",
        ));
    }
    // `Folder (name)`: both answer.
    let commands = match listed_as
        .strip_suffix(')')
        .and_then(|rest| rest.split_once(" ("))
    {
        Some((folder, name)) => format!("/{folder} or /{name}"),
        None => format!("/{listed_as}"),
    };
    Some(Invocation::yes(format!("as {commands}")))
}

/// Long texts are shown by their start: the JSON of `explain` has them whole.
const SHOWN_CHARS: usize = 200;

fn abridged(text: &str) -> String {
    let length = text.chars().count();
    if length <= SHOWN_CHARS + 40 {
        return text.to_owned();
    }
    let start: String = text.chars().take(SHOWN_CHARS).collect();
    format!("{start}… ({length} characters in all)")
}

/// The answer in words, one paragraph per client; Markdown when `markdown`, else plain text.
/// The command line and the hover both print this.
#[must_use]
pub(crate) fn render(views: &[ClientView], markdown: bool, base: Option<&Path>) -> String {
    let code = |text: &str| {
        if markdown {
            format!("`{text}`")
        } else {
            text.to_owned()
        }
    };
    let shown = |path: &Path| {
        let relative = base
            .and_then(|base| path.strip_prefix(base).ok())
            .filter(|relative| !relative.as_os_str().is_empty())
            .unwrap_or(path);
        relative.to_string_lossy().replace('\\', "/")
    };
    let mut out = Vec::new();
    for view in views {
        let client = view.target.display();
        let headline = match &view.presence {
            Presence::Listed {
                name,
                fate: Fate::Full,
                ..
            } => format!("listed as {}", code(name)),
            Presence::Listed {
                name,
                fate: Fate::Capped,
                full_chars,
                ..
            } => format!(
                "listed as {}, its text cut ({full_chars} characters in all)",
                code(name)
            ),
            Presence::Listed {
                name,
                fate: Fate::NameOnly,
                ..
            } => format!(
                "listed as {} by name only: the listing is over its budget",
                code(name)
            ),
            Presence::Listed {
                name,
                fate: Fate::Shortened,
                full_chars,
                ..
            } => format!(
                "listed as {}, its text cut to fit the listing's budget ({full_chars} characters in all)",
                code(name)
            ),
            Presence::Omitted { why, .. } => format!("not listed: {why}"),
            Presence::NotRead { reads, plugin } => {
                let roots: Vec<String> = reads.iter().map(|root| code(root)).collect();
                let roots: Vec<&str> = roots.iter().map(String::as_str).collect();
                match plugin {
                    Some(plugin) => format!(
                        "not loaded: this skill comes with the Claude Code plugin {}, and {client} does not load Claude Code plugins (it reads {})",
                        code(plugin),
                        join_names(&roots)
                    ),
                    None => format!(
                        "not loaded: no root it reads holds this skill (it reads {})",
                        join_names(&roots)
                    ),
                }
            }
            Presence::Dropped { why } => format!("not loaded: {why}"),
        };
        // A plugin's skill: what Claude Code does once the plugin is installed.
        let headline = match &view.plugin {
            Some(plugin) => {
                let from = plugin
                    .marketplace
                    .as_deref()
                    .map(|marketplace| format!(" from the marketplace {}", code(marketplace)))
                    .unwrap_or_default();
                let once = format!(
                    "once the plugin {}{from} is installed ({})",
                    code(&plugin.name),
                    code(&plugin.install)
                );
                match &view.presence {
                    Presence::Omitted { why, .. } => format!("not listed, {once}: {why}"),
                    _ => format!("{headline}, {once}"),
                }
            }
            None => headline,
        };
        let title = if markdown {
            format!("**{client}**")
        } else {
            client.to_owned()
        };
        let mut lines = vec![format!("{title}: {headline}")];
        if let Some(root) = &view.root {
            lines.push(format!("  read from {}", code(&shown(root))));
        }
        if let Presence::Listed {
            description: Some(description),
            ..
        } = &view.presence
        {
            lines.push(format!("  the model sees: {}", abridged(description)));
        }
        let can = |invocation: &Invocation| if invocation.can { "yes" } else { "no" };
        lines.push(format!(
            "  invoked by the model: {} ({})",
            can(&view.model),
            view.model.why
        ));
        if let Some(user) = &view.user {
            lines.push(format!(
                "  invoked by the user: {} ({})",
                can(user),
                user.why
            ));
        }
        let separator = if markdown { "  \n" } else { "\n" };
        out.push(lines.join(separator));
    }
    out.join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::targets::ClientSet;
    use crate::workspace::Skill;
    use crate::workspace::loader::read_metadata;

    /// A workspace at `/w` with the default roots and these `(root, folder, text)` skills.
    fn registry(skills: &[(&str, &str, &str)]) -> Registry {
        let mut registry = Registry::default();
        registry.roots = DEFAULT_ROOTS
            .iter()
            .map(|root| Path::new("/w").join(root))
            .collect();
        for (root, folder, text) in skills {
            let root = Path::new("/w").join(root);
            registry.add(Skill::new(
                read_metadata(text, folder, ClientSet::ALL),
                root.join(folder).join("SKILL.md"),
                root,
                (*folder).to_owned(),
            ));
        }
        registry
    }

    fn path(root: &str, folder: &str) -> PathBuf {
        Path::new("/w").join(root).join(folder).join("SKILL.md")
    }

    #[test]
    fn claude_code_names_by_folder_and_other_clients_do_not_read_its_root() {
        let registry = registry(&[(
            ".claude/skills",
            "Growth-Scout",
            "---\nname: growth-scout\ndescription: Finds <growth> ideas.\n---\nb\n",
        )]);
        let skill = path(".claude/skills", "Growth-Scout");
        for name in [
            "Growth-Scout (growth-scout)",
            "growth-scout",
            "Growth-Scout",
        ] {
            assert_eq!(skills_named(&registry, name), std::slice::from_ref(&skill));
        }
        let views = explain(
            &registry,
            &skill,
            &[Client::ClaudeCode, Client::Codex],
            None,
        );
        assert_eq!(
            views[0].presence,
            Presence::Listed {
                name: "Growth-Scout (growth-scout)".into(),
                description: Some("Finds &lt;growth&gt; ideas.".into()),
                fate: Fate::Full,
                full_chars: 27,
            }
        );
        assert_eq!(
            views[0].root.as_deref(),
            Some(Path::new("/w/.claude/skills"))
        );
        assert_eq!(
            views[0].user,
            Some(Invocation::yes("as /Growth-Scout or /growth-scout"))
        );
        assert_eq!(
            views[1].presence,
            Presence::NotRead {
                reads: vec![".agents/skills", ".codex/skills"],
                plugin: None,
            }
        );
        assert!(!views[1].model.can);
        assert_eq!(views[1].user, None);
        let text = render(&views, false, Some(Path::new("/w")));
        assert!(text.starts_with("Claude Code: listed as Growth-Scout (growth-scout)\n  read from .claude/skills\n  the model sees: Finds &lt;growth&gt; ideas."), "{text}");
        assert!(text.contains("Codex: not loaded: no root it reads holds this skill (it reads .agents/skills and .codex/skills)"), "{text}");
    }

    #[test]
    fn hidden_skills_say_who_can_invoke_them() {
        let registry = registry(&[
            (
                ".claude/skills",
                "manual",
                "---\nname: manual\ndescription: By hand.\ndisable-model-invocation: true\n---\n",
            ),
            (
                ".claude/skills",
                "auto",
                "---\nname: auto\ndescription: By model.\nuser-invocable: false\n---\n",
            ),
        ]);
        let manual = explain(
            &registry,
            &path(".claude/skills", "manual"),
            &[Client::ClaudeCode],
            None,
        );
        assert_eq!(
            manual[0].presence,
            Presence::Omitted {
                reason: "model-invocation-disabled",
                why: Hidden::ModelInvocationDisabled.describe().to_owned(),
            }
        );
        assert!(!manual[0].model.can);
        assert!(manual[0].user.as_ref().is_some_and(|user| user.can));
        let auto = explain(
            &registry,
            &path(".claude/skills", "auto"),
            &[Client::ClaudeCode],
            None,
        );
        assert!(auto[0].model.can);
        assert_eq!(
            auto[0].user,
            Some(Invocation::no(
                "user-invocable is false, so there is no slash command"
            ))
        );
    }

    #[test]
    fn a_shadowed_skill_names_its_winner() {
        let registry = registry(&[
            (
                ".agents/skills",
                "one",
                "---\nname: same\ndescription: First.\n---\n",
            ),
            (
                ".agents/skills",
                "two",
                "---\nname: same\ndescription: Second.\n---\n",
            ),
        ]);
        // Copilot keeps the first skill of a name; Codex lists both.
        let views = explain(
            &registry,
            &path(".agents/skills", "two"),
            &[Client::Copilot, Client::Codex],
            None,
        );
        match &views[0].presence {
            Presence::Omitted { reason, why } => {
                assert_eq!(*reason, "shadowed");
                assert!(why.contains("one/SKILL.md"), "{why}");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(views[1].presence, Presence::Listed { .. }));
        assert_eq!(skills_named(&registry, "same").len(), 2);
    }

    #[test]
    fn long_texts_are_shown_by_their_start() {
        assert_eq!(abridged("short"), "short");
        let long = "é".repeat(1_000);
        let shown = abridged(&long);
        assert!(shown.ends_with("… (1000 characters in all)"), "{shown}");
        assert_eq!(shown.chars().take_while(|c| *c == 'é').count(), SHOWN_CHARS);
    }

    #[test]
    fn selection_keeps_clients_only() {
        assert_eq!(clients_for(None), CLIENTS);
        assert_eq!(clients_for(Some(&[Client::AgentSkills])), CLIENTS);
        assert_eq!(
            clients_for(Some(&[Client::AgentSkills, Client::Gemini])),
            [Client::Gemini]
        );
    }
}
