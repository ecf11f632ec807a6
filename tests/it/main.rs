//! The integration tests, one binary: each module drives the built `skill-lsp` (its command
//! line, its language server over stdio, its agent against a scripted model server on
//! 127.0.0.1) or checks the repository itself (`tidy`). One binary links tokio, reqwest and the
//! crate once instead of once per area.

#[path = "../support/invariants.rs"]
mod invariants;
#[path = "../support/lsp_client.rs"]
mod lsp_client;
#[path = "../support/process.rs"]
mod process;
#[path = "../support/scripted_server.rs"]
mod scripted_server;

mod agent_e2e;
mod agent_http;
mod cli;
mod engine_parity;
mod eval;
mod faults;
mod hostile;
mod lsp;
mod lsp_eval;
mod lsp_eval_files;
mod properties;
mod prose;
mod protocol;
mod real_model;
mod security;
mod security_rules;
mod tidy;
