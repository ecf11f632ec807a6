//! `skill-lsp catalog`: the catalog as the agent's system prompt gets it, as XML, or as JSON.

use std::path::PathBuf;

use serde::Serialize;

use super::{CatalogArgs, CatalogFormat, EXIT_TROUBLE, error_line, parse_targets, write_stdout};
use crate::config::Config;
use crate::workspace::catalog::{listing, listing_text, xml};
use crate::workspace::loader::roots_for;
use crate::workspace::{Disk, Registry};

#[derive(Serialize)]
struct JsonCatalog {
    skills: Vec<JsonSkill>,
    prompt: String,
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
    for path in &paths {
        if !path.is_dir() {
            error_line(&format!("{}: no such folder", path.display()));
            return EXIT_TROUBLE;
        }
        let config = match Config::discover(path) {
            Ok(config) => config,
            Err(error) => {
                error_line(&error.to_string());
                return EXIT_TROUBLE;
            }
        };
        for root in roots_for(path, &config.roots) {
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
    let registry = Registry::scan(&roots, &Disk);
    let prompt = match target {
        Some(target) => listing_text(&listing(&registry, target, args.context_window)),
        None => registry.catalog(),
    };
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
