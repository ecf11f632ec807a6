//! The one way skill-lsp changes a file it did not create (`check --fix`, `eval --improve
//! --apply`, the agent's `write_file` and `edit_file`): the file is held as it was read, and
//! replaced only if it is still exactly that.
//!
//! A repository may be hostile and an editor may save while a fix runs, so:
//! - only a file whose real path lies inside the roots the user named is read for writing, and
//!   a link to such a file is written through (the link stays a link, its target is fixed);
//! - the new text goes to a temporary file beside the target, created with a random name and
//!   `O_CREAT | O_EXCL` (which never follows a link planted at that name), given the target's
//!   permissions through its own handle, and synced;
//! - just before the rename, the target is opened again without following links and compared
//!   with what was read (device, inode, size, modification time and every byte): a file changed
//!   in between is left as it is, so a save is never reverted.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::read::{Roots, read_unfollowed};

/// Why a file was not written.
#[derive(Debug)]
pub(crate) enum WriteError {
    /// The file changed between the read and the write; it was left as it now is.
    Changed,
    /// Its real path lies outside the roots the user named.
    Outside(PathBuf),
    /// It could not be read or written.
    Io(io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Changed => f.write_str("it changed while being fixed; run again"),
            Self::Outside(real) => write!(
                f,
                "it links to {}, outside the folders being checked; not written",
                real.display()
            ),
            Self::Io(error) => error.fmt(f),
        }
    }
}

impl From<io::Error> for WriteError {
    fn from(error: io::Error) -> Self {
        Self::Io(error)
    }
}

/// A file read for replacing: its real path, its bytes, and what identified it when read.
pub(crate) struct Held {
    /// The path the bytes were read from, every link resolved.
    pub(crate) real: PathBuf,
    pub(crate) bytes: Vec<u8>,
    stamp: Stamp,
    permissions: fs::Permissions,
}

/// What must not have changed between the read and the rename.
#[derive(Debug, PartialEq, Eq)]
struct Stamp {
    device: u64,
    inode: u64,
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Stamp {
    fn of(metadata: &fs::Metadata) -> Self {
        #[cfg(unix)]
        let (device, inode) = {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino())
        };
        #[cfg(not(unix))]
        let (device, inode) = (0, 0);
        Self {
            device,
            inode,
            len: metadata.len(),
            modified: metadata.modified().ok(),
        }
    }
}

/// Reads `path` for replacing, when its real path lies inside `roots`.
///
/// # Errors
///
/// [`WriteError::Outside`] for a file that resolves outside the roots; the read's error (not
/// a regular file, over the size limit, unreadable) otherwise.
pub(crate) fn hold(path: &Path, roots: &Roots) -> Result<Held, WriteError> {
    let real = fs::canonicalize(path)?;
    if !roots.holds(&real) {
        return Err(WriteError::Outside(real));
    }
    let (bytes, metadata) = read_unfollowed(&real)?;
    Ok(Held {
        real,
        bytes,
        stamp: Stamp::of(&metadata),
        permissions: metadata.permissions(),
    })
}

impl Held {
    /// Replaces the file with `text`, if it is still what was read.
    ///
    /// # Errors
    ///
    /// [`WriteError::Changed`] when it changed since it was read (nothing is written);
    /// the I/O error of creating, writing or renaming the temporary file otherwise. On any error
    /// the temporary file is removed and the original is untouched.
    pub(crate) fn replace(&self, text: &[u8]) -> Result<(), WriteError> {
        let parent = self
            .real
            .parent()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no parent folder"))?;
        let file_name = self
            .real
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
        // Everything below happens in the folder as opened now, checked to be the one the file
        // was read from: a folder on the way swapped for a link meanwhile cannot move the
        // temporary file, the comparison or the rename elsewhere.
        let (_folder, through) = open_folder(parent)?;
        let target = through.join(file_name);
        let name = file_name.to_string_lossy();
        // tempfile opens with O_CREAT | O_EXCL and a random name, retrying on a clash.
        let mut temp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".skill-lsp")
            .rand_bytes(10)
            .tempfile_in(&through)?;
        temp.write_all(text)?;
        // On the handle (fchmod), never by path: the path could name something else by now.
        temp.as_file().set_permissions(self.permissions.clone())?;
        temp.as_file().sync_all()?;
        if !self.unchanged(&target)? {
            return Err(WriteError::Changed);
        }
        temp.persist(&target).map_err(|error| error.error)?;
        Ok(())
    }

    /// Whether the file at `target` (the real path, through the opened folder) is still the
    /// one read, byte for byte.
    fn unchanged(&self, target: &Path) -> io::Result<bool> {
        let (bytes, metadata) = match read_unfollowed(target) {
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(error) => return Err(error),
        };
        Ok(Stamp::of(&metadata) == self.stamp && bytes == self.bytes)
    }
}

/// The folder at `path` opened, and a path that reaches inside that very folder whatever
/// happens to `path` meanwhile (`/proc/self/fd/N`; without procfs, `path` itself). Refused as
/// changed when the folder opened is not the one `path`, a real path, named.
///
/// # Errors
///
/// The open's error; [`WriteError::Changed`] for a folder that resolves elsewhere.
pub(crate) fn open_folder(path: &Path) -> Result<(fs::File, PathBuf), WriteError> {
    let folder = fs::File::open(path)?;
    match real_path_of(&folder) {
        Some(real) if real != path => Err(WriteError::Changed),
        Some(_) => {
            let through = beneath(&folder, path);
            Ok((folder, through))
        }
        None => Ok((folder, path.to_path_buf())),
    }
}

/// The real path of an open file or folder: the target of `/proc/self/fd/N`, or `None`
/// without procfs.
pub(crate) fn real_path_of(file: &fs::File) -> Option<PathBuf> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use std::os::fd::AsRawFd;
        fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())).ok()
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let _ = file;
        None
    }
}

/// A path that reaches inside the folder open as `folder` however its own path changes:
/// `/proc/self/fd/N`. Without procfs, `real`, the folder's checked real path.
pub(crate) fn beneath(folder: &fs::File, real: &Path) -> PathBuf {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use std::os::fd::AsRawFd;
        let through = PathBuf::from(format!("/proc/self/fd/{}", folder.as_raw_fd()));
        if through.is_dir() {
            return through;
        }
    }
    let _ = folder;
    real.to_path_buf()
}

/// Renames `from` to `to` in the same folder without ever replacing a file at `to`: a hard
/// link cannot be made over an existing name, and the old name is removed only once the new
/// one holds the file. Where `to` already names the same file (`skill.md` and `SKILL.md` on a
/// case-insensitive file system), or hard links are not supported, the rename goes through a
/// fresh temporary name.
///
/// # Errors
///
/// `AlreadyExists` when another file is at `to`; the I/O error otherwise.
pub(crate) fn rename_without_replacing(from: &Path, to: &Path) -> io::Result<()> {
    match fs::hard_link(from, to) {
        Ok(()) => return fs::remove_file(from),
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists && !same_file(from, to) => {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} already exists", to.display()),
            ));
        }
        Err(_) => {}
    }
    let folder = from.parent().unwrap_or(Path::new("."));
    // A fresh name that nothing else can hold: created empty with O_EXCL, then renamed over.
    let temp = tempfile::Builder::new()
        .prefix(".skill-lsp-rename.")
        .tempfile_in(folder)?
        .into_temp_path();
    fs::rename(from, &temp)?;
    if to.exists() && !same_file(&temp, to) {
        let _ = fs::rename(&temp, from);
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} already exists", to.display()),
        ));
    }
    fs::rename(&temp, to).inspect_err(|_| {
        let _ = fs::rename(&temp, from);
    })?;
    // Renamed away: nothing is left at the temporary name to remove.
    let _ = temp.keep();
    Ok(())
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn roots(dir: &Path) -> Roots {
        Roots::new(&[dir.to_path_buf()])
    }

    #[test]
    fn a_held_file_is_replaced_with_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("SKILL.md");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        let held = hold(&path, &roots(dir.path())).unwrap();
        assert_eq!(held.bytes, b"old");
        held.replace(b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn a_file_changed_after_the_read_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("SKILL.md");
        fs::write(&path, "old").unwrap();
        let held = hold(&path, &roots(dir.path())).unwrap();
        // Same size, so only the bytes (and perhaps the time) tell.
        fs::write(&path, "new").unwrap();
        assert!(matches!(held.replace(b"fix"), Err(WriteError::Changed)));
        assert_eq!(fs::read(&path).unwrap(), b"new");
        // Replaced by another file (another inode) with the same bytes: changed too.
        let held = hold(&path, &roots(dir.path())).unwrap();
        fs::remove_file(&path).unwrap();
        fs::write(&path, "new").unwrap();
        let _ = held.replace(b"fix");
        assert_eq!(fs::read(&path).unwrap(), b"new");
    }

    #[test]
    fn a_link_is_written_through_inside_the_roots_and_refused_outside() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let inside = dir.path().join("real.md");
        fs::write(&inside, "in").unwrap();
        let link = dir.path().join("SKILL.md");
        std::os::unix::fs::symlink(&inside, &link).unwrap();
        hold(&link, &roots(dir.path()))
            .unwrap()
            .replace(b"fixed")
            .unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&inside).unwrap(), b"fixed");

        let target = outside.path().join("SKILL.md");
        fs::write(&target, "out").unwrap();
        let escape = dir.path().join("escape.md");
        std::os::unix::fs::symlink(&target, &escape).unwrap();
        assert!(matches!(
            hold(&escape, &roots(dir.path())),
            Err(WriteError::Outside(_))
        ));
        assert_eq!(fs::read(&target).unwrap(), b"out");
    }

    #[test]
    fn renames_never_replace_another_file() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("skill.md");
        let to = dir.path().join("SKILL.md");
        fs::write(&from, "a").unwrap();
        fs::write(&to, "b").unwrap();
        let error = rename_without_replacing(&from, &to).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&to).unwrap(), b"b");
        fs::remove_file(&to).unwrap();
        rename_without_replacing(&from, &to).unwrap();
        assert_eq!(fs::read(&to).unwrap(), b"a");
        assert!(!from.exists());
    }
}
