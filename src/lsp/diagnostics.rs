//! Diagnostics, pushed or pulled, never both (design.md §7): `publish` pushes one document's
//! findings unless its version moved on meanwhile, `publish_all` re-lints every open document
//! (or asks a pulling client to pull again), `pull` and `pull_workspace` answer
//! `textDocument/diagnostic` and `workspace/diagnostic` with the generation as result id.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use rayon::prelude::*;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    Diagnostic, DocumentDiagnosticParams, DocumentDiagnosticReport, DocumentDiagnosticReportKind,
    DocumentDiagnosticReportResult, FullDocumentDiagnosticReport,
    RelatedFullDocumentDiagnosticReport, RelatedUnchangedDocumentDiagnosticReport,
    UnchangedDocumentDiagnosticReport, Uri, WorkspaceDiagnosticParams, WorkspaceDiagnosticReport,
    WorkspaceDiagnosticReportResult, WorkspaceDocumentDiagnosticReport,
    WorkspaceFullDocumentDiagnosticReport, WorkspaceUnchangedDocumentDiagnosticReport,
};

use super::backend::Backend;
use super::convert::to_lsp_diagnostic;
use super::handlers::{catch_panic, code_lens, eval_set};
use super::snapshot::{Snapshot, skill_file_reports};
use super::state::{BufferText, EvalFile, analyze_skill};
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
    let Ok((items, skill_files)) = catch_panic("diagnostics", || document_diagnostics(&snapshot))
    else {
        return;
    };
    if !publish_if_current(backend, uri, snapshot.document.version, items).await {
        return;
    }
    let Some(skill) = snapshot.document.path.clone() else {
        return;
    };
    let updates = backend.lock().skill_file_updates(&skill, skill_files);
    for (file, items) in updates {
        backend.client.publish_diagnostics(file, items, None).await;
    }
}

/// Whether the server has diagnostics for a document: a SKILL.md, an eval set, a skill's
/// `agents/openai.yaml` or a plugin manifest (no other Markdown, JSON or YAML).
fn is_checked(snapshot: &Snapshot) -> bool {
    let document = &snapshot.document;
    document.is_skill_file()
        || snapshot.eval_file().is_some()
        || document.is_openai_yaml()
        || document.is_manifest()
}

/// The reports of a skill's other files (its scripts and references) that go with its
/// SKILL.md's: the security findings of each, by URI.
pub(crate) type SkillFileReports = Vec<(Uri, Vec<Diagnostic>)>;

/// Everything published for one open document: a SKILL.md's findings from the engine, then the
/// `trigger-evals` information diagnostic of its last eval run (not a rule: it reports a
/// measurement the user asked for, not a property of the text); an eval set's parse errors (and
/// whether it is the set measured); the problems of the output evals, `evals/evals.json`.
/// Beside them, the findings of the skill's other files.
pub(crate) fn document_diagnostics(snapshot: &Snapshot) -> (Vec<Diagnostic>, SkillFileReports) {
    match snapshot.eval_file() {
        Some(EvalFile::Triggers { dir }) => {
            return (eval_set::diagnostics(snapshot, &dir), Vec::new());
        }
        Some(EvalFile::Outputs { dir }) => {
            return (eval_set::output_diagnostics(snapshot, &dir), Vec::new());
        }
        None => {}
    }
    let (mut items, skill_files) = snapshot.lsp_diagnostics();
    items.extend(code_lens::trigger_evals_diagnostic(snapshot));
    (items, skill_files)
}

/// A pull's reports of a skill's other files, as the related documents of its SKILL.md's.
fn related_documents(
    backend: &Backend,
    skill: Option<&std::path::Path>,
    skill_files: SkillFileReports,
) -> Option<HashMap<Uri, DocumentDiagnosticReportKind>> {
    let updates = backend.lock().skill_file_updates(skill?, skill_files);
    (!updates.is_empty()).then(|| {
        updates
            .into_iter()
            .map(|(uri, items)| {
                let report = FullDocumentDiagnosticReport {
                    result_id: None,
                    items,
                };
                (uri, DocumentDiagnosticReportKind::Full(report))
            })
            .collect()
    })
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
    let current = backend.lock().version_of(uri);
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
        let state = backend.lock();
        (
            state.caps().pull_diagnostics,
            state.caps().diagnostic_refresh,
        )
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
        let state = backend.lock();
        (
            state.open_uris(),
            state.caps().pull_diagnostics,
            state.caps().diagnostic_refresh,
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
    let generation = backend.lock().generation().to_string();
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
    let path = uri.to_file_path().map(std::borrow::Cow::into_owned);
    let (items, skill_files) = match backend.snapshot(&uri) {
        Some(snapshot) if is_checked(&snapshot) => {
            catch_panic("diagnostics", || document_diagnostics(&snapshot))?
        }
        Some(_) => (Vec::new(), Vec::new()),
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
                (pending, state.encoding(), state.caps().related_information)
            };
            match pending {
                Some(pending) => catch_panic("diagnostics", || {
                    pending.items(&uri, None, encoding, related)
                })?,
                None => (Vec::new(), Vec::new()),
            }
        }
    };
    let related_documents = related_documents(backend, path.as_deref(), skill_files);
    Ok(DocumentDiagnosticReportResult::Report(
        DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
            related_documents,
            full_document_diagnostic_report: FullDocumentDiagnosticReport {
                result_id: Some(generation),
                items,
            },
        }),
    ))
}

/// `workspace/diagnostic`: every skill of every workspace (and those linked from outside their
/// root, which clients load), with the security findings of each skill's other files,
/// "unchanged" for those the client holds this generation of, and an empty report for a file
/// the client holds a report of that has no findings any more.
pub(crate) async fn pull_workspace(
    backend: &Backend,
    params: WorkspaceDiagnosticParams,
) -> Result<WorkspaceDiagnosticReportResult> {
    backend.wait_ready().await;
    let (work, previous, encoding, related, generation) = {
        let state = backend.lock();
        let generation = state.generation().to_string();
        let current: HashSet<&Uri> = params
            .previous_result_ids
            .iter()
            .filter(|previous| previous.value == generation)
            .map(|previous| &previous.uri)
            .collect();
        let overlay = state.overlay();
        // In member order; `None` for a file whose report the client holds.
        let mut listed: Vec<(Uri, Option<i32>, Option<std::path::PathBuf>)> = Vec::new();
        for workspace in state.workspaces() {
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
                let version = state.version_of(&uri);
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
        // Every report the client holds, with whether it is this generation's: what the pull
        // does not list again is answered below.
        let previous: Vec<(Uri, bool)> = params
            .previous_result_ids
            .iter()
            .filter(|previous| !state.is_open(&previous.uri))
            .map(|previous| (previous.uri.clone(), previous.value == generation))
            .collect();
        (
            work,
            previous,
            state.encoding(),
            state.caps().related_information,
            generation,
        )
    };
    let unchanged = |uri: Uri, version: Option<i32>| {
        WorkspaceDocumentDiagnosticReport::Unchanged(WorkspaceUnchangedDocumentDiagnosticReport {
            uri,
            version: version.map(i64::from),
            unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport {
                result_id: generation.clone(),
            },
        })
    };
    let full = |uri: Uri, version: Option<i32>, items: Vec<Diagnostic>| {
        WorkspaceDocumentDiagnosticReport::Full(WorkspaceFullDocumentDiagnosticReport {
            uri,
            version: version.map(i64::from),
            full_document_diagnostic_report: FullDocumentDiagnosticReport {
                result_id: Some(generation.clone()),
                items,
            },
        })
    };
    let mut reported = Vec::new();
    let mut items: Vec<WorkspaceDocumentDiagnosticReport> =
        catch_panic("workspace diagnostics", || {
            work.into_par_iter()
                .flat_map_iter(|(uri, version, pending)| {
                    if matches!(pending, Pending::Unchanged) {
                        return vec![(unchanged(uri, version), false)];
                    }
                    let (items, skill_files) = pending.items(&uri, version, encoding, related);
                    let mut reports = vec![(full(uri, version, items), false)];
                    reports.extend(
                        skill_files
                            .into_iter()
                            .map(|(file, items)| (full(file, None, items), true)),
                    );
                    reports
                })
                .collect::<Vec<_>>()
        })?
        .into_iter()
        .map(|(report, skill_file)| {
            if skill_file {
                reported.push(report_uri(&report).clone());
            }
            report
        })
        .collect();
    let ours = {
        let mut state = backend.lock();
        state.note_reported(reported);
        previous
            .into_iter()
            .filter(|(uri, _)| {
                state.was_reported(uri)
                    || uri.to_file_path().is_some_and(|path| is_skill_path(&path))
            })
            .collect::<Vec<_>>()
    };
    // A report of ours the client holds and this pull did not list (a SKILL.md, or a file of a
    // skill a pull reported): unchanged when it is this generation's (a script of a skill that
    // did not change), else empty (the file was deleted, a closed buffer never reached the
    // disk, a script has no findings any more). A client keeps a workspace report until told
    // otherwise, so without the empty one a fixed problem would stay in the Problems panel.
    let listed: HashSet<Uri> = items.iter().map(report_uri).cloned().collect();
    for (uri, current) in ours {
        if !listed.contains(&uri) {
            items.push(if current {
                unchanged(uri, None)
            } else {
                full(uri, None, Vec::new())
            });
        }
    }
    Ok(WorkspaceDiagnosticReportResult::Report(
        WorkspaceDiagnosticReport { items },
    ))
}

fn report_uri(report: &WorkspaceDocumentDiagnosticReport) -> &Uri {
    match report {
        WorkspaceDocumentDiagnosticReport::Full(report) => &report.uri,
        WorkspaceDocumentDiagnosticReport::Unchanged(report) => &report.uri,
    }
}

/// What a pull answers for one file.
enum Pending {
    /// The client holds this generation's report.
    Unchanged,
    /// Its findings, from its text (the buffer when open, else the disk) taken under the lock.
    Lint(Box<LintInput>),
}

struct LintInput {
    path: std::path::PathBuf,
    text: String,
    context: Arc<crate::lsp::state::AnalysisContext>,
    eval: Option<crate::lsp::eval_results::EvalSummary>,
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
    ) -> (Vec<Diagnostic>, SkillFileReports) {
        let Pending::Lint(input) = self else {
            return (Vec::new(), Vec::new());
        };
        let LintInput {
            path,
            text,
            context,
            eval,
        } = *input;
        let document = BufferText {
            uri: uri.clone(),
            path: Some(path),
            rope: ropey::Rope::from_str(&text),
            text: text.into(),
            version: version.unwrap_or(0),
        };
        let analysis = analyze_skill(&document, &context);
        let mut items: Vec<Diagnostic> = analysis
            .diagnostics
            .iter()
            .map(|d| to_lsp_diagnostic(d, &document.rope, encoding, related))
            .collect();
        items.extend(eval.and_then(|eval| code_lens::eval_diagnostic(&document, &eval, encoding)));
        (
            items,
            skill_file_reports(analysis.skill_files, encoding, related),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::documents::Buffer;

    /// The version guard of design.md §7 and the README ("stale results are dropped"). The
    /// server computes and publishes a push between two `.await`s, so no client can make a
    /// document move on in between: only calling the guard directly shows it works.
    #[tokio::test]
    async fn results_for_an_older_version_or_a_closed_document_are_dropped() {
        let (service, _socket) = crate::lsp::server::build(None);
        let backend = service.inner();
        let uri: Uri = "file:///w/skills/pdf/SKILL.md".parse().unwrap();
        let text = "---\nname: pdf\n---\nBody\n";
        backend
            .lock()
            .open_document(uri.clone(), Buffer::new(text, 3));
        assert!(
            !publish_if_current(backend, &uri, 2, Vec::new()).await,
            "published a result for version 2 of a document at version 3"
        );
        assert!(publish_if_current(backend, &uri, 3, Vec::new()).await);
        backend.lock().close_document(&uri);
        assert!(
            !publish_if_current(backend, &uri, 3, Vec::new()).await,
            "published a result for a closed document"
        );
    }
}
