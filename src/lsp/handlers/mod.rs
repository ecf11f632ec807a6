//! Request handlers as plain functions over a document snapshot: no locks, no I/O with the
//! client, so each is testable in-process.

pub mod code_action;
pub mod completion;
pub mod hover;
pub mod navigation;

use tower_lsp_server::ls_types::{MarkupContent, MarkupKind};

/// Markdown as a `MarkupContent` for clients that render it; `None` for the others, which get
/// `plain` text instead.
#[must_use]
pub fn markup(value: &str, markdown: bool) -> Option<MarkupContent> {
    markdown.then(|| MarkupContent {
        kind: MarkupKind::Markdown,
        value: value.to_owned(),
    })
}

/// The same words without Markdown emphasis and code marks.
#[must_use]
pub fn plain(value: &str) -> String {
    value.replace("**", "").replace('`', "")
}
