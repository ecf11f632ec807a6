//! Reading skill files without trusting what is on disk: only regular files are opened, and no
//! more than [`MAX_FILE_BYTES`] is read, so a FIFO or device named SKILL.md, or a file that keeps
//! growing while it is read, can neither hang a run nor exhaust its memory.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The most of one file that is read: far beyond any real SKILL.md, small enough to hold.
pub(crate) const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// The file's bytes.
///
/// # Errors
///
/// The I/O error; `InvalidInput` for something that is not a regular file (symlinks are
/// followed), `FileTooLarge` past [`MAX_FILE_BYTES`].
pub(crate) fn read_bytes(path: &Path) -> io::Result<Vec<u8>> {
    // Refused while reading, not by the size it reports: some files report 0 whatever they
    // hold.
    read_bytes_within(path, u64::MAX)
}

/// [`read_bytes`], and `FileTooLarge` without reading when the file says it holds more than
/// `limit` bytes.
///
/// # Errors
///
/// As [`read_bytes`].
pub(crate) fn read_bytes_within(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    read_opened(&open_without_blocking(path, true)?, limit).map(|(bytes, _)| bytes)
}

/// [`read_bytes`] of the file at `path` itself, never through a link at that name, with the
/// metadata of the handle the bytes came from (what the one writer compares before a rename).
///
/// # Errors
///
/// As [`read_bytes`]; the open's error for a link.
pub(crate) fn read_unfollowed(path: &Path) -> io::Result<(Vec<u8>, fs::Metadata)> {
    read_opened(&open_without_blocking(path, false)?, u64::MAX)
}

/// The bytes of an opened file, refused unless it is a regular file within `limit` and
/// [`MAX_FILE_BYTES`], and its metadata.
fn read_opened(file: &File, limit: u64) -> io::Result<(Vec<u8>, fs::Metadata)> {
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(not_regular(&metadata));
    }
    if metadata.len() > limit.min(MAX_FILE_BYTES) {
        return Err(too_large(metadata.len()));
    }
    let size = usize::try_from(metadata.len()).unwrap_or(0);
    let mut bytes = Vec::with_capacity(size);
    if size > 0 {
        // The file as large as it was when opened: reading on until a read returns nothing
        // costs a system call per file, for a file that grows while it is linted.
        file.take(size as u64).read_to_end(&mut bytes)?;
    }
    if bytes.len() < size || size == 0 {
        // Shorter than it said, or a size of 0 that some files report whatever they hold.
        file.take(MAX_FILE_BYTES + 1 - bytes.len() as u64)
            .read_to_end(&mut bytes)?;
    }
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    Ok((bytes, metadata))
}

/// The error of a file over the limit: never read in part, so never fixed or listed in part.
fn too_large(size: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "{} bytes, over the {} MiB limit for one file; not read",
            crate::text::thousands(size),
            MAX_FILE_BYTES / (1024 * 1024)
        ),
    )
}

/// The folders a run may read files from and write them in: the paths the user named, every
/// link resolved (a file named directly stands for its folder), each widened to the git work
/// tree that holds it, if any: `.claude/skills/x -> ../../.agents/skills/x` stays inside the
/// repository when only `.claude` is named. A link found under them that resolves elsewhere
/// (to `/proc/self/environ`, a home folder, another checkout) is neither read nor written.
#[derive(Debug, Default)]
pub(crate) struct Roots(Vec<PathBuf>);

impl Roots {
    #[must_use]
    pub(crate) fn new(paths: &[PathBuf]) -> Self {
        Self(
            paths
                .iter()
                .filter_map(|path| {
                    let folder = if path.is_dir() {
                        path.as_path()
                    } else {
                        path.parent()
                            .filter(|parent| !parent.as_os_str().is_empty())
                            .unwrap_or(Path::new("."))
                    };
                    let real = fs::canonicalize(folder).ok()?;
                    let tree = real.ancestors().find(|folder| folder.join(".git").exists());
                    Some(tree.map_or(real.clone(), Path::to_path_buf))
                })
                .collect(),
        )
    }

    /// `folder` alone, not widened: the agent's workspace, outside which its tools never write.
    #[must_use]
    pub(crate) fn only(folder: &Path) -> Self {
        Self(fs::canonicalize(folder).into_iter().collect())
    }

    /// Whether `real`, a path with every link resolved, lies inside one of the roots.
    #[must_use]
    pub(crate) fn holds(&self, real: &Path) -> bool {
        self.0.iter().any(|root| real.starts_with(root))
    }

    /// `Err` with the message for a file that resolves outside the roots; `Ok` for one inside
    /// (or one that cannot be resolved, whose read then says why).
    ///
    /// # Errors
    ///
    /// The message naming where the link points.
    pub(crate) fn check(&self, path: &Path) -> Result<(), String> {
        match fs::canonicalize(path) {
            Ok(real) if !self.holds(&real) => Err(format!(
                "it links to {}, outside the folders being checked; not read",
                real.display()
            )),
            _ => Ok(()),
        }
    }
}

/// A stream's bytes (standard input), within the same limit as a file's: past it, an error
/// and nothing, never the first part.
///
/// # Errors
///
/// The read's error; `FileTooLarge` past [`MAX_FILE_BYTES`].
pub(crate) fn read_stream(stream: impl Read) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    stream.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "more than the {} MiB limit for one file; not read",
                MAX_FILE_BYTES / (1024 * 1024)
            ),
        ));
    }
    Ok(bytes)
}

/// The file's text, which must be UTF-8.
///
/// # Errors
///
/// As [`read_bytes`], and `InvalidData` when the bytes are not UTF-8.
pub(crate) fn read_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read_bytes(path)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not valid UTF-8"))
}

/// The disk as the plugin manifest checks see it: what is at a path (links followed), and the
/// text of a neighbouring manifest or README, read as any file here is.
pub(crate) struct DiskFiles;

impl crate::plugins::Files for DiskFiles {
    fn kind(&self, path: &Path) -> Option<crate::plugins::EntryKind> {
        let metadata = fs::metadata(path).ok()?;
        Some(if metadata.is_file() {
            crate::plugins::EntryKind::File
        } else if metadata.is_dir() {
            crate::plugins::EntryKind::Folder
        } else {
            crate::plugins::EntryKind::Other
        })
    }

    fn read(&self, path: &Path) -> Option<String> {
        read_bytes(path)
            .ok()
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
    }

    fn folders(&self, path: &Path) -> Vec<String> {
        let Ok(entries) = fs::read_dir(path) else {
            return Vec::new();
        };
        entries
            .filter_map(Result::ok)
            .filter(|entry| fs::metadata(entry.path()).is_ok_and(|metadata| metadata.is_dir()))
            .filter_map(|entry| entry.file_name().into_string().ok())
            .collect()
    }
}

/// Opens `path` for reading without waiting: opening a FIFO for reading blocks until a writer
/// comes, so where the system allows, the file is opened non-blocking (which changes nothing
/// for a regular file) and judged by what was opened; elsewhere it is judged before opening.
/// Without `follow`, a link at `path` itself is not opened (`O_NOFOLLOW`).
#[cfg(unix)]
fn open_without_blocking(path: &Path, follow: bool) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let no_follow = if follow { 0 } else { libc::O_NOFOLLOW };
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | no_follow)
        .open(path)
}

#[cfg(not(unix))]
fn open_without_blocking(path: &Path, follow: bool) -> io::Result<File> {
    if !follow && fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "a symlink"));
    }
    let metadata = fs::metadata(path)?;
    if !metadata.is_file() {
        return Err(not_regular(&metadata));
    }
    File::open(path)
}

fn not_regular(metadata: &fs::Metadata) -> io::Error {
    let kind = if metadata.is_dir() {
        "a folder, not a file"
    } else {
        special_kind(metadata)
    };
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("not a regular file: {kind}"),
    )
}

#[cfg(unix)]
fn special_kind(metadata: &fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = metadata.file_type();
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &fs::Metadata) -> &'static str {
    "a special file"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifos_and_folders_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("SKILL.md");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        let error = read_bytes(&fifo).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput, "{error}");
        let error = read_text(dir.path()).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput, "{error}");
    }

    #[test]
    fn text_must_be_utf8_and_bytes_need_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("SKILL.md");
        fs::write(&path, b"caf\xe9").unwrap();
        assert_eq!(read_bytes(&path).unwrap(), b"caf\xe9");
        assert_eq!(
            read_text(&path).unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
    }
}
