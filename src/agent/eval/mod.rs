//! Trigger evals (issue 13): does a skill's description make the model load it? No CLI or LSP
//! types here; `skill-lsp eval` and the language server's `skill/runEvals` drive it.
//!
//! - `set` — eval sets (`<skill>/evals/triggers.json`): parsing and its rules;
//! - `run` — the measurement: the routing step per query and run, concurrency, the cache;
//! - `report` — results: trigger rates, pass, precision and recall, confusions.

pub(crate) mod report;
pub(crate) mod run;
pub(crate) mod set;

pub(crate) use report::{EvalReport, QueryResult, SkillReport};
pub(crate) use run::{EvalError, EvalOptions, Evaluator, Progress, SkillUnderTest};
