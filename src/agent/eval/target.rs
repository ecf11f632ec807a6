//! `eval --target CLIENT`: the routing step sent the catalog as that client lists it
//! (`workspace::catalog::installed_listing`, its shape from `client_prompt`): its names, its cut
//! descriptions, its budget, the skills it leaves out. The model still loads with our
//! `load_skill`, called with a name the client lists; a load of that name counts for the skill
//! listed under it. A candidate description is written into the SKILL.md's text and read by
//! the client as it would read the file so written, so a rewrite the client cuts is measured
//! cut.

use std::collections::HashMap;
use std::path::Path;

use serde::Serialize;

use crate::clients::{Fate, Readings};
use crate::targets::{ALL_CLIENTS, Client, ClientSet};
use crate::text::thousands;
use crate::workspace::catalog::{call_names, client_prompt, installed_listing};
use crate::workspace::explain::{Presence, explain};
use crate::workspace::registry::Refusal;
use crate::workspace::{Registry, Source};

/// How many characters of what the model saw a note quotes.
const QUOTED_CHARS: usize = 60;

/// Whether `eval --target` can measure under `target`: a client that lists skills to a model,
/// not a validator.
#[must_use]
pub(crate) fn lists_to_a_model(target: Client) -> bool {
    !matches!(target, Client::AgentSkills | Client::ClaudeUpload)
}

/// A target as `catalog --target` spells it, for `eval --target` and `skill/runEvals`'s
/// `target`: one client that lists skills to a model.
///
/// # Errors
/// An unknown id, or a validator's, in words that list the ids taken.
pub(crate) fn parse(id: &str) -> Result<Client, String> {
    let ids = || {
        ALL_CLIENTS
            .into_iter()
            .filter(|client| lists_to_a_model(*client))
            .map(Client::id)
            .collect::<Vec<_>>()
            .join(", ")
    };
    match Client::parse(id.trim()) {
        Some(target) if lists_to_a_model(target) => Ok(target),
        Some(target) => Err(format!(
            "{target} ({}) lists no skills to a model; evals measure a client that does: {}",
            target.display(),
            ids()
        )),
        None => Err(format!("unknown target '{id}'; expected one of: {}", ids())),
    }
}

/// The client whose listing a routing step is sent (`eval --target`), and the model's context
/// window that client figures its listing budget from (`--context-window`; `None`: the
/// client's default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Target {
    pub client: Client,
    pub context_window: Option<u64>,
}

impl From<Client> for Target {
    fn from(client: Client) -> Self {
        Self {
            client,
            context_window: None,
        }
    }
}

/// What the routing step of one skill is sent under a target, and how its loads count.
#[derive(Clone, Debug)]
pub(crate) struct Routing {
    /// The client's listing, in its shape, for the system prompt.
    pub catalog: String,
    /// The names `load_skill` takes: those the client lists.
    pub names: Vec<String>,
    /// Each name the model may load by, and the skill (its name in the registry) a load of it
    /// counts for.
    pub loads: HashMap<String, String>,
    /// What the client did with the skill under test.
    pub view: TargetView,
}

/// What the target did with the skill under test: listed it (whole, cut, by name only), or
/// left it out. The `target` object of each skill in `eval --format json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct TargetView {
    /// The client's id, as `--target` spells it.
    pub client: &'static str,
    /// The client release whose listing is modelled.
    pub measured_with: Option<String>,
    /// `listed`; `omitted` (loaded and kept out of the model's listing), `not-loaded` (the
    /// client drops the file) or `not-read` (no root the client reads holds it).
    pub presence: &'static str,
    /// The name the client lists it under (the model loads it by this name).
    pub listed_as: Option<String>,
    /// `full`, `capped`, `shortened` or `name-only`, when listed.
    pub fate: Option<&'static str>,
    /// The description as the model saw it; `None` when it saw none.
    pub seen: Option<String>,
    /// Characters of the description the model saw, before any mark of the cut.
    pub seen_chars: Option<usize>,
    /// Characters of the whole text, as the client counts them.
    pub full_chars: Option<usize>,
    /// Why it is left out, as a stable id, when it is.
    pub reason: Option<&'static str>,
    /// What the client did, in a sentence, when it cut or dropped the skill; `None` when the
    /// model saw the whole description.
    pub note: Option<String>,
}

/// The routing step of the skill at `path` (named `skill` in the registry) as `target` lists
/// the registry.
#[must_use]
pub(crate) fn routing(registry: &Registry, target: Target, path: &Path, skill: &str) -> Routing {
    let Target {
        client: target,
        context_window,
    } = target;
    // As `explain` answers: with the workspace's plugins installed.
    let listing = installed_listing(registry, target, context_window);
    let mut names = Vec::new();
    let mut loads = HashMap::new();
    for item in &listing.listed {
        let counts_for = if item.path == path {
            skill.to_owned()
        } else {
            registry
                .skills
                .iter()
                .find(|entry| entry.path == item.path)
                .map_or_else(|| item.name.clone(), |entry| entry.name.clone())
        };
        let callable = call_names(target, item);
        // `folder (name)` is no name to call, but a model that copies the line still loads it.
        let offered = if callable.len() > 1 {
            &callable[..callable.len() - 1]
        } else {
            &callable[..]
        };
        for name in offered {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
        for name in callable {
            loads.entry(name).or_insert_with(|| counts_for.clone());
        }
    }
    let presence = explain(registry, path, &[target], context_window)
        .into_iter()
        .next()
        .map_or(
            Presence::NotRead {
                reads: Vec::new(),
                plugin: None,
            },
            |view| view.presence,
        );
    let view = TargetView::of(target, presence);
    Routing {
        catalog: client_prompt(target, &listing),
        names,
        loads,
        view,
    }
}

impl TargetView {
    fn of(target: Client, presence: Presence) -> Self {
        let client = target.display();
        let mut view = Self {
            client: target.id(),
            measured_with: crate::clients::measured_with(target),
            presence: "listed",
            listed_as: None,
            fate: None,
            seen: None,
            seen_chars: None,
            full_chars: None,
            reason: None,
            note: None,
        };
        match presence {
            Presence::Listed {
                name,
                description,
                fate,
                full_chars,
            } => {
                let kept = description.as_deref().map(|text| match fate {
                    // The cap's mark is the client's, not the skill's.
                    Fate::Capped => text
                        .strip_suffix('…')
                        .or_else(|| text.strip_suffix("..."))
                        .unwrap_or(text),
                    _ => text,
                });
                let seen_chars = kept.map(|text| text.chars().count());
                view.note = match (fate, kept) {
                    (Fate::Full, _) => None,
                    (Fate::Capped | Fate::Shortened, Some(kept)) => Some(format!(
                        "{client} cuts this description at {} of its {} characters: the model saw “{}”",
                        thousands(seen_chars.unwrap_or_default() as u64),
                        thousands(full_chars as u64),
                        tail(kept)
                    )),
                    _ => Some(format!(
                        "{client} lists this skill by name only, as '{name}' (its listing is over its budget): the model saw no description"
                    )),
                };
                view.listed_as = Some(name);
                view.fate = Some(fate.id());
                view.seen = description;
                view.seen_chars = seen_chars;
                view.full_chars = Some(full_chars);
            }
            Presence::Omitted { reason, why } => {
                view.presence = "omitted";
                view.reason = Some(reason);
                view.note = Some(format!(
                    "{client} leaves this skill out of the model's listing ({why}): the model cannot load it"
                ));
            }
            Presence::Dropped { why } => {
                view.presence = "not-loaded";
                view.note = Some(format!(
                    "{client} does not load this skill ({why}): the model cannot load it"
                ));
            }
            Presence::NotRead {
                reads,
                plugin: Some(plugin),
            } => {
                view.presence = "not-read";
                view.note = Some(format!(
                    "{client} does not load Claude Code plugins, and this skill comes with the plugin {plugin} (it reads {}): the model cannot load it",
                    reads.join(", ")
                ));
            }
            Presence::NotRead {
                reads,
                plugin: None,
            } => {
                view.presence = "not-read";
                view.note = Some(format!(
                    "{client} does not read this skill's root (it reads {}): the model cannot load it",
                    reads.join(", ")
                ));
            }
        }
        view
    }
}

/// The end of what the model saw, as a note quotes it.
fn tail(text: &str) -> String {
    let count = text.chars().count();
    if count <= QUOTED_CHARS {
        return text.to_owned();
    }
    let end: String = text.chars().skip(count - QUOTED_CHARS).collect();
    format!("…{end}")
}

/// `registry` with `candidate` as the description of the SKILL.md at `path`, as `target` reads
/// the file with the candidate written into it (read from `source`): the client's own cleaning,
/// escaping and cap apply to it as to the file's.
///
/// # Errors
/// The file cannot be read, or has no description the candidate can replace.
pub(crate) fn with_candidate(
    registry: &Registry,
    target: Client,
    path: &Path,
    candidate: &str,
    source: &dyn Source,
) -> Result<Registry, String> {
    let text = source
        .read(path)
        .map_err(|error| format!("{}: {error}", path.display()))?;
    let written = crate::rules::fix::with_description(&text, candidate).ok_or_else(|| {
        format!(
            "{}: the candidate description cannot be written into this SKILL.md's frontmatter, so {} cannot read it",
            path.display(),
            target.display()
        )
    })?;
    let mut registry = registry.clone();
    let forget = |readings: &mut Readings| match target {
        Client::ClaudeCode => readings.claude = None,
        Client::Codex => readings.codex = None,
        Client::Copilot => readings.copilot = None,
        Client::OpenCode => readings.opencode = None,
        Client::Gemini => readings.gemini = None,
        Client::AgentSkills | Client::ClaudeUpload => {}
    };
    for skill in registry
        .skills
        .iter_mut()
        .chain(registry.shadowed.iter_mut().map(|(skill, _)| skill))
        .filter(|skill| skill.path == path)
    {
        candidate.clone_into(&mut skill.description);
        forget(&mut skill.readings);
    }
    for refused in registry.refused.iter_mut().filter(|it| it.path == path) {
        if let Refusal::OutsideRoot {
            readings: Some(readings),
            ..
        } = &mut refused.refusal
        {
            forget(readings);
        }
    }
    // A plugin's copy of the skill is read for Claude Code alone, which lists plugins.
    for skill in registry
        .plugins
        .iter_mut()
        .flat_map(|plugin| plugin.skills.iter_mut())
        .filter(|skill| skill.path == path && target == Client::ClaudeCode)
    {
        candidate.clone_into(&mut skill.description);
        skill.readings = Readings::default();
        crate::workspace::loader::add_readings(
            &mut skill.readings,
            &written,
            ClientSet::of([target]),
        );
    }
    registry.read_clients(
        ClientSet::of([target]),
        &Written {
            inner: source,
            path,
            text: written,
        },
    );
    Ok(registry)
}

/// A source that answers one file with the text given.
struct Written<'a> {
    inner: &'a dyn Source,
    path: &'a Path,
    text: String,
}

impl Source for Written<'_> {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        if path == self.path {
            Ok(self.text.clone())
        } else {
            self.inner.read(path)
        }
    }

    fn is_open(&self, path: &Path) -> bool {
        self.inner.is_open(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::Disk;
    use crate::workspace::loader::roots_for;

    fn workspace(skills: &[(&str, &str)]) -> (tempfile::TempDir, Registry) {
        let dir = tempfile::tempdir().unwrap();
        for (at, text) in skills {
            let path = dir.path().join(at);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let registry = Registry::scan(&roots_for(dir.path(), &[]), &Disk);
        (dir, registry)
    }

    #[test]
    fn claude_code_lists_by_folder_and_a_load_of_either_name_counts() {
        let long = format!("{} Use for ZEBRA forms.", "Handles documents. ".repeat(90));
        let (dir, registry) = workspace(&[
            (
                ".claude/skills/pdf-tools/SKILL.md",
                &format!("---\nname: pdf\ndescription: {long}\n---\nBody\n"),
            ),
            (
                ".claude/skills/docx/SKILL.md",
                "---\nname: docx\ndescription: Edits <Word> files.\n---\n",
            ),
            (
                ".claude/skills/secret/SKILL.md",
                "---\nname: secret\ndescription: Hidden.\ndisable-model-invocation: true\n---\n",
            ),
        ]);
        let path = dir.path().join(".claude/skills/pdf-tools/SKILL.md");
        let routing = routing(&registry, Client::ClaudeCode.into(), &path, "pdf");
        assert!(
            routing
                .catalog
                .starts_with("The following skills are available for use with the Skill tool:\n\n- docx: Edits &lt;Word&gt; files.\n- pdf-tools (pdf): Handles"),
            "{}",
            routing.catalog
        );
        assert!(!routing.catalog.contains("ZEBRA") && !routing.catalog.contains("secret"));
        assert_eq!(routing.names, ["docx", "pdf-tools", "pdf"]);
        for name in ["pdf-tools", "pdf", "pdf-tools (pdf)"] {
            assert_eq!(routing.loads[name], "pdf", "{name}");
        }
        assert!(!routing.loads.contains_key("secret"));
        let view = &routing.view;
        assert_eq!(
            (view.presence, view.fate, view.listed_as.as_deref()),
            ("listed", Some("capped"), Some("pdf-tools (pdf)"))
        );
        assert_eq!(view.seen_chars, Some(1_535));
        let note = view.note.as_deref().unwrap();
        assert!(
            note.starts_with("Claude Code cuts this description at 1,535 of its 1,731 characters: the model saw “…"),
            "{note}"
        );
        let hidden = dir.path().join(".claude/skills/secret/SKILL.md");
        let view = routing_view(&registry, Client::ClaudeCode, &hidden);
        assert_eq!(
            (view.presence, view.reason),
            ("omitted", Some("model-invocation-disabled"))
        );
        assert!(
            view.note.unwrap().contains("the model cannot load it"),
            "the report says it is dropped"
        );
    }

    fn routing_view(registry: &Registry, target: Client, path: &Path) -> TargetView {
        routing(registry, target.into(), path, "x").view
    }

    #[test]
    fn each_client_lists_in_its_shape() {
        let (dir, registry) = workspace(&[
            (
                ".agents/skills/pdf/SKILL.md",
                "---\nname: pdf\ndescription: Fills <PDF> forms.\n---\n",
            ),
            (
                "skills/elsewhere/SKILL.md",
                "---\nname: elsewhere\ndescription: Not for every client.\n---\n",
            ),
        ]);
        let path = dir.path().join(".agents/skills/pdf/SKILL.md");
        let codex = routing(&registry, Client::Codex.into(), &path, "pdf");
        assert!(
            codex.catalog.contains(
                "### Available skills\n- pdf: Fills <PDF> forms. (file: r0/pdf/SKILL.md)\n"
            ),
            "{}",
            codex.catalog
        );
        let copilot = routing(&registry, Client::Copilot.into(), &path, "pdf");
        assert!(
            copilot.catalog.contains(
                "<skill>\n  <name>pdf</name>\n  <description>Fills &lt;PDF&gt; forms.</description>\n  <location>project</location>\n</skill>\n"
            ),
            "{}",
            copilot.catalog
        );
        for target in [Client::OpenCode, Client::Gemini] {
            let routing = routing(&registry, target.into(), &path, "pdf");
            assert!(
                routing.catalog.contains(
                    "  <skill>\n    <name>pdf</name>\n    <description>Fills <PDF> forms.</description>\n"
                ),
                "{target}: {}",
                routing.catalog
            );
            assert_eq!(routing.names, ["pdf"], "{target}");
            assert_eq!(routing.view.note, None);
        }
        let elsewhere = dir.path().join("skills/elsewhere/SKILL.md");
        let view = routing_view(&registry, Client::Codex, &elsewhere);
        assert_eq!(view.presence, "not-read");
        assert!(
            view.note
                .unwrap()
                .starts_with("Codex does not read this skill's root"),
            "the report says the client never sees it"
        );
    }

    #[test]
    fn a_candidate_is_read_as_the_client_reads_the_file_so_written() {
        let (dir, mut registry) = workspace(&[(
            ".claude/skills/pdf/SKILL.md",
            "---\nname: pdf\ndescription: Short.\nwhen_to_use: On forms.\n---\nBody\n",
        )]);
        registry.read_clients(ClientSet::of([Client::ClaudeCode]), &Disk);
        let path = dir.path().join(".claude/skills/pdf/SKILL.md");
        let candidate = format!("{}ZEBRA", "x".repeat(1_600));
        let changed =
            with_candidate(&registry, Client::ClaudeCode, &path, &candidate, &Disk).unwrap();
        let routing = routing(&changed, Client::ClaudeCode.into(), &path, "pdf");
        assert_eq!(routing.view.fate, Some("capped"));
        assert!(!routing.catalog.contains("ZEBRA"), "{}", routing.catalog);
        let short = with_candidate(
            &registry,
            Client::ClaudeCode,
            &path,
            "Fills <forms>.",
            &Disk,
        )
        .unwrap();
        let routing = super::routing(&short, Client::ClaudeCode.into(), &path, "pdf");
        assert!(
            routing
                .catalog
                .contains("- pdf: Fills &lt;forms&gt;. - On forms."),
            "Claude Code's escaping and when_to_use apply: {}",
            routing.catalog
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "---\nname: pdf\ndescription: Short.\nwhen_to_use: On forms.\n---\nBody\n",
            "the file is not touched"
        );
    }

    #[test]
    fn the_listing_budget_follows_the_context_window() {
        let (dir, mut registry) = workspace(&[
            (
                ".claude/skills/pdf/SKILL.md",
                "---\nname: pdf\ndescription: Fills PDF forms and merges documents.\n---\n",
            ),
            (
                ".claude/skills/docx/SKILL.md",
                "---\nname: docx\ndescription: Edits Word files and tracks their changes.\n---\n",
            ),
        ]);
        registry.read_clients(ClientSet::of([Client::ClaudeCode]), &Disk);
        let path = dir.path().join(".claude/skills/pdf/SKILL.md");
        let default = routing(&registry, Client::ClaudeCode.into(), &path, "pdf");
        assert_eq!(default.view.fate, Some("full"));
        assert!(
            default.catalog.contains("- pdf: Fills PDF forms"),
            "{}",
            default.catalog
        );
        // 1% of 2,000 tokens is 80 characters: the two lines do not fit, so the names go alone.
        let small = Target {
            client: Client::ClaudeCode,
            context_window: Some(2_000),
        };
        let routing = routing(&registry, small, &path, "pdf");
        assert_eq!(routing.view.fate, Some("name-only"), "{}", routing.catalog);
        assert!(
            !routing.catalog.contains("Fills PDF forms"),
            "{}",
            routing.catalog
        );
        assert!(
            routing
                .view
                .note
                .as_deref()
                .is_some_and(|note| note.contains("by name only")),
            "{:?}",
            routing.view.note
        );
    }
}
