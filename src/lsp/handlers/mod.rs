//! Request handlers, one file per feature, each a plain function of `(&Snapshot, params)`: no
//! locks, no I/O with the client, so each is testable in-process. `server` routes the
//! requests here through `Backend::on_document`, which also turns a panic into an error.

pub(crate) mod code_action;
pub(crate) mod code_lens;
pub(crate) mod completion;
pub(crate) mod eval_set;
pub(crate) mod hover;
pub(crate) mod inlay_hints;
pub(crate) mod links;
pub(crate) mod manifest;
pub(crate) mod names;
pub(crate) mod rename;
pub(crate) mod symbols;

use std::panic::AssertUnwindSafe;

use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{MarkupContent, MarkupKind};

/// Markdown as a `MarkupContent` for clients that render it; `None` for the others, which get
/// `plain` text instead.
#[must_use]
pub(crate) fn markup(value: &str, markdown: bool) -> Option<MarkupContent> {
    markdown.then(|| MarkupContent {
        kind: MarkupKind::Markdown,
        value: value.to_owned(),
    })
}

/// The same words without Markdown emphasis and code marks.
#[must_use]
pub(crate) fn plain(value: &str) -> String {
    value.replace("**", "").replace('`', "")
}

/// Runs a computation, turning a panic into an internal error instead of the end of the server.
///
/// # Errors
/// An internal error when `compute` panics.
pub(crate) fn catch_panic<T>(what: &str, compute: impl FnOnce() -> T) -> Result<T> {
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

/// The error of a request the server cannot serve as asked; the message is for the user.
#[must_use]
pub(crate) fn invalid_params(message: impl Into<String>) -> Error {
    Error {
        code: ErrorCode::InvalidParams,
        message: message.into().into(),
        data: None,
    }
}

/// A model provider that cannot be set up, as [`invalid_params`]. A missing model or provider
/// also says which in `data` (`{"unset": "model"}`), so an editor can point at its own setting
/// without reading the message.
#[must_use]
pub(crate) fn provider_setup_error(error: &crate::agent::provider::ProviderError) -> Error {
    let mut reply = invalid_params(error.to_string());
    if let crate::agent::provider::ProviderError::Unset(unset) = error {
        reply.data = Some(serde_json::json!({"unset": unset.id()}));
    }
    reply
}
