//! Workspace confinement, in one function that every file tool calls.
//!
//! A path is accepted when, after resolving `.` and `..` without leaving the workspace and
//! following every symlink of the part that exists, it still lies inside the workspace. The
//! refusal says why, so the model can correct itself.

use std::path::{Component, Path, PathBuf};

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
    let root = std::fs::canonicalize(workspace).map_err(|error| {
        format!(
            "the workspace {} cannot be read: {error}",
            workspace.display()
        )
    })?;
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
