//! `skill/catalog` and `skill/loadSkill`: the agent's view of the workspace folders (the one
//! registry the catalog and the agent share, `State::agent_view`), as an editor shows it.

use rayon::prelude::*;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::Uri;

use super::backend::Backend;
use super::ext::{
    CatalogParams, CatalogPlugin, CatalogPluginSkill, CatalogResult, CatalogSkill, LoadSkillParams,
    LoadSkillResult,
};
use super::handlers::{catch_panic, invalid_params};
use super::state::{BufferText, DocumentAnalysis, analyze_skill};
use crate::workspace::plugins::plugin_skill;

/// Every skill the agent sees, with its finding count, what its files can do and its security
/// errors, and the catalog text of the prompt.
pub(crate) async fn catalog(backend: &Backend, _: CatalogParams) -> Result<CatalogResult> {
    backend.wait_ready().await;
    let (registry, contexts, overlay) = {
        let state = backend.lock();
        let registry = state
            .agent_view()
            .map(|(_, registry)| registry)
            .unwrap_or_default();
        let contexts =
            state.batch_contexts(registry.skills.iter().map(|skill| skill.path.as_path()));
        (registry, contexts, state.overlay())
    };
    catch_panic("skill/catalog", move || {
        let skills = registry
            .skills
            .par_iter()
            .zip(contexts)
            .map(|(skill, context)| {
                let analysis = match crate::workspace::Source::read(&overlay, &skill.path) {
                    Ok(text) => {
                        let document = BufferText {
                            uri: Uri::from_file_path(&skill.path)
                                .unwrap_or_else(|| "file:///".parse().expect("a valid uri")),
                            path: Some(skill.path.clone()),
                            rope: ropey::Rope::from_str(&text),
                            text: text.into(),
                            version: 0,
                        };
                        analyze_skill(&document, &context)
                    }
                    Err(_) => DocumentAnalysis::default(),
                };
                let found = || {
                    analysis.diagnostics.iter().chain(
                        analysis
                            .skill_files
                            .iter()
                            .flat_map(|(_, _, diagnostics)| diagnostics),
                    )
                };
                let security_errors = found()
                    .filter(|diagnostic| {
                        diagnostic.rule.group() == crate::rules::Group::Security
                            && diagnostic.severity == crate::diagnostic::Severity::Error
                    })
                    .count();
                let diagnostics = found().count();
                let mut capabilities: Vec<String> = analysis
                    .evidence
                    .iter()
                    .map(|evidence| evidence.capability.as_str().to_owned())
                    .collect();
                capabilities.dedup();
                CatalogSkill {
                    name: skill.name.clone(),
                    description: skill.description.clone(),
                    uri: Uri::from_file_path(&skill.path)
                        .map(|uri| uri.as_str().to_owned())
                        .unwrap_or_default(),
                    root: skill.root.to_string_lossy().into_owned(),
                    diagnostics,
                    capabilities,
                    security_errors,
                    claude_code_name: plugin_skill(&registry.plugins, &skill.path)
                        .map(|(plugin, skill)| plugin.skill_id(skill)),
                }
            })
            .collect();
        let uri = |path: &std::path::Path| {
            Uri::from_file_path(path)
                .map(|uri| uri.as_str().to_owned())
                .unwrap_or_default()
        };
        CatalogResult {
            skills,
            prompt: registry.catalog(),
            plugins: registry
                .plugins
                .iter()
                .map(|plugin| CatalogPlugin {
                    name: plugin.name.clone(),
                    marketplace: plugin.marketplace.clone(),
                    install: plugin.install_command(),
                    root: plugin.root.to_string_lossy().into_owned(),
                    skills: plugin
                        .skills
                        .iter()
                        .map(|skill| CatalogPluginSkill {
                            claude_code_name: plugin.skill_id(skill),
                            description: skill.description.clone(),
                            uri: uri(&skill.path),
                        })
                        .collect(),
                })
                .collect(),
        }
    })
}

/// What the agent's `load_skill` tool returns; an error whose message is the unknown-skill
/// text (design.md §5) otherwise.
pub(crate) async fn load_skill(
    backend: &Backend,
    params: LoadSkillParams,
) -> Result<LoadSkillResult> {
    backend.wait_ready().await;
    let (registry, overlay) = {
        let state = backend.lock();
        let registry = state
            .agent_view()
            .map(|(_, registry)| registry)
            .unwrap_or_default();
        (registry, state.overlay())
    };
    registry
        .load(&params.name, &overlay)
        .map(|content| LoadSkillResult { content })
        .map_err(invalid_params)
}
