//! `skill-lsp catalog`: the catalog as the agent's system prompt gets it, as XML, or as JSON.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{CatalogArgs, CatalogFormat, EXIT_TROUBLE, error_line, parse_targets, write_stdout};
use crate::clients::Fate;
use crate::targets::{Client, ClientSet};
use crate::workspace::catalog::{catalog_text, installed_listing, listing_text, xml};
use crate::workspace::plugins::read_plugins;
use crate::workspace::{Disk, Registry, Workspace};

#[derive(Serialize)]
struct JsonCatalog {
    skills: Vec<JsonSkill>,
    prompt: String,
    /// With `--target`: the client, its lines in its order, and what it leaves out.
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<String>,
    /// The client release the listing was measured against.
    #[serde(skip_serializing_if = "Option::is_none")]
    measured_with: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    listed: Option<Vec<JsonListed>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    omitted: Option<Vec<JsonOmitted>>,
    /// The Claude Code plugins the workspaces offer, whose skills Claude Code lists once a
    /// plugin is installed (absent with a target other than Claude Code).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    plugins: Vec<JsonPlugin>,
}

#[derive(Serialize)]
struct JsonPlugin {
    /// The name its skills are listed under, `name:skill`.
    name: String,
    marketplace: Option<String>,
    /// What `claude plugin install` is given.
    install: String,
    root: String,
    skills: Vec<JsonPluginSkill>,
}

#[derive(Serialize)]
struct JsonPluginSkill {
    /// `plugin:skill`, the skill's id in Claude Code.
    id: String,
    name: String,
    description: String,
    path: String,
}

#[derive(Serialize)]
struct JsonListed {
    /// The name as the client lists it.
    name: String,
    /// The text the model sees; absent when listed by name only.
    description: Option<String>,
    /// `full`, `capped` or `name-only`.
    fate: &'static str,
    path: String,
    /// The plugin it comes with, listed once that plugin is installed.
    #[serde(skip_serializing_if = "Option::is_none")]
    plugin: Option<String>,
}

#[derive(Serialize)]
struct JsonOmitted {
    path: String,
    reason: &'static str,
    why: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    plugin: Option<String>,
}

#[derive(Serialize)]
struct JsonSkill {
    name: String,
    description: String,
    path: String,
    root: String,
}

pub(super) fn run(args: &CatalogArgs) -> u8 {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let mut roots = Vec::new();
    let mut excludes = None;
    let mut folders = Vec::new();
    for path in &paths {
        let workspace = match Workspace::open(path) {
            Ok(workspace) => workspace,
            Err(error) => {
                error_line(&error.to_string());
                return EXIT_TROUBLE;
            }
        };
        // The first workspace's exclusions, as `check` takes the first path's config.
        excludes.get_or_insert_with(|| workspace.config.exclude.clone());
        folders.push(workspace.folder.clone());
        for root in workspace.roots() {
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
    }
    let target = match args
        .target
        .as_ref()
        .map(|id| parse_targets(std::slice::from_ref(id)))
    {
        None => None,
        Some(Ok(targets)) => targets.first().copied(),
        Some(Err(message)) => {
            error_line(&message);
            return EXIT_TROUBLE;
        }
    };
    // Only the chosen client's reading: the others' would be read for nothing.
    let registry = Registry::scan_excluding(
        &roots,
        &Disk,
        ClientSet::of(target),
        &excludes.unwrap_or_default(),
    );
    let mut registry = registry;
    // Only Claude Code lists plugins; without a target, the catalog says what it leaves out.
    if target.is_none_or(|target| target == Client::ClaudeCode) {
        for folder in &folders {
            for plugin in read_plugins(folder, &Disk) {
                if !registry
                    .plugins
                    .iter()
                    .any(|known| known.root == plugin.root)
                {
                    registry.plugins.push(plugin);
                }
            }
        }
    }
    let client = target.map(|target| {
        (
            target,
            installed_listing(&registry, target, args.context_window),
        )
    });
    let prompt = match &client {
        Some((_, listing)) => listing_text(&listing.listed),
        None => registry.catalog(),
    };
    let base = match paths.as_slice() {
        [one] => Some(one.as_path()),
        _ => None,
    };
    let plugin_name = |plugin: Option<usize>| {
        plugin
            .and_then(|index| registry.plugins.get(index))
            .map(|plugin| plugin.name.clone())
    };
    let slashes = |path: &std::path::Path| path.to_string_lossy().replace('\\', "/");
    let output = match args.format {
        CatalogFormat::Text => format!(
            "{}\n",
            catalog_text(
                &registry,
                client.as_ref().map(|(target, listing)| (*target, listing)),
                base
            )
        ),
        CatalogFormat::Xml => format!("{}\n", xml(&registry)),
        CatalogFormat::Json => {
            let catalog = JsonCatalog {
                skills: registry
                    .skills
                    .iter()
                    .map(|skill| JsonSkill {
                        name: skill.name.clone(),
                        description: skill.description.clone(),
                        path: skill.path.to_string_lossy().replace('\\', "/"),
                        root: skill.root.to_string_lossy().replace('\\', "/"),
                    })
                    .collect(),
                prompt,
                target: client.as_ref().map(|(target, _)| target.to_string()),
                measured_with: client
                    .as_ref()
                    .and_then(|(target, _)| crate::clients::measured_with(*target)),
                listed: client.as_ref().map(|(_, listing)| {
                    listing
                        .listed
                        .iter()
                        .map(|item| JsonListed {
                            name: item.name.clone(),
                            description: (item.fate != Fate::NameOnly)
                                .then(|| item.description.clone()),
                            fate: item.fate.id(),
                            path: slashes(&item.path),
                            plugin: plugin_name(item.plugin),
                        })
                        .collect()
                }),
                omitted: client.as_ref().map(|(_, listing)| {
                    listing
                        .omitted
                        .iter()
                        .map(|item| JsonOmitted {
                            path: slashes(&item.path),
                            reason: item.reason,
                            why: item.why.clone(),
                            plugin: plugin_name(item.plugin),
                        })
                        .collect()
                }),
                plugins: registry
                    .plugins
                    .iter()
                    .map(|plugin| JsonPlugin {
                        name: plugin.name.clone(),
                        marketplace: plugin.marketplace.clone(),
                        install: plugin.install_id(),
                        root: slashes(&plugin.root),
                        skills: plugin
                            .skills
                            .iter()
                            .map(|skill| JsonPluginSkill {
                                id: plugin.skill_id(skill),
                                name: skill.name.clone(),
                                description: skill.description.clone(),
                                path: slashes(&skill.path),
                            })
                            .collect(),
                    })
                    .collect(),
            };
            format!(
                "{}\n",
                serde_json::to_string_pretty(&catalog).unwrap_or_default()
            )
        }
    };
    write_stdout(&output);
    // The loader's catalog leaves out the plugin skills its roots do not hold; when it lists
    // something, a note says so (an empty one says it in its own line).
    let left_out: Vec<&Path> = registry
        .plugins
        .iter()
        .flat_map(|plugin| plugin.skills.iter().map(|skill| skill.path.as_path()))
        .filter(|path| registry.skill_at(path).is_none())
        .collect();
    if target.is_none() && !registry.skills.is_empty() && !left_out.is_empty() {
        super::stderr_line(&format!(
            "skill-lsp: note: {} skill{} of the Claude Code plugins here {} not in this catalog: Claude Code lists {} once a plugin is installed (skill-lsp catalog --target claude-code)",
            left_out.len(),
            if left_out.len() == 1 { "" } else { "s" },
            if left_out.len() == 1 { "is" } else { "are" },
            if left_out.len() == 1 { "it" } else { "them" },
        ));
    }
    0
}
