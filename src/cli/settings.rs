//! What every file of a `check` run is linted with, shared by `check` and `check --fix`: the
//! engine built from the arguments and the config, and the path a file is linted and shown
//! under.

use std::path::{Path, PathBuf};

use super::parse_targets;
use crate::analysis::Engine;
use crate::config::Config;
use crate::diagnostic::Diagnostic;
use crate::rules;
use crate::targets::TargetSet;

/// Settings shared by every file of a run: the engine, which decides every finding.
pub(super) struct LintSettings {
    pub engine: Engine,
}

impl LintSettings {
    /// Lints one file's bytes with this run's settings (file rules only: `--fix` and `--stdin`).
    pub(super) fn lint(&self, path: &Path, bytes: &[u8]) -> (String, Vec<Diagnostic>) {
        let analysis = self.lint_and_read(path, bytes.to_vec(), TargetSet::NONE);
        (analysis.text, analysis.diagnostics)
    }

    /// Lints one file and reads its loader metadata from the same parse, with the readings of
    /// `clients`.
    pub(super) fn lint_and_read(
        &self,
        path: &Path,
        bytes: Vec<u8>,
        clients: TargetSet,
    ) -> rules::FileAnalysis {
        let skill_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let exists = |relative: &Path| skill_dir.join(relative).exists();
        self.engine.lint_file(path, bytes, &exists, clients)
    }
}

/// Builds the run's settings from the arguments: `--config`, or the nearest config file.
pub(super) fn settings(
    config_path: Option<&Path>,
    start: &Path,
    targets: &[String],
) -> Result<LintSettings, String> {
    let config = match config_path {
        Some(path) => Config::load(path),
        None => Config::discover(start),
    }
    .map_err(|error| error.to_string())?;
    let mut engine = Engine::new(config);
    if !targets.is_empty() {
        engine.targets = Some(parse_targets(targets)?);
    }
    Ok(LintSettings { engine })
}

/// A path as the user would type it: without a leading `./`, and relative to the current
/// folder when it is an absolute path inside it (resolved once per run).
pub(super) fn display_path(path: &Path) -> PathBuf {
    static CURRENT: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    if path.is_relative() {
        return path
            .strip_prefix(".")
            .map_or_else(|_| path.to_path_buf(), Path::to_path_buf);
    }
    let current =
        CURRENT.get_or_init(|| std::env::current_dir().and_then(std::fs::canonicalize).ok());
    current
        .as_deref()
        .and_then(|current| path.strip_prefix(current).ok())
        .filter(|relative| !relative.as_os_str().is_empty())
        .map_or_else(|| path.to_path_buf(), Path::to_path_buf)
}
