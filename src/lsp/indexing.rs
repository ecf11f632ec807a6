//! The workspace index: indexing the workspace folders (with `$/progress` when the client shows
//! it) and registering the file watchers that keep the index live.

use tower_lsp_server::ls_types::{
    DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher, GlobPattern, NumberOrString,
    Registration,
};

use super::backend::Backend;
use super::diagnostics::publish_all;
use super::folders::FolderState;
use super::progress;
use crate::config::FILE_NAMES;

/// Indexes the folders waiting to be indexed, then marks the server ready and re-lints.
pub(crate) async fn index_workspaces(backend: &Backend) {
    let (folders, progress) = {
        let mut state = backend.lock();
        (
            state.take_pending_folders(),
            state.caps().work_done_progress,
        )
    };
    if folders.is_empty() {
        backend.ready.send_replace(true);
        return;
    }
    let token = NumberOrString::String("skill-lsp/index".to_owned());
    let progress = progress && progress::create(&backend.client, &token).await;
    if progress {
        let message = format!("{} workspace folder(s)", folders.len());
        let begin = progress::begin("Indexing skills", false, message);
        progress::send(&backend.outgoing, &token, begin).await;
    }
    let overlay = backend.lock().overlay();
    let workspaces = tokio::task::spawn_blocking(move || {
        folders
            .into_iter()
            .map(|folder| FolderState::load(folder, &overlay))
            .collect::<Vec<_>>()
    })
    .await
    .unwrap_or_default();
    let count: usize = workspaces
        .iter()
        .map(|workspace| workspace.registry.skills.len())
        .sum();
    let summary = index_summary(&workspaces, count);
    backend.lock().add_workspaces(workspaces);
    backend.ready.send_replace(true);
    if progress {
        let end = progress::end(format!("{count} skill(s)"));
        progress::send(&backend.outgoing, &token, end).await;
    }
    // One line in the editor's log: which server, what it found and where it looked.
    backend
        .client
        .log_message(tower_lsp_server::ls_types::MessageType::INFO, summary)
        .await;
    publish_all(backend).await;
}

/// `skill-lsp 0.1.0 (abc1234): 4 skills in 1 workspace folder; /w: 4 from skills, .claude/skills`:
/// the version and commit, then per folder its skills and the roots that hold any.
fn index_summary(workspaces: &[FolderState], count: usize) -> String {
    let folders: Vec<String> = workspaces
        .iter()
        .map(|workspace| {
            let mut roots: Vec<String> = Vec::new();
            for skill in &workspace.registry.skills {
                let root = skill
                    .root
                    .strip_prefix(&workspace.folder)
                    .unwrap_or(&skill.root)
                    .display()
                    .to_string();
                let root = if root.is_empty() {
                    ".".to_owned()
                } else {
                    root
                };
                if !roots.contains(&root) {
                    roots.push(root);
                }
            }
            let from = if roots.is_empty() {
                "no skills root has any".to_owned()
            } else {
                format!("from {}", roots.join(", "))
            };
            format!(
                "{}: {} {from}",
                workspace.folder.display(),
                workspace.registry.skills.len()
            )
        })
        .collect();
    format!(
        "skill-lsp {}: {count} skill{} in {} workspace folder{}; {}",
        crate::VERSION,
        if count == 1 { "" } else { "s" },
        workspaces.len(),
        if workspaces.len() == 1 { "" } else { "s" },
        folders.join("; ")
    )
}

/// Asks a client that registers watchers dynamically to report changes to what the index and
/// the rules read.
pub(crate) async fn register_watchers(backend: &Backend) {
    if !backend.lock().caps().watched_files_dynamic {
        return;
    }
    // What the index and the rules read: Markdown (skills and their mentions), everything
    // under a skills root (`broken-link` targets), the config files, and a skill's eval files
    // wherever it is (which trigger set comes first, and so whether a shown result still holds,
    // changes when one is created or deleted). Not `**/*`, which would re-lint on every build
    // artefact written.
    let mut patterns: Vec<String> = vec![
        "**/*.md".into(),
        "**/*.MD".into(),
        "**/skills/**".into(),
        "**/evals/**/*.json".into(),
        "**/eval_set.json".into(),
        "**/eval_queries.json".into(),
    ];
    patterns.extend(FILE_NAMES.iter().map(|name| format!("**/{name}")));
    for workspace in backend.lock().workspaces() {
        for root in &workspace.config.roots {
            if let Some(name) = root.file_name().and_then(|name| name.to_str()) {
                let pattern = format!("**/{name}/**");
                if !patterns.contains(&pattern) {
                    patterns.push(pattern);
                }
            }
        }
    }
    let watchers = patterns
        .into_iter()
        .map(|pattern| FileSystemWatcher {
            glob_pattern: GlobPattern::String(pattern),
            kind: None,
        })
        .collect();
    let registration = Registration {
        id: "skill-lsp-watch".to_owned(),
        method: "workspace/didChangeWatchedFiles".to_owned(),
        register_options: serde_json::to_value(DidChangeWatchedFilesRegistrationOptions {
            watchers,
        })
        .ok(),
    };
    if let Err(error) = backend.client.register_capability(vec![registration]).await {
        tracing::warn!("could not register file watchers: {error}");
    }
}
