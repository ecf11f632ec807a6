//! Request handlers as plain functions over a document snapshot: no locks, no I/O with the
//! client, so each is testable in-process.

pub mod code_action;
pub mod completion;
pub mod hover;
pub mod navigation;
