//! Trigger evals: does a skill's description make the model load it? No CLI or LSP
//! types here; `skill-lsp eval` and the language server's `skill/runEvals` drive it.
//!
//! - `set` — trigger eval sets (`<skill>/evals/triggers.json` and the other names of
//!   `set::SET_FILES`): which file, parsing and its rules;
//! - `outputs` — output evals (`<skill>/evals/evals.json`): checked for the editor, not run yet;
//! - `run` — the measurement: plan the runs (the cache answers some), drive them concurrently,
//!   report;
//! - `route` — one run of the routing step against the model;
//! - `cache` — each run's record on disk;
//! - `estimate` — what a run would send, before it sends anything (`--dry-run`);
//! - `improve` — the description-rewriting loop (`--improve`): split, rewrite, measure, keep the best;
//! - `target` — the catalog as one client lists it (`--target`), and what it did with the skill;
//! - `report` — results: trigger rates, pass, precision and recall, confusions.

pub(crate) mod cache;
pub(crate) mod estimate;
pub(crate) mod improve;
pub(crate) mod outputs;
pub(crate) mod report;
pub(crate) mod route;
pub(crate) mod run;
pub(crate) mod set;
pub(crate) mod target;

pub(crate) use report::{EvalReport, QueryResult, SkillReport};
pub(crate) use run::{EvalError, EvalOptions, Evaluator, Progress, SkillUnderTest};
