//! `check --fix`: apply the safe fixes until nothing changes, and write through the one safe
//! writer (`workspace::write`): never outside the roots, never over a save made meanwhile.

use std::fs;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::check_run::CheckRun;
use super::display_path;
use super::error_line;
use crate::rules::fix::{FixOutcome, fix_all};
use crate::workspace::read::Roots;
use crate::workspace::write::{WriteError, hold, rename_without_replacing};

pub(super) struct Fixed {
    pub fixes: usize,
    pub files: usize,
    pub trouble: bool,
}

/// Fixes one file's text with this run's settings (the same loop the editor's fix-all runs).
pub(super) fn fix_text(run: &CheckRun, path: &Path, original: &str) -> FixOutcome {
    fix_all(original, |text| run.lint(path, text.as_bytes()).1)
}

/// Fixes `files`, each written only if its real path lies inside `roots` and it did not change
/// while it was fixed (`workspace::write`).
pub(super) fn fix_files(run: &CheckRun, files: &[PathBuf], roots: &Roots) -> Fixed {
    let results: Vec<(usize, bool)> = files
        .par_iter()
        .map(|path| {
            let held = match hold(path, roots) {
                Ok(held) => held,
                // Not a file, unreadable or too large: `check` reports it on its own walk.
                Err(WriteError::Io(_)) => return (0, false),
                Err(error) => {
                    error_line(&format!("cannot fix {}: {error}", path.display()));
                    return (0, true);
                }
            };
            let Ok(original) = std::str::from_utf8(&held.bytes) else {
                return (0, false);
            };
            let display = display_path(path);
            let FixOutcome {
                text,
                applied: count,
                rename,
            } = fix_text(run, &display, original);
            if text != original {
                if let Err(error) = held.replace(text.as_bytes()) {
                    error_line(&format!("cannot fix {}: {error}", path.display()));
                    return (0, true);
                }
            }
            let mut trouble = false;
            if rename.is_some() {
                // The link's own name is renamed (a folder's entries are its own), never its
                // target's; its folder must lie inside the roots as well.
                let folder = path.parent().unwrap_or(Path::new("."));
                let to = path.with_file_name("SKILL.md");
                let inside = fs::canonicalize(folder).is_ok_and(|real| roots.holds(&real));
                let renamed = if inside {
                    rename_without_replacing(path, &to)
                } else {
                    Err(std::io::Error::other(
                        "its folder is outside the folders being checked",
                    ))
                };
                if let Err(error) = renamed {
                    error_line(&format!("cannot rename {}: {error}", path.display()));
                    trouble = true;
                }
            }
            (count, trouble)
        })
        .collect();
    Fixed {
        fixes: results.iter().map(|(count, _)| count).sum(),
        files: results.iter().filter(|(count, _)| *count > 0).count(),
        trouble: results.iter().any(|(_, trouble)| *trouble),
    }
}
