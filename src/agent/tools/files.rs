//! `read_file`, `write_file`, `edit_file` and `glob`, all confined by `sandbox::resolve` (the path)
//! and `sandbox::open` (what was actually opened).

use std::io::Read;
use std::path::Path;

use serde_json::Value;

use super::sandbox::{Access, display, open, resolve};
use super::{ToolOutput, string_arg};

/// Files larger than this are read in part.
pub const READ_CAP: usize = 256 * 1024;
/// No more than this is ever read from one file into memory: the one limit of every reader
/// (`workspace::read`). `edit_file` refuses larger files; `read_file` reads this much and says
/// so.
pub const FILE_CAP: u64 = crate::workspace::read::MAX_FILE_BYTES;
/// At most this many paths from one `glob`.
pub(crate) const GLOB_CAP: usize = 200;

fn numeric(input: &Value, key: &str) -> Option<usize> {
    input
        .get(key)
        .and_then(Value::as_u64)
        .and_then(|value| usize::try_from(value).ok())
}

pub fn read_file(workspace: &Path, input: &Value) -> ToolOutput {
    let path = match string_arg(input, "path").map(|path| resolve(workspace, path)) {
        Ok(Ok(path)) => path,
        Ok(Err(reason)) => return ToolOutput::error(reason),
        Err(error) => return error,
    };
    let shown = display(workspace, &path);
    if path.is_dir() {
        return ToolOutput::error(format!("{shown} is a folder; use glob to list it"));
    }
    let file = match open(workspace, &path, Access::Read) {
        Ok((file, _)) => file,
        Err(reason) => return ToolOutput::error(reason),
    };
    let cut_short = file.metadata().is_ok_and(|meta| meta.len() > FILE_CAP);
    let mut bytes = Vec::new();
    if let Err(error) = file.take(FILE_CAP).read_to_end(&mut bytes) {
        return ToolOutput::error(format!("cannot read {shown}: {error}"));
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        // Cut inside a character at the cap: keep what is whole.
        Err(error) if cut_short && error.utf8_error().error_len().is_none() => {
            let valid = error.utf8_error().valid_up_to();
            let mut bytes = error.into_bytes();
            bytes.truncate(valid);
            String::from_utf8(bytes).unwrap_or_default()
        }
        Err(_) => return ToolOutput::error(format!("{shown} is not a UTF-8 text file")),
    };
    let offset = numeric(input, "offset").unwrap_or(1).max(1);
    let limit = numeric(input, "limit").unwrap_or(usize::MAX);
    let mut out: String = text
        .lines()
        .skip(offset - 1)
        .take(limit)
        .collect::<Vec<_>>()
        .join("\n");
    if out.len() > READ_CAP {
        let cut = crate::text::floor_char_boundary(&out, READ_CAP);
        out.truncate(cut);
        out.push_str(&format!(
            "\n[truncated: {shown} is larger than {READ_CAP} bytes; read on with offset and limit]"
        ));
    }
    if cut_short {
        out.push_str(&format!(
            "\n[{shown} is larger than {FILE_CAP} bytes; only its first {FILE_CAP} bytes can be read]"
        ));
    }
    ToolOutput::ok(out)
}

pub fn write_file(workspace: &Path, input: &Value) -> ToolOutput {
    let (path, content) = match (string_arg(input, "path"), string_arg(input, "content")) {
        (Ok(path), Ok(content)) => (path, content),
        (Err(error), _) | (_, Err(error)) => return error,
    };
    let path = match resolve(workspace, path) {
        Ok(path) => path,
        Err(reason) => return ToolOutput::error(reason),
    };
    let shown = display(workspace, &path);
    // The folders are created and the file opened (not truncated) by `open`, which checks that
    // it is inside; the one writer then replaces it whole.
    let real = match open(workspace, &path, Access::Write) {
        Ok((_, real)) => real,
        Err(reason) => return ToolOutput::error(reason),
    };
    match replace(workspace, &real, &shown, |_| Ok(content.to_owned())) {
        Ok(()) => ToolOutput::ok(format!("wrote {shown} ({} bytes)", content.len())),
        Err(reason) => ToolOutput::error(reason),
    }
}

/// Replaces the file at `real` (checked to be inside the workspace) with what `edit` makes of
/// its text, through the one writer: a crash or a full disk leaves the old file whole, and a
/// save made by another program meanwhile is kept, not overwritten.
fn replace(
    workspace: &Path,
    real: &Path,
    shown: &str,
    edit: impl FnOnce(&str) -> Result<String, String>,
) -> Result<(), String> {
    use crate::workspace::write::{WriteError, hold};
    let roots = crate::workspace::read::Roots::only(workspace);
    let held = match hold(real, &roots) {
        Ok(held) => held,
        Err(WriteError::Io(error)) if error.kind() == std::io::ErrorKind::FileTooLarge => {
            return Err(format!(
                "{shown} is larger than {FILE_CAP} bytes; it cannot be changed"
            ));
        }
        Err(error) => return Err(format!("cannot read {shown}: {error}")),
    };
    let Ok(text) = std::str::from_utf8(&held.bytes) else {
        return Err(format!("{shown} is not a UTF-8 text file"));
    };
    let edited = edit(text)?;
    match held.replace(edited.as_bytes()) {
        Ok(()) => Ok(()),
        Err(WriteError::Changed) => Err(format!(
            "{shown} changed on disk while it was being written (another program saved it); nothing was written, read it again"
        )),
        Err(error) => Err(format!("cannot write {shown}: {error}")),
    }
}

pub fn edit_file(workspace: &Path, input: &Value) -> ToolOutput {
    let args = (
        string_arg(input, "path"),
        string_arg(input, "old_string"),
        string_arg(input, "new_string"),
    );
    let (path, old, new) = match args {
        (Ok(path), Ok(old), Ok(new)) => (path, old, new),
        (Err(error), _, _) | (_, Err(error), _) | (_, _, Err(error)) => return error,
    };
    if old.is_empty() {
        return ToolOutput::error(
            "old_string is empty; give text that occurs exactly once in the file",
        );
    }
    let path = match resolve(workspace, path) {
        Ok(path) => path,
        Err(reason) => return ToolOutput::error(reason),
    };
    let shown = display(workspace, &path);
    let real = match open(workspace, &path, Access::Edit) {
        Ok((_, real)) => real,
        Err(reason) => return ToolOutput::error(reason),
    };
    let edited = replace(workspace, &real, &shown, |text| {
        match text.matches(old).count() {
            0 => Err(format!(
                "old_string does not occur in {shown}; read the file and copy the text exactly"
            )),
            1 => Ok(text.replacen(old, new, 1)),
            count => Err(format!(
                "old_string occurs {count} times in {shown}; include more surrounding text so it occurs once"
            )),
        }
    });
    match edited {
        Ok(()) => ToolOutput::ok(format!("edited {shown}")),
        Err(reason) => ToolOutput::error(reason),
    }
}

pub fn glob(workspace: &Path, input: &Value) -> ToolOutput {
    let pattern = match string_arg(input, "pattern") {
        Ok(pattern) => pattern,
        Err(error) => return error,
    };
    if pattern.starts_with('/') || pattern.split('/').any(|part| part == "..") {
        return ToolOutput::error(format!(
            "{pattern} reaches outside the workspace; use a pattern relative to it"
        ));
    }
    let matcher = match globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
    {
        Ok(glob) => glob.compile_matcher(),
        Err(error) => return ToolOutput::error(format!("bad glob pattern {pattern}: {error}")),
    };
    let Ok(root) = std::fs::canonicalize(workspace) else {
        return ToolOutput::error("the workspace cannot be read");
    };
    // The walk does not follow links, so nothing outside the workspace is listed, and it reads
    // no ignore file that is a link.
    let listed = std::sync::Mutex::new((Vec::new(), false));
    let walked = crate::workspace::walk::walk_tree(&root, &|_| true, &|entry| {
        let Ok(relative) = entry.path().strip_prefix(&root) else {
            return true;
        };
        if relative.as_os_str().is_empty()
            || relative.starts_with(".git")
            || !matcher.is_match(relative)
        {
            return true;
        }
        let mut listed = listed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if listed.0.len() == GLOB_CAP {
            listed.1 = true;
            return false;
        }
        listed.0.push(relative.display().to_string());
        true
    });
    if let Err(error) = walked {
        return ToolOutput::error(format!(
            "cannot list {}: {}",
            error.path.display(),
            error.message
        ));
    }
    let (mut found, more) = listed
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    found.sort();
    if found.is_empty() {
        return ToolOutput::ok(format!("no files match {pattern}"));
    }
    let mut out = found.join("\n");
    if more {
        out.push_str(&format!(
            "\n[more than {GLOB_CAP} matches; narrow the pattern]"
        ));
    }
    ToolOutput::ok(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn workspace() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("docs")).unwrap();
        std::fs::write(
            dir.path().join("README.md"),
            "# Title\nline two\nline three\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("docs/a.md"), "a").unwrap();
        dir
    }

    #[test]
    fn read_with_offset_and_limit() {
        let dir = workspace();
        assert_eq!(
            read_file(
                dir.path(),
                &json!({"path": "README.md", "offset": 2, "limit": 1})
            ),
            ToolOutput::ok("line two")
        );
        assert!(read_file(dir.path(), &json!({"path": "../etc/passwd"})).is_error);
        assert!(
            read_file(dir.path(), &json!({"path": "docs"}))
                .content
                .contains("is a folder")
        );
        assert!(
            read_file(dir.path(), &json!({}))
                .content
                .contains("missing or non-string argument `path`")
        );
    }

    /// Both write tools go through the one writer: the file is replaced whole, keeps its
    /// permissions, a link to a file inside the workspace stays a link, and no temporary file
    /// is left behind.
    #[cfg(unix)]
    #[test]
    fn writes_replace_the_file_whole_and_keep_what_it_was() {
        use std::os::unix::fs::PermissionsExt;
        let dir = workspace();
        let real = dir.path().join("docs/a.md");
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        std::os::unix::fs::symlink("docs/a.md", dir.path().join("link.md")).unwrap();
        let edited = edit_file(
            dir.path(),
            &json!({"path": "link.md", "old_string": "a", "new_string": "b"}),
        );
        assert!(!edited.is_error, "{edited:?}");
        let written = write_file(dir.path(), &json!({"path": "link.md", "content": "c\n"}));
        assert!(!written.is_error, "{written:?}");
        assert!(dir.path().join("link.md").is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "c\n");
        let mode = std::fs::metadata(&real).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        let mut names: Vec<_> = std::fs::read_dir(dir.path().join("docs"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["a.md"]);
        let created = write_file(dir.path(), &json!({"path": "new/b.md", "content": "new"}));
        assert!(!created.is_error, "{created:?}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("new/b.md")).unwrap(),
            "new"
        );
    }

    #[test]
    fn edit_replaces_exactly_one_occurrence() {
        let dir = workspace();
        let twice = edit_file(
            dir.path(),
            &json!({"path": "README.md", "old_string": "line", "new_string": "row"}),
        );
        assert_eq!(
            twice,
            ToolOutput::error(
                "old_string occurs 2 times in README.md; include more surrounding text so it occurs once"
            )
        );
        let once = edit_file(
            dir.path(),
            &json!({"path": "README.md", "old_string": "line two", "new_string": "row two"}),
        );
        assert!(!once.is_error);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("README.md")).unwrap(),
            "# Title\nrow two\nline three\n"
        );
        assert!(
            edit_file(
                dir.path(),
                &json!({"path": "README.md", "old_string": "absent", "new_string": "x"})
            )
            .content
            .contains("does not occur")
        );
    }

    #[test]
    fn write_creates_folders_inside_only() {
        let dir = workspace();
        assert!(!write_file(dir.path(), &json!({"path": "out/new.txt", "content": "hi"})).is_error);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("out/new.txt")).unwrap(),
            "hi"
        );
        assert!(
            write_file(
                dir.path(),
                &json!({"path": "/tmp/escape.txt", "content": "x"})
            )
            .content
            .contains("outside the workspace")
        );
    }

    #[test]
    fn glob_matches_relative_paths_and_refuses_escapes() {
        let dir = workspace();
        assert_eq!(
            glob(dir.path(), &json!({"pattern": "**/*.md"})),
            ToolOutput::ok("README.md\ndocs/a.md")
        );
        assert!(glob(dir.path(), &json!({"pattern": "../**"})).is_error);
        assert!(glob(dir.path(), &json!({"pattern": "/etc/*"})).is_error);
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.md"), "s").unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        assert_eq!(
            glob(dir.path(), &json!({"pattern": "**/secret.md"})),
            ToolOutput::ok("no files match **/secret.md")
        );
    }
}
