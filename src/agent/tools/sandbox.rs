//! Workspace confinement, in two steps that every file tool takes.
//!
//! [`resolve`] checks the path: it is accepted when, after resolving `.` and `..` without leaving
//! the workspace and following every symlink of the part that exists, it still lies inside the
//! workspace. The refusal says why, so the model can correct itself.
//!
//! [`open`] then opens it and checks again what was opened, so that a path swapped for a symlink
//! between the check and the open (by a command running in the background) cannot lead outside:
//! the real path of the open file descriptor (`/proc/self/fd/N`) must lie inside the workspace,
//! and new files and folders are created through an already checked folder descriptor, never
//! through a path that could have changed. Nothing is truncated or written before that check.

use crate::workspace::write::real_path_of;
use std::fs::{File, OpenOptions};
use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

/// Longer paths are refused before any file system call (Linux `PATH_MAX`).
pub(crate) const MAX_PATH_LEN: usize = 4096;

/// Resolves `requested` (relative to the workspace, or absolute inside it) to a path inside the
/// workspace.
///
/// # Errors
/// A message for the model: the path is empty, climbs out with `..`, is absolute elsewhere, or
/// reaches outside through a symlink.
pub fn resolve(workspace: &Path, requested: &str) -> Result<PathBuf, String> {
    if requested.trim().is_empty() {
        return Err("the path is empty".to_owned());
    }
    if requested.contains('\0') {
        return Err("the path contains a NUL byte".to_owned());
    }
    if requested.len() > MAX_PATH_LEN {
        return Err(format!(
            "the path is {} bytes long; at most {MAX_PATH_LEN} are accepted",
            requested.len()
        ));
    }
    let root = workspace_root(workspace)?;
    let requested_path = Path::new(requested);
    let relative: PathBuf = if requested_path.is_absolute() {
        let inside = requested_path
            .strip_prefix(&root)
            .or_else(|_| requested_path.strip_prefix(workspace));
        match inside {
            Ok(relative) => relative.to_path_buf(),
            Err(_) => {
                return Err(format!(
                    "{requested} is outside the workspace {}; use a path inside it",
                    root.display()
                ));
            }
        }
    } else {
        requested_path.to_path_buf()
    };
    // Lexical pass: `..` may not climb above the workspace root.
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for component in relative.components() {
        match component {
            Component::Normal(part) => parts.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                if parts.pop().is_none() {
                    return Err(format!("{requested} leaves the workspace with `..`"));
                }
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(format!("{requested} is not a path inside the workspace"));
            }
        }
    }
    let joined: PathBuf = parts
        .iter()
        .fold(root.clone(), |path, part| path.join(part));
    // Symlink pass: the deepest part that exists must resolve inside the workspace.
    let mut existing = joined.as_path();
    let mut missing: Vec<&std::ffi::OsStr> = Vec::new();
    loop {
        match std::fs::canonicalize(existing) {
            Ok(real) => {
                if !real.starts_with(&root) {
                    return Err(format!(
                        "{requested} resolves through a symlink to {}, outside the workspace",
                        real.display()
                    ));
                }
                return Ok(missing
                    .iter()
                    .rev()
                    .fold(real, |path, part| path.join(part)));
            }
            Err(_) => {
                // A dangling symlink is refused: its target cannot be checked.
                if std::fs::symlink_metadata(existing)
                    .is_ok_and(|meta| meta.file_type().is_symlink())
                {
                    return Err(format!(
                        "{requested} is a symlink to a path that does not exist"
                    ));
                }
                let Some(name) = existing.file_name() else {
                    return Err(format!("{requested} cannot be resolved"));
                };
                missing.push(name);
                existing = existing
                    .parent()
                    .ok_or_else(|| format!("{requested} cannot be resolved"))?;
            }
        }
    }
}

fn workspace_root(workspace: &Path) -> Result<PathBuf, String> {
    std::fs::canonicalize(workspace).map_err(|error| {
        format!(
            "the workspace {} cannot be read: {error}",
            workspace.display()
        )
    })
}

/// What a file tool does with the file it opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read an existing file.
    Read,
    /// Read and rewrite an existing file (not truncated by the open).
    Edit,
    /// Write a file, creating it and its missing folders (not truncated by the open: the caller
    /// truncates the returned file, which is known to be inside).
    Write,
}

/// A path that reaches `name` inside the folder open as `dir`, whatever happens to the folder's
/// own path meanwhile.
fn beneath(dir: &File, dir_real: &Path, name: &std::ffi::OsStr) -> PathBuf {
    crate::workspace::write::beneath(dir, dir_real).join(name)
}

/// Checks that `file`, just opened at `path`, really lies inside `root`; returns its real path.
fn check_opened(root: &Path, file: &File, path: &Path, shown: &str) -> Result<PathBuf, String> {
    let real = match real_path_of(file) {
        Some(real) => real,
        // No procfs: the best left is to resolve the path again right after the open.
        None => std::fs::canonicalize(path)
            .map_err(|error| format!("cannot check where {shown} leads: {error}"))?,
    };
    if real.starts_with(root) {
        Ok(real)
    } else {
        Err(format!(
            "{shown} resolves to {}, outside the workspace (it changed while it was being opened)",
            real.display()
        ))
    }
}

/// Refuses what is not a regular file, before opening it (a FIFO would block the open).
fn regular_file(meta: &std::fs::Metadata, shown: &str) -> Result<(), String> {
    if meta.is_dir() {
        Err(format!("{shown} is a folder"))
    } else if meta.is_file() {
        Ok(())
    } else {
        Err(format!("{shown} is not a regular file"))
    }
}

/// Opens `path` (from [`resolve`]) for `access`, checking that the opened file lies inside the
/// workspace and is a regular file; with the file, its real path.
///
/// # Errors
/// A message for the model: the file cannot be opened, is not a regular file, or turned out to
/// be outside the workspace (a symlink swapped in after [`resolve`]); nothing was written.
pub fn open(workspace: &Path, path: &Path, access: Access) -> Result<(File, PathBuf), String> {
    let root = workspace_root(workspace)?;
    let shown = display(workspace, path);
    match access {
        Access::Read | Access::Edit => {
            if let Ok(meta) = std::fs::metadata(path) {
                regular_file(&meta, &shown)?;
            }
            let file = OpenOptions::new()
                .read(true)
                .write(access == Access::Edit)
                .open(path)
                .map_err(|error| format!("cannot open {shown}: {error}"))?;
            let real = check_opened(&root, &file, path, &shown)?;
            let meta = file
                .metadata()
                .map_err(|error| format!("cannot read {shown}: {error}"))?;
            regular_file(&meta, &shown)?;
            Ok((file, real))
        }
        Access::Write => open_for_write(&root, path, &shown),
    }
}

/// The folders of `path` are opened one by one from the workspace root, each through the checked
/// descriptor of the one before and created when missing; the file itself is then opened or
/// created through the last folder's descriptor.
fn open_for_write(root: &Path, path: &Path, shown: &str) -> Result<(File, PathBuf), String> {
    let relative = path
        .strip_prefix(root)
        .map_err(|_| format!("{shown} is outside the workspace"))?;
    let Some(name) = relative.file_name() else {
        return Err(format!("{shown} is a folder"));
    };
    let mut dir = File::open(root)
        .map_err(|error| format!("the workspace {} cannot be opened: {error}", root.display()))?;
    let mut dir_real = check_opened(root, &dir, root, shown)?;
    for part in relative.parent().into_iter().flat_map(Path::components) {
        let Component::Normal(part) = part else {
            return Err(format!("{shown} is not a plain path inside the workspace"));
        };
        let child = beneath(&dir, &dir_real, part);
        let opened = match File::open(&child) {
            Err(error) if error.kind() == ErrorKind::NotFound => {
                // mkdir never follows a symlink in its last component.
                match std::fs::create_dir(&child) {
                    Ok(()) => {}
                    Err(error) if error.kind() == ErrorKind::AlreadyExists => {}
                    Err(error) => {
                        return Err(format!("cannot create the folder of {shown}: {error}"));
                    }
                }
                File::open(&child)
            }
            other => other,
        }
        .map_err(|error| format!("cannot open the folder of {shown}: {error}"))?;
        let real = check_opened(root, &opened, &child, shown)?;
        if !opened.metadata().is_ok_and(|meta| meta.is_dir()) {
            return Err(format!(
                "cannot create {shown}: {} is not a folder",
                real.display()
            ));
        }
        dir = opened;
        dir_real = real;
    }
    let target = beneath(&dir, &dir_real, name);
    for _ in 0..3 {
        if let Ok(meta) = std::fs::metadata(&target) {
            regular_file(&meta, shown)?;
        }
        match OpenOptions::new().write(true).open(&target) {
            Ok(file) => {
                let real = check_opened(root, &file, &target, shown)?;
                let meta = file
                    .metadata()
                    .map_err(|error| format!("cannot write {shown}: {error}"))?;
                regular_file(&meta, shown)?;
                return Ok((file, real));
            }
            Err(error) if error.kind() == ErrorKind::NotFound => {}
            Err(error) => return Err(format!("cannot write {shown}: {error}")),
        }
        // Not there (or a dangling symlink): create it. O_EXCL never follows a symlink.
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&target)
        {
            Ok(file) => {
                let real = check_opened(root, &file, &target, shown)?;
                return Ok((file, real));
            }
            Err(error) if error.kind() == ErrorKind::AlreadyExists => {}
            Err(error) => return Err(format!("cannot write {shown}: {error}")),
        }
    }
    Err(format!(
        "cannot write {shown}: it is a symlink to a path that does not exist, or keeps changing"
    ))
}

/// The path relative to the workspace, for messages.
#[must_use]
pub fn display(workspace: &Path, path: &Path) -> String {
    let root = std::fs::canonicalize(workspace).unwrap_or_else(|_| workspace.to_path_buf());
    path.strip_prefix(&root).map_or_else(
        |_| path.display().to_string(),
        |relative| relative.display().to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/main.rs"), "fn main() {}").unwrap();
        dir
    }

    #[test]
    fn inside_paths_resolve() {
        let dir = workspace();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        assert_eq!(
            resolve(dir.path(), "src/main.rs").unwrap(),
            root.join("src/main.rs")
        );
        assert_eq!(
            resolve(dir.path(), "./src/../src/main.rs").unwrap(),
            root.join("src/main.rs")
        );
        assert_eq!(
            resolve(dir.path(), "new/dir/file.txt").unwrap(),
            root.join("new/dir/file.txt")
        );
        let absolute = root.join("src/main.rs");
        assert_eq!(
            resolve(dir.path(), absolute.to_str().unwrap()).unwrap(),
            absolute
        );
    }

    #[test]
    fn escapes_are_refused_with_a_reason() {
        let dir = workspace();
        assert!(
            resolve(dir.path(), "../outside.txt")
                .unwrap_err()
                .contains("leaves the workspace")
        );
        assert!(
            resolve(dir.path(), "src/../../x")
                .unwrap_err()
                .contains("leaves the workspace")
        );
        assert!(
            resolve(dir.path(), "/etc/passwd")
                .unwrap_err()
                .contains("outside the workspace")
        );
        assert!(resolve(dir.path(), "").is_err());
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        assert!(
            resolve(dir.path(), "link/secret.txt")
                .unwrap_err()
                .contains("symlink")
        );
        std::os::unix::fs::symlink(dir.path().join("nowhere"), dir.path().join("dangling"))
            .unwrap();
        assert!(
            resolve(dir.path(), "dangling")
                .unwrap_err()
                .contains("does not exist")
        );
        // A symlink that stays inside is fine.
        std::os::unix::fs::symlink(dir.path().join("src"), dir.path().join("alias")).unwrap();
        assert!(resolve(dir.path(), "alias/main.rs").is_ok());
    }
}
