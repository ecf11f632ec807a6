//! Capability negotiation: what the client can do (resolved once from `initialize`, next to the
//! struct that holds it), the position encoding, and what the server offers in return.

use std::path::PathBuf;

use tower_lsp_server::ls_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CodeLensOptions,
    CompletionOptions, DiagnosticOptions, DiagnosticServerCapabilities, DocumentLinkOptions,
    ExecuteCommandOptions, HoverProviderCapability, InitializeParams, InitializeResult, MarkupKind,
    OneOf, PositionEncodingKind, RenameOptions, ResourceOperationKind, ServerCapabilities,
    ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    WorkDoneProgressOptions, WorkspaceFileOperationsServerCapabilities,
    WorkspaceFoldersServerCapabilities, WorkspaceServerCapabilities,
};
use tower_lsp_server::ls_types::{
    FileOperationFilter, FileOperationPattern, FileOperationRegistrationOptions,
};

use super::convert::uri_path;
use super::documents::Encoding;
use super::ext;

/// What the client told us it can do.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ClientCaps {
    pub pull_diagnostics: bool,
    pub diagnostic_refresh: bool,
    pub snippets: bool,
    pub resource_operations: bool,
    pub document_changes: bool,
    pub watched_files_dynamic: bool,
    pub work_done_progress: bool,
    /// Whether the client re-asks for code lenses on `workspace/codeLens/refresh`.
    pub code_lens_refresh: bool,
    pub related_information: bool,
    pub completion_markdown: bool,
    pub hover_markdown: bool,
    /// The client implements the command of the trigger-evals code lens
    /// (`experimental.skillLsp.runTriggerEvals`); to others a lens would be a dead button.
    pub run_trigger_evals: bool,
    /// Whether the client implements `skillLsp.improveDescription`
    /// (`experimental.skillLsp.improveDescription`), the command of the improve code action.
    pub improve_description: bool,
}

impl ClientCaps {
    /// Reads the client's capabilities from `initialize`; anything not declared is off.
    #[must_use]
    pub(crate) fn from_params(params: &InitializeParams) -> Self {
        let capabilities = &params.capabilities;
        let text_document = capabilities.text_document.as_ref();
        let workspace = capabilities.workspace.as_ref();
        let edit = workspace.and_then(|workspace| workspace.workspace_edit.as_ref());
        Self {
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
            code_lens_refresh: workspace
                .and_then(|workspace| workspace.code_lens.as_ref())
                .and_then(|code_lens| code_lens.refresh_support)
                .unwrap_or(false),
            run_trigger_evals: capabilities
                .experimental
                .as_ref()
                .and_then(|experimental| experimental.pointer("/skillLsp/runTriggerEvals"))
                .and_then(serde_json::Value::as_bool)
                .unwrap_or(false),
            improve_description: capabilities
                .experimental
                .as_ref()
                .and_then(|experimental| experimental.pointer("/skillLsp/improveDescription"))
                .and_then(serde_json::Value::as_bool)
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
}

/// UTF-8 when the client offers it, else the default UTF-16 (design.md §7).
#[must_use]
pub(crate) fn position_encoding(params: &InitializeParams) -> Encoding {
    params
        .capabilities
        .general
        .as_ref()
        .and_then(|general| general.position_encodings.as_ref())
        .filter(|encodings| encodings.contains(&PositionEncodingKind::UTF8))
        .map_or(Encoding::Utf16, |_| Encoding::Utf8)
}

/// The workspace folders to index: the client's folders, else its root.
#[allow(
    deprecated,
    reason = "root_uri is the fallback for clients without workspace folders"
)]
#[must_use]
pub(crate) fn workspace_folders(params: &InitializeParams) -> Vec<PathBuf> {
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

/// What the server offers: pull diagnostics only to a client that pulls, push otherwise.
#[must_use]
pub(crate) fn initialize_result(encoding: Encoding, caps: ClientCaps) -> InitializeResult {
    let diagnostic_provider = caps.pull_diagnostics.then(|| {
        DiagnosticServerCapabilities::Options(DiagnosticOptions {
            identifier: Some("skill-lsp".to_owned()),
            inter_file_dependencies: true,
            workspace_diagnostics: true,
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })
    });
    InitializeResult {
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
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![
                    CodeActionKind::QUICKFIX,
                    CodeActionKind::new(ext::FIX_ALL_KIND),
                ]),
                ..CodeActionOptions::default()
            })),
            document_symbol_provider: Some(OneOf::Left(true)),
            code_lens_provider: Some(CodeLensOptions {
                resolve_provider: Some(false),
            }),
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
                // Every file and folder: a skill folder deleted or renamed in the editor's
                // explorer is one folder event, which no `**/SKILL.md` filter would match.
                file_operations: Some(WorkspaceFileOperationsServerCapabilities {
                    did_create: Some(every_file_operation()),
                    did_rename: Some(every_file_operation()),
                    did_delete: Some(every_file_operation()),
                    ..WorkspaceFileOperationsServerCapabilities::default()
                }),
            }),
            ..ServerCapabilities::default()
        },
        server_info: Some(ServerInfo {
            name: "skill-lsp".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }),
        offset_encoding: None,
    }
}

fn every_file_operation() -> FileOperationRegistrationOptions {
    FileOperationRegistrationOptions {
        filters: vec![FileOperationFilter {
            scheme: Some("file".to_owned()),
            pattern: FileOperationPattern {
                glob: "**/*".to_owned(),
                matches: None,
                options: None,
            },
        }],
    }
}
