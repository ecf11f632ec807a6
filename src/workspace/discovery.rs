//! Finds the SKILL.md files to check: gitignore-aware, hidden folders included, `.git`,
//! `node_modules` and `target` skipped (SPEC section 2, "Discovery").

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ignore::{WalkBuilder, WalkState};

const SKIPPED_DIRS: [&str; 3] = [".git", "node_modules", "target"];

/// A file or folder the walk could not read; the walk goes on without it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkError {
    pub path: PathBuf,
    pub message: String,
}

#[derive(Debug, Default)]
pub struct Discovered {
    /// Sorted, without duplicates.
    pub files: Vec<PathBuf>,
    pub errors: Vec<WalkError>,
}

/// `SKILL.md` in any case: the miscased names are found so that `skill-md-case` can report them.
#[must_use]
pub fn is_skill_file_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("SKILL.md")
}

/// Walks each path: a file is taken as it is, a folder is searched recursively.
#[must_use]
pub fn discover(paths: &[PathBuf]) -> Discovered {
    let files = Mutex::new(Vec::new());
    let errors = walk(paths, &|path, _| lock(&files).push(path));
    let mut files = files
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    files.sort();
    files.dedup();
    Discovered { files, errors }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Walks each path and hands every SKILL.md (and whether it is itself a symlink) to `on_file`
/// on the walker's own threads, so that
/// reading and linting overlap the walk. Returns what could not be read, sorted. A file may be
/// visited twice when two paths overlap; callers that care deduplicate.
pub fn walk(paths: &[PathBuf], on_file: &(dyn Fn(PathBuf, bool) + Sync)) -> Vec<WalkError> {
    let errors = Mutex::new(Vec::new());
    for path in paths {
        if path.is_file() {
            on_file(path.clone(), path.is_symlink());
            continue;
        }
        let walker = WalkBuilder::new(path)
            .hidden(false)
            .ignore(false)
            .git_ignore(true)
            .git_exclude(true)
            .git_global(false)
            .require_git(false)
            .follow_links(false)
            .threads(std::thread::available_parallelism().map_or(2, std::num::NonZero::get))
            .filter_entry(|entry| {
                let is_dir = entry.file_type().is_some_and(|kind| kind.is_dir());
                !(is_dir
                    && entry.depth() > 0
                    && entry
                        .file_name()
                        .to_str()
                        .is_some_and(|name| SKIPPED_DIRS.contains(&name)))
            })
            .build_parallel();
        walker.run(|| {
            let errors = &errors;
            Box::new(move |result| {
                match result {
                    Ok(entry) => {
                        let is_candidate = entry.file_type().is_some_and(|kind| !kind.is_dir())
                            && entry.file_name().to_str().is_some_and(is_skill_file_name);
                        if is_candidate {
                            let is_link = entry.path_is_symlink();
                            on_file(entry.into_path(), is_link);
                        }
                    }
                    Err(error) => {
                        let path = error_path(&error).unwrap_or_default();
                        lock(errors).push(WalkError {
                            path,
                            message: error.to_string(),
                        });
                    }
                }
                WalkState::Continue
            })
        });
    }
    let mut errors = errors
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    errors.sort_by(|a, b| a.path.cmp(&b.path));
    errors
}

fn error_path(error: &ignore::Error) -> Option<PathBuf> {
    match error {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child.clone()),
        _ => None,
    }
}

/// The skills root a SKILL.md belongs to: the folder above its skill folder.
#[must_use]
pub fn root_of(skill_file: &Path) -> Option<&Path> {
    skill_file.parent()?.parent()
}
