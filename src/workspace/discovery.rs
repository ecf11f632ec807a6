//! Finds the SKILL.md files to check: gitignore-aware, hidden folders included, `.git`,
//! `node_modules` and `target` skipped (SPEC section 2, "Discovery").

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ignore::{WalkBuilder, WalkState};

const SKIPPED_DIRS: [&str; 3] = [".git", "node_modules", "target"];

/// A file or folder the walk could not read; the walk goes on without it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WalkError {
    pub path: PathBuf,
    pub message: String,
}

#[derive(Debug, Default)]
pub(crate) struct Discovered {
    /// Sorted, without duplicates.
    pub files: Vec<PathBuf>,
}

/// Codex's file beside a SKILL.md, relative to the skill folder.
pub(crate) const OPENAI_YAML: &str = "agents/openai.yaml";

/// Whether `path` is a skill's `agents/openai.yaml`.
#[must_use]
pub(crate) fn is_openai_yaml(path: &Path) -> bool {
    path.ends_with(OPENAI_YAML)
}

/// `SKILL.md` in any case: the miscased names are found so that `skill-md-case` can report them.
#[must_use]
pub(crate) fn is_skill_file_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("SKILL.md")
}

/// Whether `path`'s last component is a SKILL.md name ([`is_skill_file_name`]).
#[must_use]
pub(crate) fn is_skill_path(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(is_skill_file_name)
}

/// Bytes that sort as [`Path`]s do (component by component, `/` before a name), compared
/// as plain bytes: sorting by these keys computed once is much cheaper than comparing
/// thousands of paths, which splits both into components on every comparison.
#[must_use]
pub(crate) fn path_order_key(path: &Path) -> Vec<u8> {
    use std::path::Component;
    let mut key = Vec::with_capacity(path.as_os_str().len() + 8);
    for component in path.components() {
        // The tag orders the kinds as `Component` does; the 0 after a name puts it before
        // any longer name it starts (no path holds a 0 byte). Windows prefixes compare by
        // their bytes here, which may order two drives differently from `Path`.
        let (tag, bytes) = match component {
            Component::Prefix(prefix) => (1, prefix.as_os_str().as_encoded_bytes()),
            Component::RootDir => (2, &[][..]),
            Component::CurDir => (3, &[][..]),
            Component::ParentDir => (4, &[][..]),
            Component::Normal(name) => (5, name.as_encoded_bytes()),
        };
        key.push(tag);
        key.extend_from_slice(bytes);
        key.push(0);
    }
    key
}

/// Files over this size are not read by the security rules.
const SCANNED_MAX_BYTES: u64 = 4 * 1024 * 1024;

/// [`skill_files`] with their bytes, read as every file of a run is read (no blocking on a
/// FIFO, the size cap); a file that cannot be read is left out.
#[must_use]
pub(crate) fn read_skill_files(folder: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    skill_files(folder)
        .into_iter()
        .filter_map(|file| {
            let bytes = crate::workspace::read::read_bytes(&file).ok()?;
            Some((file, bytes))
        })
        .collect()
}

/// The files a skill ships besides its SKILL.md, sorted: everything under its folder that git
/// would keep, without following links, leaving out folders of nested skills (they are skills
/// of their own), `agents/openai.yaml` (linted on its own), the folders `check` skips and files
/// over 4 MiB.
#[must_use]
pub(crate) fn skill_files(folder: &Path) -> Vec<PathBuf> {
    let walker = walker(folder)
        .filter_entry(move |entry| {
            let is_dir = entry.file_type().is_some_and(|kind| kind.is_dir());
            if !is_dir || entry.depth() == 0 {
                return true;
            }
            let name = entry.file_name().to_str().unwrap_or("");
            !(SKIPPED_DIRS.contains(&name) || entry.path().join("SKILL.md").is_file())
        })
        .build();
    let mut files: Vec<PathBuf> = walker
        .filter_map(Result::ok)
        .filter(|entry| entry.depth() > 0 && entry.file_type().is_some_and(|kind| kind.is_file()))
        .filter(|entry| {
            entry
                .metadata()
                .is_ok_and(|meta| meta.len() <= SCANNED_MAX_BYTES)
        })
        .map(ignore::DirEntry::into_path)
        .filter(|path| {
            let relative = path.strip_prefix(folder).unwrap_or(path);
            !(relative
                .parent()
                .is_none_or(|parent| parent.as_os_str().is_empty())
                && is_skill_path(relative))
                && relative != Path::new(OPENAI_YAML)
        })
        .collect();
    files.sort();
    files
}

/// The walk of `check` and of a skill's files: hidden files included, what git would ignore left
/// out (with or without a repository), links not followed.
fn walker(root: &Path) -> WalkBuilder {
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(false)
        .ignore(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(false)
        .follow_links(false);
    builder
}

/// Walks each path: a file is taken as it is, a folder is searched recursively.
#[must_use]
pub(crate) fn discover(paths: &[PathBuf]) -> Discovered {
    let files = Mutex::new(Vec::new());
    // Walk errors are not reported here (`check --fix` skips what it cannot read). Plugin
    // manifests have no fixes, so `--fix` is handed SKILL.md files only.
    let _ = walk(paths, &|path, _| {
        if crate::plugins::manifest_kind(&path).is_none() && !is_openai_yaml(&path) {
            lock(&files).push(path);
        }
    });
    let mut files = files
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    files.sort();
    files.dedup();
    Discovered { files }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Walks each path and hands every SKILL.md and every plugin manifest
/// (`.claude-plugin/plugin.json`, `.claude-plugin/marketplace.json`), and whether it is itself a
/// symlink, to `on_file`
/// on the walker's own threads, so that
/// reading and linting overlap the walk. Returns what could not be read, sorted. A file may be
/// visited twice when two paths overlap; callers that care deduplicate.
pub(crate) fn walk(paths: &[PathBuf], on_file: &(dyn Fn(PathBuf, bool) + Sync)) -> Vec<WalkError> {
    let errors = Mutex::new(Vec::new());
    for path in paths {
        if path.is_file() {
            on_file(path.clone(), path.is_symlink());
            continue;
        }
        let walker = walker(path)
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
                            && (entry.file_name().to_str().is_some_and(is_skill_file_name)
                                || crate::plugins::manifest_kind(entry.path()).is_some()
                                || is_openai_yaml(entry.path()));
                        if is_candidate {
                            let is_link = entry.path_is_symlink();
                            on_file(entry.into_path(), is_link);
                        } else if entry.path_is_symlink() && entry.depth() > 0 {
                            linked_skills(entry.path(), on_file);
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

/// The SKILL.md files seen through a symlinked folder, without walking into it: the folder is
/// a skill (`.claude/skills/x -> ../../.agents/skills/x`) or a skills root (`.claude/skills ->
/// ../.agents/skills`). Clients follow such links, so each skill is linted under the path its
/// clients see it by. Looking one or two levels down, never recursing, cannot loop.
fn linked_skills(link: &Path, on_file: &(dyn Fn(PathBuf, bool) + Sync)) {
    if !link.is_dir() {
        return;
    }
    let skill_file = |folder: &Path| {
        std::fs::read_dir(folder)
            .ok()?
            .filter_map(Result::ok)
            .find_map(|entry| {
                let named = entry.file_name().to_str().is_some_and(is_skill_file_name);
                (named && entry.path().is_file()).then(|| entry.path())
            })
    };
    if let Some(file) = skill_file(link) {
        on_file(file, true);
        return;
    }
    let Ok(entries) = std::fs::read_dir(link) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        if entry.path().is_dir() {
            if let Some(file) = skill_file(&entry.path()) {
                on_file(file, true);
            }
        }
    }
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
pub(crate) fn root_of(skill_file: &Path) -> Option<&Path> {
    skill_file.parent()?.parent()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_order_keys_sort_as_paths_do() {
        let parts = [
            "a", "a-b", "a.b", "ab", ".x", "A", "é", "z", ".", "..", "SKILL.md", "a b",
        ];
        let mut paths: Vec<PathBuf> = Vec::new();
        for first in parts {
            for second in parts {
                for third in ["", "SKILL.md", "x/y"] {
                    for root in ["", "/", "./"] {
                        paths.push(PathBuf::from(format!("{root}{first}/{second}/{third}")));
                        paths.push(PathBuf::from(format!("{root}{first}//{second}")));
                    }
                }
            }
        }
        let mut by_path = paths.clone();
        by_path.sort();
        let mut by_key = paths;
        by_key.sort_by_cached_key(|path| path_order_key(path));
        assert_eq!(by_path, by_key);
    }
}
