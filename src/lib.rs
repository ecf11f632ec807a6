//! skill-lsp: lint, author and run Agent Skills (SKILL.md).
//!
//! The core (`text`, `diagnostic`, `document`, `targets`, `field_table`, `rule_table`, `rules`,
//! `workspace`, `config`) is synchronous and free of LSP, async and HTTP types; `cli` and `lsp`
//! are thin front ends over it.

// Items are `pub(crate)` unless tests, benches or the binary reach them.
#![warn(unreachable_pub)]

pub mod agent;
mod analysis;
pub mod cli;
pub(crate) mod clients;
mod config;
pub mod diagnostic;
mod document;
mod field_table;
pub mod lsp;
pub mod plugins;
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
