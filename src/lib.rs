//! skill-lsp: lint, author and run Agent Skills (SKILL.md).
//!
//! The core (`text`, `diagnostic`, `document`, `targets`, `fields`, `rule_table`, `rules`,
//! `workspace`, `config`) is synchronous and free of LSP, async and HTTP types; `cli` and `lsp`
//! are thin front ends over it.

pub mod agent;
pub mod analysis;
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod document;
pub mod fields;
pub mod lsp;
pub mod rule_table;
pub mod rules;
pub mod targets;
pub mod text;
pub mod workspace;
