//! Diagnostics, pushed or pulled, never both (SPEC section 7): `publish` pushes one document's
//! findings unless its version moved on meanwhile, `publish_all` re-lints every open document
//! (or asks a pulling client to pull again), `pull` and `pull_workspace` answer
//! `textDocument/diagnostic` and `workspace/diagnostic` with the generation as result id.

use std::collections::HashSet;
use std::sync::Arc;

use rayon::prelude::*;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    Diagnostic, DocumentDiagnosticParams, DocumentDiagnosticReport, DocumentDiagnosticReportResult,
    FullDocumentDiagnosticReport, RelatedFullDocumentDiagnosticReport,
    RelatedUnchangedDocumentDiagnosticReport, UnchangedDocumentDiagnosticReport, Uri,
    WorkspaceDiagnosticParams, WorkspaceDiagnosticReport, WorkspaceDiagnosticReportResult,
    WorkspaceDocumentDiagnosticReport, WorkspaceFullDocumentDiagnosticReport,
    WorkspaceUnchangedDocumentDiagnosticReport,
};

use super::backend::Backend;
use super::convert::to_lsp_diagnostic;
use super::handlers::{catch_panic, code_lens, eval_set};
use super::snapshot::Snapshot;
use super::state::{DocumentText, analyze};
use crate::workspace::discovery::is_skill_path;

/// Pushes the diagnostics of one open document, unless the client pulls them or the
/// document moved on while we computed.
pub(crate) async fn publish(backend: &Backend, uri: &Uri) {
    backend.wait_ready().await;
    let _serial = backend.publish_lock.lock().await;
    let Some(snapshot) = backend.snapshot(uri) else {
        return;
    };
    if snapshot.caps.pull_diagnostics || !is_checked(&snapshot) {
        return;
    }
    let Ok(items) = catch_panic("diagnostics", || document_diagnostics(&snapshot)) else {
        return;
    };
    publish_if_current(backend, uri, snapshot.document.version, items).await;
}

/// Whether the server has diagnostics for a document: a SKILL.md, an eval set, a skill's
/// `agents/openai.yaml` or a plugin manifest (no other Markdown, JSON or YAML).
fn is_checked(snapshot: &Snapshot) -> bool {
    let document = &snapshot.document;
    document.is_skill_file()
        || document.is_eval_set()
        || document.is_openai_yaml()
        || document.is_manifest()
}

/// Everything published for one open document: a SKILL.md's findings from the engine, then the
/// `trigger-evals` information diagnostic of its last eval run (not a rule: it reports a
/// measurement the user asked for, not a property of the text); an eval set's parse errors.
pub(crate) fn document_diagnostics(snapshot: &Snapshot) -> Vec<Diagnostic> {
    if snapshot.document.is_eval_set() {
        return eval_set::diagnostics(snapshot);
    }
    let mut items = snapshot.lsp_diagnostics();
    items.extend(code_lens::trigger_evals_diagnostic(snapshot));
    items
}

/// The version guard: publishes `items`, computed for `version` of the document, only if that
/// is still its version (a stale result must never overtake a fresh one, and a closed document
/// keeps the empty list `didClose` sent). Returns whether it published.
pub(crate) async fn publish_if_current(
    backend: &Backend,
    uri: &Uri,
    version: i32,
    items: Vec<Diagnostic>,
) -> bool {
    let current = backend
        .lock()
        .documents
        .get(uri)
        .map(|document| document.version);
    if current != Some(version) {
        return false; // A newer version is on its way, or the document closed.
    }
    backend
        .client
        .publish_diagnostics(uri.clone(), items, Some(version))
        .await;
    true
}

/// After something only `uri`'s diagnostics depend on changed outside its text (an eval run):
/// pushes them again, or asks a pulling client to pull again.
pub(crate) async fn publish_or_refresh(backend: &Backend, uri: &Uri) {
    let (pull, refresh) = {
        let mut state = backend.lock();
        state.generation += 1;
        (state.caps.pull_diagnostics, state.caps.diagnostic_refresh)
    };
    if !pull {
        publish(backend, uri).await;
    } else if refresh {
        let _ = backend.client.workspace_diagnostic_refresh().await;
    }
}

/// Re-lints every open document (workspace rules' inputs changed), or asks a pulling client
/// to pull again.
pub(crate) async fn publish_all(backend: &Backend) {
    let (uris, pull, refresh) = {
        let mut state = backend.lock();
        state.generation += 1;
        (
            state.documents.keys().cloned().collect::<Vec<_>>(),
            state.caps.pull_diagnostics,
            state.caps.diagnostic_refresh,
        )
    };
    if pull {
        if refresh {
            let _ = backend.client.workspace_diagnostic_refresh().await;
        }
        return;
    }
    for uri in uris {
        publish(backend, &uri).await;
    }
}

/// `textDocument/diagnostic`: "unchanged" when the client holds this generation's report.
pub(crate) async fn pull(
    backend: &Backend,
    params: DocumentDiagnosticParams,
) -> Result<DocumentDiagnosticReportResult> {
    backend.wait_ready().await;
    let uri = params.text_document.uri;
    let generation = backend.lock().generation.to_string();
    if params.previous_result_id.as_deref() == Some(generation.as_str()) {
        return Ok(DocumentDiagnosticReportResult::Report(
            DocumentDiagnosticReport::Unchanged(RelatedUnchangedDocumentDiagnosticReport {
                related_documents: None,
                unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport {
                    result_id: generation,
                },
            }),
        ));
    }
    let items = match backend.snapshot(&uri) {
        Some(snapshot) if is_checked(&snapshot) => {
            catch_panic("diagnostics", || document_diagnostics(&snapshot))?
        }
        Some(_) => Vec::new(),
        // A client pulls once more right after closing a document (vscode-languageclient does,
        // and until an answer comes it prefers that document's last pull to every workspace
        // report): the findings of the file on disk, or none when it is gone.
        None => {
            let (pending, encoding, related) = {
                let state = backend.lock();
                let pending = uri
                    .to_file_path()
                    .filter(|path| is_skill_path(path))
                    .and_then(|path| {
                        let context = Arc::new(state.analysis_context(Some(&path)));
                        Pending::read(&state, &state.overlay(), &path, context)
                    });
                (pending, state.encoding, state.caps.related_information)
            };
            match pending {
                Some(pending) => catch_panic("diagnostics", || {
                    pending.items(&uri, None, encoding, related)
                })?,
                None => Vec::new(),
            }
        }
    };
    Ok(DocumentDiagnosticReportResult::Report(
        DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: FullDocumentDiagnosticReport {
                result_id: Some(generation),
                items,
            },
        }),
    ))
}

/// `workspace/diagnostic`: every skill of every workspace (and those linked from outside their
/// root, which clients load), "unchanged" for those the client holds this generation of, and an
/// empty report for a skill file the client holds a report of that is no longer there (deleted,
/// or a closed buffer that never reached the disk): a client keeps a workspace report until told
/// otherwise, so without it a deleted skill's problems would stay in the Problems panel.
pub(crate) async fn pull_workspace(
    backend: &Backend,
    params: WorkspaceDiagnosticParams,
) -> Result<WorkspaceDiagnosticReportResult> {
    backend.wait_ready().await;
    let (work, encoding, related, generation) = {
        let state = backend.lock();
        let generation = state.generation.to_string();
        let current: HashSet<&Uri> = params
            .previous_result_ids
            .iter()
            .filter(|previous| previous.value == generation)
            .map(|previous| &previous.uri)
            .collect();
        let overlay = state.overlay();
        // In member order; `None` for a file whose report the client holds.
        let mut listed: Vec<(Uri, Option<i32>, Option<std::path::PathBuf>)> = Vec::new();
        for workspace in &state.workspaces {
            let registry = &workspace.registry;
            let members = registry
                .members()
                // Linked from outside their root: not registered, but clients load them.
                .chain(registry.refused.iter().filter_map(|refused| {
                    matches!(
                        refused.refusal,
                        crate::workspace::registry::Refusal::OutsideRoot { .. }
                    )
                    .then_some(&refused.path)
                }));
            for path in members {
                let Some(uri) = Uri::from_file_path(path) else {
                    continue;
                };
                let version = state.documents.get(&uri).map(|document| document.version);
                let changed = !current.contains(&uri);
                listed.push((uri, version, changed.then(|| path.clone())));
            }
        }
        let mut contexts = state
            .batch_contexts(listed.iter().filter_map(|(_, _, path)| path.as_deref()))
            .into_iter();
        let mut work = Vec::new();
        for (uri, version, path) in listed {
            let pending = match path {
                Some(path) => contexts
                    .next()
                    .and_then(|context| Pending::read(&state, &overlay, &path, context)),
                None => Some(Pending::Unchanged),
            };
            if let Some(pending) = pending {
                work.push((uri, version, pending));
            }
        }
        let listed: HashSet<&Uri> = work.iter().map(|(uri, _, _)| uri).collect();
        let gone: Vec<Uri> = params
            .previous_result_ids
            .iter()
            .map(|previous| &previous.uri)
            .filter(|uri| {
                !listed.contains(uri)
                    && !state.documents.contains_key(*uri)
                    && uri.to_file_path().is_some_and(|path| is_skill_path(&path))
            })
            .cloned()
            .collect();
        work.extend(gone.into_iter().map(|uri| (uri, None, Pending::Gone)));
        (
            work,
            state.encoding,
            state.caps.related_information,
            generation,
        )
    };
    let items = catch_panic("workspace diagnostics", || {
        work.into_par_iter()
            .map(|(uri, version, pending)| {
                if matches!(pending, Pending::Unchanged) {
                    return WorkspaceDocumentDiagnosticReport::Unchanged(
                        WorkspaceUnchangedDocumentDiagnosticReport {
                            uri,
                            version: version.map(i64::from),
                            unchanged_document_diagnostic_report:
                                UnchangedDocumentDiagnosticReport {
                                    result_id: generation.clone(),
                                },
                        },
                    );
                }
                let items = pending.items(&uri, version, encoding, related);
                WorkspaceDocumentDiagnosticReport::Full(WorkspaceFullDocumentDiagnosticReport {
                    uri,
                    version: version.map(i64::from),
                    full_document_diagnostic_report: FullDocumentDiagnosticReport {
                        result_id: Some(generation.clone()),
                        items,
                    },
                })
            })
            .collect()
    })?;
    Ok(WorkspaceDiagnosticReportResult::Report(
        WorkspaceDiagnosticReport { items },
    ))
}

/// What a pull answers for one file.
enum Pending {
    /// The client holds this generation's report.
    Unchanged,
    /// The client holds a report of a skill file that is not there any more: an empty one.
    Gone,
    /// Its findings, from its text (the buffer when open, else the disk) taken under the lock.
    Lint(Box<LintInput>),
}

struct LintInput {
    path: std::path::PathBuf,
    text: String,
    context: Arc<crate::lsp::state::AnalysisContext>,
    eval: Option<crate::lsp::state::EvalSummary>,
}

impl Pending {
    /// What linting `path` needs, read under the lock; `None` when it cannot be read.
    fn read(
        state: &crate::lsp::state::State,
        overlay: &crate::lsp::state::Overlay,
        path: &std::path::Path,
        context: Arc<crate::lsp::state::AnalysisContext>,
    ) -> Option<Self> {
        let text = crate::workspace::Source::read(overlay, path).ok()?;
        let eval = state.eval_summary(path, &text);
        Some(Pending::Lint(Box::new(LintInput {
            path: path.to_owned(),
            text,
            context,
            eval,
        })))
    }

    /// The findings of a [`Pending::Lint`] as a pull reports them (`document_diagnostics` has
    /// the same for an open document); nothing for the others.
    fn items(
        self,
        uri: &Uri,
        version: Option<i32>,
        encoding: crate::lsp::documents::Encoding,
        related: bool,
    ) -> Vec<Diagnostic> {
        let Pending::Lint(input) = self else {
            return Vec::new();
        };
        let LintInput {
            path,
            text,
            context,
            eval,
        } = *input;
        let document = DocumentText {
            uri: uri.clone(),
            path: Some(path),
            rope: ropey::Rope::from_str(&text),
            text: text.into(),
            version: version.unwrap_or(0),
        };
        let mut items: Vec<Diagnostic> = analyze(&document, &context)
            .iter()
            .map(|d| to_lsp_diagnostic(d, &document.rope, encoding, related))
            .collect();
        items.extend(eval.and_then(|eval| code_lens::eval_diagnostic(&document, &eval, encoding)));
        items
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::documents::Document;

    /// The version guard of SPEC section 7 and the README ("stale results are dropped"). The
    /// server computes and publishes a push between two `.await`s, so no client can make a
    /// document move on in between: only calling the guard directly shows it works.
    #[tokio::test]
    async fn results_for_an_older_version_or_a_closed_document_are_dropped() {
        let (service, _socket) = crate::lsp::server::build();
        let backend = service.inner();
        let uri: Uri = "file:///w/skills/pdf/SKILL.md".parse().unwrap();
        let text = "---\nname: pdf\n---\nBody\n";
        backend
            .lock()
            .documents
            .insert(uri.clone(), Document::new(text, 3));
        assert!(
            !publish_if_current(backend, &uri, 2, Vec::new()).await,
            "published a result for version 2 of a document at version 3"
        );
        assert!(publish_if_current(backend, &uri, 3, Vec::new()).await);
        backend.lock().documents.remove(&uri);
        assert!(
            !publish_if_current(backend, &uri, 3, Vec::new()).await,
            "published a result for a closed document"
        );
    }
}
