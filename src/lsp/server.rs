//! The `LanguageServer` entry points of the [`Backend`], each a delegation to the module that
//! owns it. Requests about one document run a handler of
//! `handlers/*` on a [`Snapshot`]; notifications live in `notifications`, diagnostics in
//! `diagnostics`, the custom methods in `catalog` and `agent_chat`.

use std::sync::{Arc, Mutex};

use serde::de::DeserializeOwned;
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{LanguageServer, LspService};

use super::backend::Backend;
use super::ext::{self, CatalogParams, LoadSkillParams};
use super::handlers::{
    catch_panic, code_action, code_lens, completion, hover, inlay_hints, invalid_params, links,
    names, rename, symbols,
};
use super::snapshot::Snapshot;
use super::state::State;
use super::{agent_chat, capabilities, catalog, diagnostics, evals, indexing, notifications};

/// Builds the service with the `skill/*` methods.
/// The service; `direct` is the framing layer's output queue, for notifications that must
/// precede their request's response (`outgoing`).
pub(crate) fn build(
    direct: Option<tokio::sync::mpsc::UnboundedSender<Vec<u8>>>,
) -> (LspService<Backend>, tower_lsp_server::ClientSocket) {
    LspService::build(|client| Backend {
        outgoing: super::outgoing::Outgoing::new(client.clone(), direct),
        client,
        state: Arc::new(Mutex::new(State::default())),
        publish_lock: tokio::sync::Mutex::new(()),
        ready: tokio::sync::watch::Sender::new(false),
        sessions: super::chat_sessions::Sessions::default(),
    })
    .custom_method(ext::CATALOG, Backend::catalog)
    .custom_method(ext::LOAD_SKILL, Backend::load_skill)
    .custom_method(ext::AGENT_CHAT, Backend::agent_chat)
    .custom_method(ext::RUN_EVALS, Backend::run_evals)
    .custom_method(ext::IMPROVE_DESCRIPTION, Backend::improve_description)
    .finish()
}

/// Whether a request waits for the initial index (it needs the registry) or answers at once.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Index {
    Wait,
    DontWait,
}

impl Backend {
    /// Runs a handler on the snapshot of `uri`: `Ok(None)` when the document is not open, an
    /// internal error (not the end of the server) when the handler panics.
    async fn on_document<P, R>(
        &self,
        index: Index,
        uri: &Uri,
        method: &'static str,
        params: P,
        handler: fn(&Snapshot, P) -> Result<Option<R>>,
    ) -> Result<Option<R>> {
        if index == Index::Wait {
            self.wait_ready().await;
        }
        let Some(snapshot) = self.snapshot(uri) else {
            return Ok(None);
        };
        catch_panic(method, || handler(&snapshot, params))?
    }

    /// [`Self::on_document`] for handlers that walk the workspace folder: on a blocking
    /// thread, so the server keeps answering meanwhile.
    async fn on_document_blocking<P: Send + 'static, R: Send + 'static>(
        &self,
        uri: &Uri,
        method: &'static str,
        params: P,
        handler: fn(&Snapshot, P) -> Result<Option<R>>,
    ) -> Result<Option<R>> {
        self.wait_ready().await;
        let Some(snapshot) = self.snapshot(uri) else {
            return Ok(None);
        };
        tokio::task::spawn_blocking(move || catch_panic(method, || handler(&snapshot, params)))
            .await
            .map_err(|_| Error::internal_error())??
    }

    async fn catalog(&self, params: CatalogParams) -> Result<ext::CatalogResult> {
        catalog::catalog(self, params).await
    }

    async fn load_skill(&self, params: LoadSkillParams) -> Result<ext::LoadSkillResult> {
        catalog::load_skill(self, params).await
    }

    async fn agent_chat(&self, params: ext::AgentChatParams) -> Result<ext::AgentChatResult> {
        agent_chat::agent_chat(self, params).await
    }

    async fn run_evals(&self, params: ext::RunEvalsParams) -> Result<ext::RunEvalsResult> {
        evals::run_evals(self, params).await
    }

    async fn improve_description(
        &self,
        params: ext::ImproveDescriptionParams,
    ) -> Result<ext::ImproveDescriptionResult> {
        super::improve::improve_description(self, params).await
    }
}

/// The first argument of a `workspace/executeCommand` as a method's params (`{}` if none).
fn command_params<P: DeserializeOwned>(arguments: Vec<Value>, wants: &str) -> Result<P> {
    let argument = arguments
        .into_iter()
        .next()
        .unwrap_or(Value::Object(serde_json::Map::new()));
    serde_json::from_value(argument).map_err(|error| invalid_params(format!("{wants}: {error}")))
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let (encoding, caps) = self.lock().initialize(&params);
        Ok(capabilities::initialize_result(encoding, caps))
    }

    async fn initialized(&self, _: InitializedParams) {
        // Indexing first: the watchers include the config's extra roots.
        indexing::index_workspaces(self).await;
        indexing::register_watchers(self).await;
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        notifications::did_open(self, params).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        notifications::did_change(self, params).await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        notifications::did_close(self, params).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        notifications::did_change_configuration(self, params).await;
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        notifications::did_change_workspace_folders(self, params).await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        notifications::did_change_watched_files(self, params).await;
    }

    async fn did_create_files(&self, params: CreateFilesParams) {
        let uris = params.files.into_iter().map(|file| file.uri).collect();
        notifications::files_operated(self, uris).await;
    }

    async fn did_rename_files(&self, params: RenameFilesParams) {
        let uris = params
            .files
            .into_iter()
            .flat_map(|file| [file.old_uri, file.new_uri])
            .collect();
        notifications::files_operated(self, uris).await;
    }

    async fn did_delete_files(&self, params: DeleteFilesParams) {
        let uris = params.files.into_iter().map(|file| file.uri).collect();
        notifications::files_operated(self, uris).await;
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        diagnostics::pull(self, params).await
    }

    async fn workspace_diagnostic(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        diagnostics::pull_workspace(self, params).await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let uri = params.text_document_position.text_document.uri.clone();
        let handler = completion::completion;
        self.on_document(Index::Wait, &uri, "completion", params, handler)
            .await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let uri = params
            .text_document_position_params
            .text_document
            .uri
            .clone();
        self.on_document(Index::DontWait, &uri, "hover", params, hover::hover)
            .await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri.clone();
        let handler = code_action::code_action;
        self.on_document(Index::Wait, &uri, "codeAction", params, handler)
            .await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let uri = params.text_document.uri.clone();
        let handler = symbols::document_symbol;
        self.on_document(Index::DontWait, &uri, "documentSymbol", params, handler)
            .await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let uri = params.text_document.uri.clone();
        let handler = code_lens::code_lens;
        self.on_document(Index::DontWait, &uri, "codeLens", params, handler)
            .await
    }

    async fn document_link(&self, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        let uri = params.text_document.uri.clone();
        let handler = links::document_link;
        self.on_document(Index::DontWait, &uri, "documentLink", params, handler)
            .await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let uri = params.text_document.uri.clone();
        let handler = inlay_hints::inlay_hint;
        self.on_document(Index::DontWait, &uri, "inlayHint", params, handler)
            .await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let uri = params
            .text_document_position_params
            .text_document
            .uri
            .clone();
        self.on_document(Index::Wait, &uri, "definition", params, names::definition)
            .await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let uri = params.text_document_position.text_document.uri.clone();
        self.on_document_blocking(&uri, "references", params, names::references)
            .await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let uri = params.text_document.uri.clone();
        let handler = rename::prepare_rename;
        self.on_document(Index::DontWait, &uri, "prepareRename", params, handler)
            .await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let uri = params.text_document_position.text_document.uri.clone();
        self.on_document_blocking(&uri, "rename", params, rename::rename)
            .await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        let arguments = params.arguments;
        let result = match params.command.as_str() {
            ext::CATALOG => serde_json::to_value(self.catalog(CatalogParams::default()).await?),
            ext::AGENT_CHAT => {
                let params = command_params(arguments, "skill/agentChat wants {\"prompt\"}")?;
                serde_json::to_value(self.agent_chat(params).await?)
            }
            ext::LOAD_SKILL => {
                let params = command_params(arguments, "skill/loadSkill wants {\"name\"}")?;
                serde_json::to_value(self.load_skill(params).await?)
            }
            other => return Err(invalid_params(format!("unknown command '{other}'"))),
        };
        Ok(result.ok())
    }
}
