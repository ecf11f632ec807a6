//! `check --fix`: apply the safe fixes until nothing changes, write atomically, never lose data.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::check_run::CheckRun;
use super::display_path;
use super::error_line;
use crate::diagnostic::Rename;
use crate::rules::fix::{FixOutcome, fix_all};

pub(super) struct Fixed {
    pub fixes: usize,
    pub files: usize,
    pub trouble: bool,
}

/// Fixes one file's text with this run's settings (the same loop the editor's fix-all runs).
pub(super) fn fix_text(run: &CheckRun, path: &Path, original: &str) -> FixOutcome {
    fix_all(original, |text| run.lint(path, text.as_bytes()).1)
}

/// Writes `text` next to `path` and renames it over, keeping the file's permissions.
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.skill-lsp-{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = fs::File::create(&temp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        if let Ok(metadata) = fs::metadata(path) {
            fs::set_permissions(&temp, metadata.permissions())?;
        }
        fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// Renames through a temporary name, so that `skill.md` → `SKILL.md` works on case-insensitive
/// file systems too.
fn rename_file(rename: &Rename) -> std::io::Result<()> {
    if rename.to.exists() && !same_file(&rename.from, &rename.to) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("{} already exists", rename.to.display()),
        ));
    }
    let temp = rename
        .from
        .with_file_name(format!(".skill-lsp-rename-{}.tmp", std::process::id()));
    fs::rename(&rename.from, &temp)?;
    fs::rename(&temp, &rename.to).inspect_err(|_| {
        let _ = fs::rename(&temp, &rename.from);
    })
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

pub(super) fn fix_files(run: &CheckRun, files: &[PathBuf]) -> Fixed {
    let results: Vec<(usize, bool)> = files
        .par_iter()
        .map(|path| {
            let Ok(bytes) = crate::workspace::read::read_bytes(path) else {
                return (0, false);
            };
            let Ok(original) = String::from_utf8(bytes) else {
                return (0, false);
            };
            let display = display_path(path);
            let FixOutcome {
                text,
                applied: count,
                rename,
            } = fix_text(run, &display, &original);
            let mut trouble = false;
            if text != original {
                if let Err(error) = write_atomically(path, &text) {
                    error_line(&format!("cannot write {}: {error}", path.display()));
                    return (0, true);
                }
            }
            if let Some(mut rename) = rename {
                rename.from.clone_from(path);
                rename.to = path.with_file_name("SKILL.md");
                if let Err(error) = rename_file(&rename) {
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
