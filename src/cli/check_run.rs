//! A `check` run, shared by `check` and `check --fix`: the engine built from the arguments and
//! the config, and linting one file from disk with it.

use std::path::Path;

use super::parse_targets;
use crate::analysis::Engine;
use crate::config::Config;
use crate::diagnostic::Diagnostic;
use crate::rules;
use crate::targets::ClientSet;

/// What every file of a run is linted with: the engine, which decides every finding.
pub(super) struct CheckRun {
    pub engine: Engine,
}

impl CheckRun {
    /// Lints one file's bytes with this run's settings (file rules only: `--fix` and `--stdin`).
    pub(super) fn lint(&self, path: &Path, bytes: &[u8]) -> (String, Vec<Diagnostic>) {
        let analysis = self.lint_and_read(path, bytes.to_vec(), ClientSet::NONE);
        (analysis.text, analysis.diagnostics)
    }

    /// Lints one file and reads its loader metadata from the same parse, with the readings of
    /// `clients`.
    pub(super) fn lint_and_read(
        &self,
        path: &Path,
        bytes: Vec<u8>,
        clients: ClientSet,
    ) -> rules::FileAnalysis {
        let exists = |relative: &Path| exists_beside(path, relative);
        self.engine.lint_file(path, bytes, &exists, clients)
    }

    /// The run the arguments ask for: `--config`, or the nearest config file, and `--target`.
    pub(super) fn new(
        config_path: Option<&Path>,
        start: &Path,
        targets: &[String],
    ) -> Result<Self, String> {
        let config = match config_path {
            Some(path) => Config::load(path),
            None => Config::discover(start),
        }
        .map_err(|error| error.to_string())?;
        let mut engine = Engine::new(config);
        if !targets.is_empty() {
            engine.targets = Some(parse_targets(targets)?);
        }
        Ok(CheckRun { engine })
    }
}

/// Whether `relative`, a path a file's links name, exists beside the file at `path` on the disk
/// (links followed).
pub(super) fn exists_beside(path: &Path, relative: &Path) -> bool {
    match path.parent() {
        Some(folder) => folder.join(relative).exists(),
        None => relative.exists(),
    }
}
