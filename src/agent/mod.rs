//! The catalog-first agent (design.md §6): the loop, its tools, approval and the model
//! providers. No LSP types here; the terminal and the language server drive it.

pub mod approval;
pub(crate) mod eval;
pub mod provider;
pub(crate) mod session;
pub mod tools;

pub use session::{Agent, AgentEvent, Outcome, Session, StopReason};
