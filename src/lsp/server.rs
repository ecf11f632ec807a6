//! The `LanguageServer` implementation: capabilities, document sync, diagnostics (push or
//! pull), the workspace index, and dispatch to the handlers.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::{Value, json};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::notification::Progress as ProgressNotification;
use tower_lsp_server::ls_types::request::WorkDoneProgressCreate;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService};

use super::convert::to_lsp_diagnostic;
use super::documents::{Document, Encoding, offset_of};
use super::ext::{
    self, CatalogParams, CatalogResult, CatalogSkill, LoadSkillParams, LoadSkillResult,
};
use super::handlers::code_action::{EditCaps, code_actions};
use super::handlers::completion::{CompletionInput, complete};
use super::handlers::hover::hover;
use super::handlers::navigation;
use super::state::{
    AnalysisContext, ClientSettings, Snapshot, State, Workspace, analyze, uri_path,
};
use crate::config::FILE_NAMES;
use crate::diagnostic as core;
use crate::rules::fix::fix_all;
use crate::text::TextRange;
use crate::workspace::Registry;

pub struct Backend {
    client: Client,
    state: Arc<Mutex<State>>,
    /// Serialises "is this still the newest version? then publish" so stale diagnostics never
    /// overtake fresh ones.
    publish_lock: tokio::sync::Mutex<()>,
    /// True once the workspace folders are indexed; what needs the registry waits for it.
    ready: tokio::sync::watch::Sender<bool>,
    sessions: super::agent::Sessions,
}

/// Runs a computation, turning a panic into an internal error instead of the end of the server.
fn guard<T>(what: &str, compute: impl FnOnce() -> T) -> Result<T> {
    std::panic::catch_unwind(AssertUnwindSafe(compute)).map_err(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|text| (*text).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        tracing::error!("{what} panicked: {message}");
        Error {
            code: ErrorCode::InternalError,
            message: format!("internal error in {what}").into(),
            data: None,
        }
    })
}

fn invalid_params(message: impl Into<String>) -> Error {
    Error {
        code: ErrorCode::InvalidParams,
        message: message.into().into(),
        data: None,
    }
}

/// Builds the service with the `skill/*` methods.
pub fn build() -> (LspService<Backend>, tower_lsp_server::ClientSocket) {
    LspService::build(|client| Backend {
        client,
        state: Arc::new(Mutex::new(State::default())),
        publish_lock: tokio::sync::Mutex::new(()),
        ready: tokio::sync::watch::Sender::new(false),
        sessions: super::agent::Sessions::default(),
    })
    .custom_method(ext::CATALOG, Backend::catalog)
    .custom_method(ext::LOAD_SKILL, Backend::load_skill)
    .custom_method(super::agent::AGENT_CHAT, Backend::agent_chat)
    .finish()
}

impl Backend {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits until the initial index is built (bounded, so a stuck client cannot hang requests).
    async fn wait_ready(&self) {
        let mut ready = self.ready.subscribe();
        let _ = tokio::time::timeout(
            std::time::Duration::from_secs(30),
            ready.wait_for(|ready| *ready),
        )
        .await;
    }

    fn snapshot_and_context(&self, uri: &Uri) -> Option<(Snapshot, AnalysisContext, Encoding)> {
        let state = self.lock();
        let snapshot = state.snapshot(uri)?;
        let context = state.analysis_context(snapshot.path.as_deref());
        Some((snapshot, context, state.encoding))
    }

    /// Pushes the diagnostics of one open document, unless the client pulls them or the
    /// document moved on while we computed.
    async fn publish(&self, uri: &Uri) {
        self.wait_ready().await;
        let _serial = self.publish_lock.lock().await;
        let (snapshot, context, encoding, related, pull) = {
            let state = self.lock();
            let Some(snapshot) = state.snapshot(uri) else {
                return;
            };
            let context = state.analysis_context(snapshot.path.as_deref());
            (
                snapshot,
                context,
                state.encoding,
                state.caps.related_information,
                state.caps.pull_diagnostics,
            )
        };
        if pull || !snapshot.is_skill_file() {
            return;
        }
        let Ok(diagnostics) = guard("diagnostics", || analyze(&snapshot, &context)) else {
            return;
        };
        let items: Vec<Diagnostic> = diagnostics
            .iter()
            .map(|d| to_lsp_diagnostic(d, &snapshot.rope, encoding, related))
            .collect();
        let current = self
            .lock()
            .documents
            .get(uri)
            .map(|document| document.version);
        if current != Some(snapshot.version) {
            return; // A newer version is on its way; this result is stale.
        }
        self.client
            .publish_diagnostics(uri.clone(), items, Some(snapshot.version))
            .await;
    }

    /// Re-lints every open document (workspace rules' inputs changed), or asks a pulling client
    /// to pull again.
    async fn publish_all(&self) {
        let (uris, pull, refresh) = {
            let mut state = self.lock();
            state.generation += 1;
            (
                state.documents.keys().cloned().collect::<Vec<_>>(),
                state.caps.pull_diagnostics,
                state.caps.diagnostic_refresh,
            )
        };
        if pull {
            if refresh {
                let _ = self.client.workspace_diagnostic_refresh().await;
            }
            return;
        }
        for uri in uris {
            self.publish(&uri).await;
        }
    }

    /// After a SKILL.md buffer or file changed: update the index, then re-lint what depends on it.
    async fn skill_changed(&self, uri: &Uri) {
        let ready = *self.ready.borrow();
        {
            let mut state = self.lock();
            state.generation += 1;
            if let Some(path) = uri_path(uri).filter(|_| ready) {
                state.ensure_workspace(&path);
            }
        }
        let changed = uri_path(uri).is_some_and(|path| self.lock().refresh_skill(&path));
        if changed {
            self.publish_all().await;
        } else {
            self.publish(uri).await;
        }
    }

    async fn index_workspaces(&self) {
        let (folders, progress) = {
            let mut state = self.lock();
            (
                std::mem::take(&mut state.pending_folders),
                state.caps.work_done_progress,
            )
        };
        if folders.is_empty() {
            self.ready.send_replace(true);
            return;
        }
        let token = NumberOrString::String("skill-lsp/index".to_owned());
        let progress = progress
            && self
                .client
                .send_request::<WorkDoneProgressCreate>(WorkDoneProgressCreateParams {
                    token: token.clone(),
                })
                .await
                .is_ok();
        if progress {
            self.client
                .send_notification::<ProgressNotification>(ProgressParams {
                    token: token.clone(),
                    value: ProgressParamsValue::WorkDone(WorkDoneProgress::Begin(
                        WorkDoneProgressBegin {
                            title: "Indexing skills".to_owned(),
                            cancellable: Some(false),
                            message: Some(format!("{} workspace folder(s)", folders.len())),
                            percentage: None,
                        },
                    )),
                })
                .await;
        }
        let overlay = self.lock().overlay();
        let workspaces = tokio::task::spawn_blocking(move || {
            folders
                .into_iter()
                .map(|folder| Workspace::load(folder, &overlay))
                .collect::<Vec<_>>()
        })
        .await
        .unwrap_or_default();
        let count: usize = workspaces
            .iter()
            .map(|workspace| workspace.registry.skills.len())
            .sum();
        {
            let mut state = self.lock();
            state.workspaces.extend(workspaces);
            // Buffers opened while the index was built replace their disk copies now.
            let open: Vec<PathBuf> = state.documents.keys().filter_map(uri_path).collect();
            for path in open {
                state.ensure_workspace(&path);
                state.refresh_skill(&path);
            }
        }
        self.ready.send_replace(true);
        if progress {
            self.client
                .send_notification::<ProgressNotification>(ProgressParams {
                    token,
                    value: ProgressParamsValue::WorkDone(WorkDoneProgress::End(
                        WorkDoneProgressEnd {
                            message: Some(format!("{count} skill(s)")),
                        },
                    )),
                })
                .await;
        }
        self.publish_all().await;
    }

    async fn register_watchers(&self) {
        if !self.lock().caps.watched_files_dynamic {
            return;
        }
        // What the index and the rules read: Markdown (skills and their mentions), everything
        // under a skills root (`broken-link` targets), and the config files. Not `**/*`, which
        // would re-lint on every build artefact written.
        let mut patterns: Vec<String> =
            vec!["**/*.md".into(), "**/*.MD".into(), "**/skills/**".into()];
        patterns.extend(FILE_NAMES.iter().map(|name| format!("**/{name}")));
        for workspace in &self.lock().workspaces {
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
        if let Err(error) = self.client.register_capability(vec![registration]).await {
            tracing::warn!("could not register file watchers: {error}");
        }
    }

    fn offset(
        &self,
        uri: &Uri,
        position: Position,
    ) -> Option<(Snapshot, usize, AnalysisContext, Encoding)> {
        let (snapshot, context, encoding) = self.snapshot_and_context(uri)?;
        let offset = offset_of(&snapshot.rope, position, encoding);
        Some((snapshot, offset, context, encoding))
    }

    /// The registry of the workspace that holds `path`, or of the first workspace.
    fn registry_for(&self, path: Option<&Path>) -> Option<(PathBuf, Arc<Registry>)> {
        let state = self.lock();
        let workspace = path
            .and_then(|path| state.workspace_of(path))
            .or_else(|| state.workspaces.first())?;
        Some((workspace.folder.clone(), workspace.registry.clone()))
    }

    async fn catalog(&self, _: CatalogParams) -> Result<CatalogResult> {
        self.wait_ready().await;
        let (registry, contexts, overlay) = {
            let state = self.lock();
            let registry = state
                .agent_view()
                .map(|(_, registry)| registry)
                .unwrap_or_default();
            let contexts: Vec<AnalysisContext> = registry
                .skills
                .iter()
                .map(|skill| state.analysis_context(Some(&skill.path)))
                .collect();
            (registry, contexts, state.overlay())
        };
        guard("skill/catalog", move || {
            let skills = registry
                .skills
                .iter()
                .zip(contexts)
                .map(|(skill, context)| {
                    let diagnostics = match crate::workspace::Source::read(&overlay, &skill.path) {
                        Ok(text) => {
                            let snapshot = Snapshot {
                                uri: Uri::from_file_path(&skill.path)
                                    .unwrap_or_else(|| "file:///".parse().expect("a valid uri")),
                                path: Some(skill.path.clone()),
                                rope: ropey::Rope::from_str(&text),
                                text: text.into(),
                                version: 0,
                            };
                            analyze(&snapshot, &context).len()
                        }
                        Err(_) => 0,
                    };
                    CatalogSkill {
                        name: skill.name.clone(),
                        description: skill.description.clone(),
                        uri: Uri::from_file_path(&skill.path)
                            .map(|uri| uri.as_str().to_owned())
                            .unwrap_or_default(),
                        root: skill.root.to_string_lossy().into_owned(),
                        diagnostics,
                    }
                })
                .collect();
            CatalogResult {
                skills,
                prompt: registry.catalog(),
            }
        })
    }

    async fn load_skill(&self, params: LoadSkillParams) -> Result<LoadSkillResult> {
        self.wait_ready().await;
        let (registry, overlay) = {
            let state = self.lock();
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

    async fn progress(&self, token: &ProgressToken, value: WorkDoneProgress) {
        self.client
            .send_notification::<ProgressNotification>(ProgressParams {
                token: token.clone(),
                value: ProgressParamsValue::WorkDone(value),
            })
            .await;
    }

    /// `skill/agentChat`: one prompt of a (new or continued) conversation, streamed as
    /// `skill/agentEvent` notifications and `$/progress`, against the first workspace folder.
    async fn agent_chat(
        &self,
        params: super::agent::AgentChatParams,
    ) -> Result<super::agent::AgentChatResult> {
        use super::agent::{
            AgentChatResult, AgentEventNotification, ChatUsage, EditorApprover, event_json,
        };
        self.wait_ready().await;
        let (workspace, registry, overlay, model, max_turns) = {
            let state = self.lock();
            let (folder, registry) = state
                .agent_view()
                .ok_or_else(|| invalid_params("the agent needs a workspace folder"))?;
            let config = state
                .workspaces
                .iter()
                .find(|workspace| workspace.folder == folder)
                .map(|workspace| &workspace.config);
            (
                folder,
                registry,
                state.overlay(),
                config.and_then(|config| config.agent.model.clone()),
                config.and_then(|config| config.agent.max_turns),
            )
        };
        let provider =
            crate::agent::provider::from_env(&|name| std::env::var(name).ok(), model.as_deref())
                .map_err(|error| invalid_params(error.to_string()))?;
        let agent = crate::agent::Agent {
            provider: Arc::from(provider),
            workspace,
            registry,
            source: Arc::new(overlay),
            approver: Arc::new(EditorApprover {
                client: self.client.clone(),
            }),
            max_turns: max_turns.unwrap_or(crate::agent::session::DEFAULT_MAX_TURNS),
        };
        let mut lease = self
            .sessions
            .lease(params.session_id.as_deref())
            .map_err(invalid_params)?;
        let session_id = lease.id.clone();
        let token = params.work_done_token.clone();
        if let Some(token) = &token {
            self.progress(
                token,
                WorkDoneProgress::Begin(WorkDoneProgressBegin {
                    title: "Skill agent".to_owned(),
                    cancellable: Some(true),
                    message: Some(params.prompt.chars().take(80).collect()),
                    percentage: None,
                }),
            )
            .await;
        }
        // Events leave through a channel: the loop's callback is synchronous, sending is not.
        let (events, mut outgoing) = tokio::sync::mpsc::unbounded_channel::<Value>();
        let client = self.client.clone();
        let progress_token = token.clone();
        let forward = tokio::spawn(async move {
            while let Some(event) = outgoing.recv().await {
                if let (Some(token), Some("toolCall")) = (&progress_token, event["kind"].as_str()) {
                    let message = format!(
                        "{} {}",
                        event["name"].as_str().unwrap_or(""),
                        event["input"]
                    );
                    client
                        .send_notification::<ProgressNotification>(ProgressParams {
                            token: token.clone(),
                            value: ProgressParamsValue::WorkDone(WorkDoneProgress::Report(
                                WorkDoneProgressReport {
                                    cancellable: Some(true),
                                    message: Some(message.chars().take(120).collect()),
                                    percentage: None,
                                },
                            )),
                        })
                        .await;
                }
                client
                    .send_notification::<AgentEventNotification>(event)
                    .await;
            }
        });
        let mut notice = super::agent::CancelNotice {
            events: events.clone(),
            client: self.client.clone(),
            token: token.clone(),
            session_id: session_id.clone(),
            armed: true,
        };
        let outcome = {
            let session = lease.session.as_mut().ok_or_else(Error::internal_error)?;
            let id = session_id.clone();
            let sender = events.clone();
            agent
                .run(session, &params.prompt, &mut move |event| {
                    let _ = sender.send(event_json(&id, &event));
                })
                .await
        };
        notice.armed = false;
        drop(notice);
        let finished = match &outcome {
            Ok(outcome) => {
                json!({"sessionId": session_id, "kind": "done", "stopReason": outcome.stop_reason.as_text()})
            }
            Err(error) => {
                json!({"sessionId": session_id, "kind": "error", "message": error.to_string()})
            }
        };
        let _ = events.send(finished);
        drop(events);
        let _ = forward.await;
        if let Some(token) = &token {
            let message = outcome
                .as_ref()
                .map_or_else(ToString::to_string, |outcome| outcome.stop_reason.as_text());
            self.progress(
                token,
                WorkDoneProgress::End(WorkDoneProgressEnd {
                    message: Some(message),
                }),
            )
            .await;
        }
        let outcome = outcome.map_err(|error| Error {
            code: ErrorCode::InternalError,
            message: error.to_string().into(),
            data: None,
        })?;
        let session = lease.session.as_ref().ok_or_else(Error::internal_error)?;
        Ok(AgentChatResult {
            session_id,
            reply: outcome.reply,
            stop_reason: outcome.stop_reason.as_text(),
            loaded_skills: session.loaded.clone(),
            transcript: session.transcript.clone(),
            usage: ChatUsage {
                input_tokens: session.usage.input_tokens,
                output_tokens: session.usage.output_tokens,
            },
        })
    }
}

fn client_caps(params: &InitializeParams) -> super::state::ClientCaps {
    let capabilities = &params.capabilities;
    let text_document = capabilities.text_document.as_ref();
    let workspace = capabilities.workspace.as_ref();
    let edit = workspace.and_then(|workspace| workspace.workspace_edit.as_ref());
    super::state::ClientCaps {
        pull_diagnostics: text_document
            .and_then(|text| text.diagnostic.as_ref())
            .is_some(),
        diagnostic_refresh: workspace
            .and_then(|workspace| workspace.diagnostics.as_ref())
            .and_then(|d| d.refresh_support)
            .unwrap_or(false),
        snippets: text_document
            .and_then(|text| text.completion.as_ref())
            .and_then(|completion| completion.completion_item.as_ref())
            .and_then(|item| item.snippet_support)
            .unwrap_or(false),
        resource_operations: edit
            .and_then(|edit| edit.resource_operations.as_ref())
            .is_some_and(|operations| operations.contains(&ResourceOperationKind::Rename)),
        document_changes: edit.and_then(|edit| edit.document_changes).unwrap_or(false),
        watched_files_dynamic: workspace
            .and_then(|workspace| workspace.did_change_watched_files.as_ref())
            .and_then(|watched| watched.dynamic_registration)
            .unwrap_or(false),
        work_done_progress: capabilities
            .window
            .as_ref()
            .and_then(|window| window.work_done_progress)
            .unwrap_or(false),
        completion_markdown: text_document
            .and_then(|text| text.completion.as_ref())
            .and_then(|completion| completion.completion_item.as_ref())
            .and_then(|item| item.documentation_format.as_ref())
            .is_some_and(|formats| formats.contains(&MarkupKind::Markdown)),
        hover_markdown: text_document
            .and_then(|text| text.hover.as_ref())
            .and_then(|hover| hover.content_format.as_ref())
            .is_some_and(|formats| formats.contains(&MarkupKind::Markdown)),
        related_information: text_document
            .and_then(|text| text.publish_diagnostics.as_ref())
            .and_then(|publish| publish.related_information)
            .unwrap_or(false),
    }
}

#[allow(
    deprecated,
    reason = "root_uri is the fallback for clients without workspace folders"
)]
fn folders(params: &InitializeParams) -> Vec<PathBuf> {
    if let Some(folders) = &params.workspace_folders {
        return folders
            .iter()
            .filter_map(|folder| uri_path(&folder.uri))
            .collect();
    }
    params
        .root_uri
        .as_ref()
        .and_then(uri_path)
        .into_iter()
        .collect()
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let encoding = params
            .capabilities
            .general
            .as_ref()
            .and_then(|general| general.position_encodings.as_ref())
            .filter(|encodings| encodings.contains(&PositionEncodingKind::UTF8))
            .map_or(Encoding::Utf16, |_| Encoding::Utf8);
        let caps = client_caps(&params);
        {
            let mut state = self.lock();
            state.encoding = encoding;
            state.caps = caps;
            state.pending_folders = folders(&params);
            if let Some(options) = &params.initialization_options {
                state.settings = ClientSettings::from_json(options);
            }
        }
        let diagnostic_provider = caps.pull_diagnostics.then(|| {
            DiagnosticServerCapabilities::Options(DiagnosticOptions {
                identifier: Some("skill-lsp".to_owned()),
                inter_file_dependencies: true,
                workspace_diagnostics: true,
                work_done_progress_options: WorkDoneProgressOptions::default(),
            })
        });
        Ok(InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(match encoding {
                    Encoding::Utf8 => PositionEncodingKind::UTF8,
                    Encoding::Utf16 => PositionEncodingKind::UTF16,
                }),
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        // Saves change nothing: edits come through didChange, disk writes
                        // through file events.
                        save: None,
                        ..TextDocumentSyncOptions::default()
                    },
                )),
                completion_provider: Some(CompletionOptions {
                    trigger_characters: Some(vec![
                        ":".into(),
                        "/".into(),
                        "$".into(),
                        "(".into(),
                        " ".into(),
                    ]),
                    ..CompletionOptions::default()
                }),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                code_action_provider: Some(CodeActionProviderCapability::Options(
                    CodeActionOptions {
                        code_action_kinds: Some(vec![
                            CodeActionKind::QUICKFIX,
                            CodeActionKind::new(ext::FIX_ALL_KIND),
                        ]),
                        ..CodeActionOptions::default()
                    },
                )),
                document_symbol_provider: Some(OneOf::Left(true)),
                document_link_provider: Some(DocumentLinkOptions {
                    resolve_provider: Some(false),
                    work_done_progress_options: WorkDoneProgressOptions::default(),
                }),
                inlay_hint_provider: Some(OneOf::Left(true)),
                rename_provider: Some(OneOf::Right(RenameOptions {
                    prepare_provider: Some(true),
                    work_done_progress_options: WorkDoneProgressOptions::default(),
                })),
                definition_provider: Some(OneOf::Left(true)),
                references_provider: Some(OneOf::Left(true)),
                diagnostic_provider,
                execute_command_provider: Some(ExecuteCommandOptions {
                    commands: ext::COMMANDS
                        .iter()
                        .map(|command| (*command).to_owned())
                        .collect(),
                    work_done_progress_options: WorkDoneProgressOptions::default(),
                }),
                workspace: Some(WorkspaceServerCapabilities {
                    workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                        supported: Some(true),
                        change_notifications: Some(OneOf::Left(true)),
                    }),
                    file_operations: None,
                }),
                ..ServerCapabilities::default()
            },
            server_info: Some(ServerInfo {
                name: "skill-lsp".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        // Indexing first: the watchers include the config's extra roots.
        self.index_workspaces().await;
        self.register_watchers().await;
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let item = params.text_document;
        let uri = item.uri.clone();
        self.lock().documents.insert(
            item.uri,
            Document::new(&item.text, item.version, item.language_id),
        );
        self.skill_changed(&uri).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        {
            let mut state = self.lock();
            let encoding = state.encoding;
            let Some(document) = state.documents.get_mut(&uri) else {
                tracing::warn!(
                    "didChange for a document that is not open: {}",
                    uri.as_str()
                );
                return;
            };
            let changes = params.content_changes;
            let version = params.text_document.version;
            if guard("didChange", || document.apply(changes, version, encoding)).is_err() {
                return;
            }
        }
        self.skill_changed(&uri).await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        let (removed, pull) = {
            let mut state = self.lock();
            state.generation += 1;
            (
                state.documents.remove(&uri).is_some(),
                state.caps.pull_diagnostics,
            )
        };
        if removed && !pull {
            let _serial = self.publish_lock.lock().await;
            self.client
                .publish_diagnostics(uri.clone(), Vec::new(), None)
                .await;
        }
        // The disk copy replaces the buffer in the index.
        let changed = uri_path(&uri).is_some_and(|path| self.lock().refresh_skill(&path));
        if changed {
            self.publish_all().await;
        }
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.lock().settings = ClientSettings::from_json(&params.settings);
        self.publish_all().await;
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        {
            let mut state = self.lock();
            let removed: Vec<PathBuf> = params
                .event
                .removed
                .iter()
                .filter_map(|folder| uri_path(&folder.uri))
                .collect();
            state
                .workspaces
                .retain(|workspace| !removed.contains(&workspace.folder));
            state.pending_folders.extend(
                params
                    .event
                    .added
                    .iter()
                    .filter_map(|folder| uri_path(&folder.uri)),
            );
        }
        self.index_workspaces().await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        {
            let mut state = self.lock();
            let overlay = state.overlay();
            for change in params.changes {
                let Some(path) = uri_path(&change.uri) else {
                    continue;
                };
                let is_config = path
                    .file_name()
                    .and_then(|name| name.to_str())
                    .is_some_and(|name| FILE_NAMES.contains(&name));
                if is_config {
                    if let Some(workspace) = state.workspace_of_mut(&path) {
                        let folder = workspace.folder.clone();
                        *workspace = Workspace::load(folder, &overlay);
                    }
                    continue;
                }
                // Open buffers win over the disk; their own edits already updated the index.
                let open = state
                    .documents
                    .keys()
                    .any(|uri| uri_path(uri).as_deref() == Some(path.as_path()));
                if open {
                    continue;
                }
                if let Some(workspace) = state.workspace_of_mut(&path) {
                    workspace.refresh(&path, &overlay);
                }
            }
        }
        // Created or deleted files change `broken-link` results too: re-lint what is open.
        self.publish_all().await;
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        self.wait_ready().await;
        let uri = params.text_document.uri;
        let (generation, related) = {
            let state = self.lock();
            (state.generation.to_string(), state.caps.related_information)
        };
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
        let Some((snapshot, context, encoding)) = self.snapshot_and_context(&uri) else {
            return Err(invalid_params(format!("{} is not open", uri.as_str())));
        };
        let items = if snapshot.is_skill_file() {
            guard("diagnostics", || analyze(&snapshot, &context))?
                .iter()
                .map(|d| to_lsp_diagnostic(d, &snapshot.rope, encoding, related))
                .collect()
        } else {
            Vec::new()
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

    async fn workspace_diagnostic(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        self.wait_ready().await;
        let (work, encoding, related, generation) = {
            let state = self.lock();
            let generation = state.generation.to_string();
            let current: std::collections::HashSet<&Uri> = params
                .previous_result_ids
                .iter()
                .filter(|previous| previous.value == generation)
                .map(|previous| &previous.uri)
                .collect();
            let overlay = state.overlay();
            let mut work = Vec::new();
            for workspace in &state.workspaces {
                let registry = workspace.registry.clone();
                let paths = registry
                    .members()
                    // Linked from outside their root: not registered, but clients load them.
                    .chain(registry.refused.iter().filter_map(|refused| {
                        matches!(
                            refused.refusal,
                            crate::workspace::loader::Refusal::OutsideRoot { .. }
                        )
                        .then_some(&refused.path)
                    }));
                for path in paths {
                    let Some(uri) = Uri::from_file_path(path) else {
                        continue;
                    };
                    let version = state.documents.get(&uri).map(|document| document.version);
                    if current.contains(&uri) {
                        work.push((uri, version, None));
                        continue;
                    }
                    let Ok(text) = crate::workspace::Source::read(&overlay, path) else {
                        continue;
                    };
                    let context = state.analysis_context(Some(path));
                    work.push((uri, version, Some((path.clone(), text, context))));
                }
            }
            (
                work,
                state.encoding,
                state.caps.related_information,
                generation,
            )
        };
        let items = guard("workspace diagnostics", || {
            work.into_iter()
                .map(|(uri, version, input)| {
                    let Some((path, text, context)) = input else {
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
                    };
                    let snapshot = Snapshot {
                        uri: uri.clone(),
                        path: Some(path),
                        rope: ropey::Rope::from_str(&text),
                        text: text.into(),
                        version: version.unwrap_or(0),
                    };
                    let items = analyze(&snapshot, &context)
                        .iter()
                        .map(|d| to_lsp_diagnostic(d, &snapshot.rope, encoding, related))
                        .collect();
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

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        self.wait_ready().await;
        let position = params.text_document_position;
        let Some((snapshot, offset, context, encoding)) =
            self.offset(&position.text_document.uri, position.position)
        else {
            return Ok(None);
        };
        let (snippets, markdown) = {
            let state = self.lock();
            (state.caps.snippets, state.caps.completion_markdown)
        };
        let items = guard("completion", || {
            let input = CompletionInput {
                targets: &context.targets(snapshot.path.as_deref()),
                registry: context.registry.as_deref(),
                snippets,
                markdown,
                encoding,
            };
            complete(&snapshot, offset, &input)
        })?;
        Ok((!items.is_empty()).then_some(CompletionResponse::Array(items)))
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let position = params.text_document_position_params;
        let Some((snapshot, offset, context, encoding)) =
            self.offset(&position.text_document.uri, position.position)
        else {
            return Ok(None);
        };
        let markdown = self.lock().caps.hover_markdown;
        guard("hover", || {
            hover(
                &snapshot,
                offset,
                context.registry.as_deref(),
                encoding,
                markdown,
            )
        })
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        self.wait_ready().await;
        let Some((snapshot, context, encoding)) =
            self.snapshot_and_context(&params.text_document.uri)
        else {
            return Ok(None);
        };
        if !snapshot.is_skill_file() {
            return Ok(None);
        }
        let caps = {
            let state = self.lock();
            EditCaps {
                document_changes: state.caps.document_changes,
                rename_files: state.caps.resource_operations,
            }
        };
        let actions = guard("codeAction", || {
            let diagnostics: Vec<core::Diagnostic> = analyze(&snapshot, &context);
            let start = offset_of(&snapshot.rope, params.range.start, encoding);
            let end = offset_of(&snapshot.rope, params.range.end, encoding).max(start);
            let only = params.context.only.as_deref();
            code_actions(
                &snapshot,
                &diagnostics,
                TextRange::new(start, end),
                only,
                encoding,
                caps,
                |text| {
                    fix_all(text, |candidate| {
                        let mut variant = snapshot.clone();
                        variant.text = candidate.into();
                        variant.rope = ropey::Rope::from_str(candidate);
                        analyze(&variant, &context)
                    })
                },
            )
        })?;
        Ok((!actions.is_empty()).then_some(actions))
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let Some((snapshot, _, encoding)) = self.snapshot_and_context(&params.text_document.uri)
        else {
            return Ok(None);
        };
        let symbols = guard("documentSymbol", || {
            navigation::document_symbols(&snapshot, encoding)
        })?;
        Ok(Some(DocumentSymbolResponse::Nested(symbols)))
    }

    async fn document_link(&self, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        let Some((snapshot, _, encoding)) = self.snapshot_and_context(&params.text_document.uri)
        else {
            return Ok(None);
        };
        Ok(Some(guard("documentLink", || {
            navigation::document_links(&snapshot, encoding)
        })?))
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let Some((snapshot, _, encoding)) = self.snapshot_and_context(&params.text_document.uri)
        else {
            return Ok(None);
        };
        if !snapshot.is_skill_file() {
            return Ok(None);
        }
        Ok(Some(guard("inlayHint", || {
            navigation::inlay_hints(&snapshot, encoding)
        })?))
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        self.wait_ready().await;
        let position = params.text_document_position_params;
        let Some((snapshot, offset, context, encoding)) =
            self.offset(&position.text_document.uri, position.position)
        else {
            return Ok(None);
        };
        let overlay = self.lock().overlay();
        guard("definition", || {
            let site = navigation::name_at(&snapshot, offset)?;
            let name = site.into_name();
            navigation::definition(context.registry.as_ref()?, &name, encoding, &overlay)
                .map(GotoDefinitionResponse::Scalar)
        })
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        self.wait_ready().await;
        let position = params.text_document_position;
        let Some((snapshot, offset, _, encoding)) =
            self.offset(&position.text_document.uri, position.position)
        else {
            return Ok(None);
        };
        let Some((folder, registry)) = self.registry_for(snapshot.path.as_deref()) else {
            return Ok(None);
        };
        let overlay = self.lock().overlay();
        let include = params.context.include_declaration;
        let locations = tokio::task::spawn_blocking(move || {
            guard("references", || {
                let name = navigation::name_at(&snapshot, offset)?.into_name();
                Some(navigation::references(
                    &folder,
                    Some(registry.as_ref()),
                    &name,
                    include,
                    encoding,
                    &overlay,
                ))
            })
        })
        .await
        .map_err(|_| Error::internal_error())??;
        Ok(locations)
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let Some((snapshot, offset, _, encoding)) =
            self.offset(&params.text_document.uri, params.position)
        else {
            return Ok(None);
        };
        guard("prepareRename", || {
            let site = navigation::name_at(&snapshot, offset)?;
            let range = site.range();
            let name = site.into_name();
            Some(PrepareRenameResponse::RangeWithPlaceholder {
                range: super::documents::range_of(&snapshot.rope, range.start, range.end, encoding),
                placeholder: name,
            })
        })
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        self.wait_ready().await;
        let position = params.text_document_position;
        let Some((snapshot, offset, _, encoding)) =
            self.offset(&position.text_document.uri, position.position)
        else {
            return Ok(None);
        };
        let Some((folder, registry)) = self.registry_for(snapshot.path.as_deref()) else {
            return Err(invalid_params("no workspace folder holds this skill"));
        };
        let (overlay, versions, resource_operations) = {
            let state = self.lock();
            let versions: HashMap<PathBuf, i32> = state
                .documents
                .iter()
                .filter_map(|(uri, document)| Some((uri_path(uri)?, document.version)))
                .collect();
            (
                state.overlay(),
                versions,
                state.caps.resource_operations && state.caps.document_changes,
            )
        };
        let new_name = params.new_name;
        let result = tokio::task::spawn_blocking(move || {
            guard("rename", || {
                let Some(site) = navigation::name_at(&snapshot, offset) else {
                    return Err("place the cursor on a skill name or mention".to_owned());
                };
                let old = site.into_name();
                navigation::rename_edit(
                    &registry,
                    &folder,
                    &old,
                    &new_name,
                    encoding,
                    &overlay,
                    &versions,
                    resource_operations,
                )
            })
        })
        .await
        .map_err(|_| Error::internal_error())??;
        result.map(Some).map_err(invalid_params)
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        let argument = params
            .arguments
            .into_iter()
            .next()
            .unwrap_or(Value::Object(serde_json::Map::new()));
        match params.command.as_str() {
            ext::CATALOG => {
                let result = self.catalog(CatalogParams::default()).await?;
                Ok(serde_json::to_value(result).ok())
            }
            super::agent::AGENT_CHAT => {
                let params: super::agent::AgentChatParams = serde_json::from_value(argument)
                    .map_err(|error| {
                        invalid_params(format!("skill/agentChat wants {{\"prompt\"}}: {error}"))
                    })?;
                let result = self.agent_chat(params).await?;
                Ok(serde_json::to_value(result).ok())
            }
            ext::LOAD_SKILL => {
                let params: LoadSkillParams =
                    serde_json::from_value(argument).map_err(|error| {
                        invalid_params(format!("skill/loadSkill wants {{\"name\"}}: {error}"))
                    })?;
                let result = self.load_skill(params).await?;
                Ok(serde_json::to_value(result).ok())
            }
            other => Err(invalid_params(format!("unknown command '{other}'"))),
        }
    }
}
