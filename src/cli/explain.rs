//! `skill-lsp explain NAME`: what each client does with one skill — where it reads it from,
//! whether it lists it and with which text, who can invoke it (`workspace::explain`).

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{
    EXIT_FINDINGS, EXIT_TROUBLE, ExplainArgs, ExplainFormat, error_line, parse_targets,
    write_stdout,
};
use crate::targets::{Client, ClientSet};
use crate::workspace::explain::{
    ClientView, Invocation, Presence, clients_for, explain, render, skills_named,
};
use crate::workspace::{Disk, Workspace};

#[derive(Serialize)]
struct JsonExplained {
    path: String,
    clients: Vec<JsonClient>,
}

#[derive(Serialize)]
struct JsonClient {
    target: &'static str,
    /// The root the client reads the skill from; null when no root of the client holds it.
    root: Option<String>,
    /// `listed`, `omitted`, `not-read` or `dropped`.
    status: &'static str,
    /// Listed: the name the model sees.
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    /// Listed: the text the model sees (null when listed by name only).
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<Option<String>>,
    /// Listed: `full`, `capped` or `name-only`.
    #[serde(skip_serializing_if = "Option::is_none")]
    fate: Option<&'static str>,
    /// Omitted: the stable reason id.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    /// Why it is not listed or not loaded, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<String>,
    model_invocable: JsonInvocation,
    /// Absent where the client's user invocation is not modelled.
    #[serde(skip_serializing_if = "Option::is_none")]
    user_invocable: Option<JsonInvocation>,
    /// The Claude Code plugin the client lists the skill with, once it is installed.
    #[serde(skip_serializing_if = "Option::is_none")]
    plugin: Option<JsonPlugin>,
}

#[derive(Serialize)]
struct JsonPlugin {
    name: String,
    marketplace: Option<String>,
    /// The command that installs it.
    install: String,
}

#[derive(Serialize)]
struct JsonInvocation {
    can: bool,
    why: String,
}

impl From<&Invocation> for JsonInvocation {
    fn from(invocation: &Invocation) -> Self {
        Self {
            can: invocation.can,
            why: invocation.why.clone(),
        }
    }
}

fn json_client(view: &ClientView, slashes: impl Fn(&Path) -> String) -> JsonClient {
    let mut client = JsonClient {
        target: view.target.id(),
        root: view.root.as_deref().map(&slashes),
        status: "",
        name: None,
        description: None,
        fate: None,
        reason: None,
        why: None,
        model_invocable: (&view.model).into(),
        user_invocable: view.user.as_ref().map(Into::into),
        plugin: view.plugin.as_ref().map(|plugin| JsonPlugin {
            name: plugin.name.clone(),
            marketplace: plugin.marketplace.clone(),
            install: plugin.install.clone(),
        }),
    };
    match &view.presence {
        Presence::Listed {
            name,
            description,
            fate,
            ..
        } => {
            client.status = "listed";
            client.name = Some(name.clone());
            client.description = Some(description.clone());
            client.fate = Some(fate.id());
        }
        Presence::Omitted { reason, why } => {
            client.status = "omitted";
            client.reason = Some(reason);
            client.why = Some(why.clone());
        }
        Presence::NotRead { plugin, .. } => {
            client.status = "not-read";
            client.why = Some(match plugin {
                Some(plugin) => format!(
                    "it comes with the Claude Code plugin {plugin}, and the client does not load Claude Code plugins"
                ),
                None => "no root the client reads holds this skill".to_owned(),
            });
        }
        Presence::Dropped { why } => {
            client.status = "dropped";
            client.why = Some(why.clone());
        }
    }
    client
}

pub(super) fn run(args: &ExplainArgs) -> u8 {
    let folder = args.root.clone().unwrap_or_else(|| PathBuf::from("."));
    let workspace = match Workspace::open(&folder) {
        Ok(workspace) => workspace,
        Err(error) => {
            error_line(&error.to_string());
            return EXIT_TROUBLE;
        }
    };
    let config = &workspace.config;
    let selected: Option<Vec<Client>> = if args.target.is_empty() {
        config.targets.clone()
    } else {
        match parse_targets(&args.target) {
            Ok(targets) => Some(targets),
            Err(message) => {
                error_line(&message);
                return EXIT_TROUBLE;
            }
        }
    };
    let targets = clients_for(selected.as_deref());
    let registry = workspace.registry(&Disk, ClientSet::ALL);
    let paths = skills_named(&registry, &args.name);
    if paths.is_empty() {
        let mut message = registry
            .unknown_skill_error(&args.name)
            .trim_start_matches("Error: ")
            .to_owned();
        // Claude Code plugin skills are no loader skills, but `explain` finds them too.
        let plugin_skills: Vec<String> = registry
            .plugins
            .iter()
            .flat_map(|plugin| plugin.skills.iter().map(|skill| plugin.skill_id(skill)))
            .collect();
        if !plugin_skills.is_empty() {
            message.push_str(&format!(
                "; plugin skills (Claude Code): {}",
                plugin_skills.join(", ")
            ));
        }
        super::stderr_line(&message);
        return EXIT_FINDINGS;
    }
    let slashes = |path: &Path| path.to_string_lossy().replace('\\', "/");
    let explained: Vec<(PathBuf, Vec<ClientView>)> = paths
        .into_iter()
        .map(|path| {
            let views = explain(&registry, &path, &targets, args.context_window);
            (path, views)
        })
        .collect();
    let output = match args.format {
        ExplainFormat::Text => {
            let mut blocks = Vec::new();
            for (path, views) in &explained {
                let shown = path.strip_prefix(&folder).unwrap_or(path);
                blocks.push(format!(
                    "{}\n\n{}",
                    slashes(shown),
                    render(views, false, Some(&folder))
                ));
            }
            format!("{}\n", blocks.join("\n\n"))
        }
        ExplainFormat::Json => {
            let json: Vec<JsonExplained> = explained
                .iter()
                .map(|(path, views)| JsonExplained {
                    path: slashes(path),
                    clients: views
                        .iter()
                        .map(|view| json_client(view, slashes))
                        .collect(),
                })
                .collect();
            format!(
                "{}\n",
                serde_json::to_string_pretty(&json).unwrap_or_default()
            )
        }
    };
    write_stdout(&output);
    0
}
