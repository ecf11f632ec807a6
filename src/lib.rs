//! skill-lsp: lint, author and run Agent Skills (SKILL.md).
//!
//! The core (`text`, `diagnostic`, `targets`, `config`, `field_table`, `rule_table`, `rule_docs`,
//! `document`, `rules`, `security`, `plugins`, `clients`, `workspace`, `analysis`) is synchronous
//! and free of LSP, async and HTTP types; `cli` and `lsp` are thin front ends over it, and `agent` runs the
//! model loop over the loader's registry.

// Items are `pub(crate)` unless tests, benches or the binary reach them.
#![warn(unreachable_pub)]

pub mod agent;
mod analysis;
pub mod cli;
pub(crate) mod clients;
mod config;
pub mod diagnostic;
mod document;
mod exclude;
mod field_table;
pub mod lsp;
pub mod plugins;
mod rule_docs;
mod rule_table;
pub mod rules;
pub mod security;
pub mod targets;
mod text;
pub mod workspace;

/// `skill-lsp --version` and the server's first log line: the package version and the commit
/// it was built from.
pub(crate) const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("SKILL_LSP_COMMIT"),
    ")"
);
