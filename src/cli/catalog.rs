//! `skill-lsp catalog`: the catalog as the agent's system prompt gets it, as XML, or as JSON.

use std::path::PathBuf;

use serde::Serialize;

use super::{CatalogArgs, CatalogFormat, EXIT_TROUBLE, error_line, parse_targets, write_stdout};
use crate::clients::Fate;
use crate::targets::ClientSet;
use crate::workspace::catalog::{client_listing, listing_text, xml};
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
}

#[derive(Serialize)]
struct JsonOmitted {
    path: String,
    reason: &'static str,
    why: String,
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
    let client = target.map(|target| {
        (
            target,
            client_listing(&registry, target, args.context_window),
        )
    });
    let prompt = match &client {
        Some((_, listing)) => listing_text(&listing.listed),
        None => registry.catalog(),
    };
    let slashes = |path: &std::path::Path| path.to_string_lossy().replace('\\', "/");
    let output = match args.format {
        CatalogFormat::Text => format!("{prompt}\n"),
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
                        })
                        .collect()
                }),
            };
            format!(
                "{}\n",
                serde_json::to_string_pretty(&catalog).unwrap_or_default()
            )
        }
    };
    write_stdout(&output);
    0
}
