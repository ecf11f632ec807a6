//! The client's notifications: document sync (`didOpen`, `didChange`, `didClose`), settings,
//! workspace folders and watched files. Each updates the state under the lock, with no
//! `.await` while it is held, then re-lints what depends on the change.

use std::path::PathBuf;

use tower_lsp_server::ls_types::{
    DidChangeConfigurationParams, DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidChangeWorkspaceFoldersParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams, Uri,
};

use super::backend::Backend;
use super::convert::uri_path;
use super::diagnostics::{publish, publish_all};
use super::documents::Buffer;
use super::handlers::catch_panic;
use super::indexing::index_workspaces;
use super::settings::ClientSettings;

pub(crate) async fn did_open(backend: &Backend, params: DidOpenTextDocumentParams) {
    let item = params.text_document;
    let uri = item.uri.clone();
    if uri_path(&uri).is_none() {
        // Skills are files: a document with no file behind it (`https:`, `untitled:`) has no
        // folder, no skill and no workspace, and is not linted.
        tracing::info!("ignoring a document that is not a file: {}", uri.as_str());
        return;
    }
    backend
        .lock()
        .open_document(item.uri, Buffer::new(&item.text, item.version));
    skill_changed(backend, &uri).await;
}

pub(crate) async fn did_change(backend: &Backend, params: DidChangeTextDocumentParams) {
    let uri = params.text_document.uri;
    let changes = params.content_changes;
    let version = params.text_document.version;
    let applied = backend.lock().edit_document(&uri, |document, encoding| {
        catch_panic("didChange", || document.apply(changes, version, encoding))
    });
    match applied {
        Some(Ok(())) => {}
        Some(Err(_)) => return,
        None => {
            tracing::warn!(
                "didChange for a document that is not open: {}",
                uri.as_str()
            );
            return;
        }
    }
    skill_changed(backend, &uri).await;
}

pub(crate) async fn did_close(backend: &Backend, params: DidCloseTextDocumentParams) {
    let uri = params.text_document.uri;
    let (removed, pull) = {
        let mut state = backend.lock();
        (state.close_document(&uri), state.caps().pull_diagnostics)
    };
    if removed && !pull {
        let _serial = backend.publish_lock.lock().await;
        backend
            .client
            .publish_diagnostics(uri.clone(), Vec::new(), None)
            .await;
    }
    // The disk copy replaces the buffer in the index.
    let changed = uri_path(&uri).is_some_and(|path| backend.lock().refresh_skill(&path));
    if changed {
        publish_all(backend).await;
    }
}

pub(crate) async fn did_change_configuration(
    backend: &Backend,
    params: DidChangeConfigurationParams,
) {
    backend
        .lock()
        .set_settings(ClientSettings::from_json(&params.settings));
    publish_all(backend).await;
}

pub(crate) async fn did_change_workspace_folders(
    backend: &Backend,
    params: DidChangeWorkspaceFoldersParams,
) {
    {
        let mut state = backend.lock();
        let removed: Vec<PathBuf> = params
            .event
            .removed
            .iter()
            .filter_map(|folder| uri_path(&folder.uri))
            .collect();
        state.remove_workspaces(&removed);
        state.add_pending_folders(
            params
                .event
                .added
                .iter()
                .filter_map(|folder| uri_path(&folder.uri)),
        );
    }
    index_workspaces(backend).await;
}

pub(crate) async fn did_change_watched_files(
    backend: &Backend,
    params: DidChangeWatchedFilesParams,
) {
    let paths = params
        .changes
        .iter()
        .filter_map(|change| uri_path(&change.uri))
        .collect();
    files_changed(backend, paths).await;
}

/// `workspace/didCreateFiles`, `didRenameFiles` and `didDeleteFiles`: what the user did in the
/// editor (a skill folder deleted or renamed in the explorer), said at once, where a file
/// watcher may take seconds. The same update as a watched change of every path involved.
pub(crate) async fn files_operated(backend: &Backend, uris: Vec<String>) {
    let paths = uris
        .iter()
        .filter_map(|uri| uri.parse::<Uri>().ok())
        .filter_map(|uri| uri_path(&uri))
        .collect();
    files_changed(backend, paths).await;
}

/// Files or folders that changed on disk: the state takes them in, then what is open is
/// linted again (created or deleted files change `broken-link` results too).
async fn files_changed(backend: &Backend, paths: Vec<PathBuf>) {
    backend.lock().files_changed(&paths);
    publish_all(backend).await;
}

/// After a SKILL.md buffer or file changed: update the index, then re-lint what depends on it.
async fn skill_changed(backend: &Backend, uri: &Uri) {
    let ready = *backend.ready.borrow();
    {
        if let Some(path) = uri_path(uri).filter(|_| ready) {
            backend.lock().ensure_workspace(&path);
        }
    }
    let changed = uri_path(uri).is_some_and(|path| backend.lock().refresh_skill(&path));
    if changed {
        publish_all(backend).await;
    } else {
        publish(backend, uri).await;
        // An edited eval set retires the last eval result shown on its skill's description.
        if let Some(skill) = eval_set_skill(backend, uri) {
            publish(backend, &skill).await;
        }
    }
}

/// The open SKILL.md of the skill whose eval set `uri` is (any name of `set::SET_FILES`: which
/// one is measured, and so the result shown, can change with any of them).
fn eval_set_skill(backend: &Backend, uri: &Uri) -> Option<Uri> {
    let path = uri_path(uri)?;
    let state = backend.lock();
    let open_paths: Vec<PathBuf> = state.open_uris().iter().filter_map(uri_path).collect();
    let exists = |path: &std::path::Path| path.is_file() || open_paths.iter().any(|it| it == path);
    let (skill_dir, _) = crate::agent::eval::set::set_skill_dir(&path, &exists)?;
    let skill_dir = skill_dir.as_path();
    state.open_uris().into_iter().find(|open| {
        uri_path(open).is_some_and(|open| {
            open.parent() == Some(skill_dir) && crate::workspace::discovery::is_skill_path(&open)
        })
    })
}
