//! What the test drivers share: executables, scratch folders, Python venvs and exit codes.

use std::collections::hash_map::RandomState;
use std::env;
use std::fs;
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::Instant;

/// Whether `path` is a file this user may run (`[ -x ]` on a file).
pub fn is_executable(path: &Path) -> bool {
    let Ok(metadata) = fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        metadata.is_file() && metadata.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        metadata.is_file()
    }
}

/// Whether a program of that name is on PATH (`command -v`).
pub fn on_path(program: &str) -> bool {
    env::var_os("PATH")
        .is_some_and(|path| env::split_paths(&path).any(|dir| is_executable(&dir.join(program))))
}

/// An environment variable that is set and not empty (`${NAME:-}` in the old scripts).
pub fn var(name: &str) -> Option<String> {
    env::var(name).ok().filter(|value| !value.is_empty())
}

/// The exit code as a shell reports it: a process killed by signal N is 128 + N.
pub fn exit_code(status: ExitStatus) -> i32 {
    if let Some(code) = status.code() {
        return code;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return 128 + signal;
        }
    }
    1
}

/// What a command prints on stdout, without the trailing newlines (`$(…)`); empty when it
/// cannot run.
pub fn output(command: &mut Command) -> String {
    command
        .stderr(Stdio::null())
        .output()
        .map(|output| {
            String::from_utf8_lossy(&output.stdout)
                .trim_end_matches('\n')
                .to_owned()
        })
        .unwrap_or_default()
}

/// Whether a command ran and exited 0, its output shown as it comes.
pub fn succeeds(command: &mut Command) -> bool {
    command.status().is_ok_and(|status| status.success())
}

/// Whole seconds since `start`, as the old scripts' `$SECONDS` arithmetic printed them.
pub fn seconds(start: Instant) -> u64 {
    start.elapsed().as_secs()
}

/// A number that differs from run to run, without a dependency: std seeds every `RandomState`
/// afresh.
pub fn random() -> u64 {
    RandomState::new().build_hasher().finish()
}

/// A new folder under the temporary directory (`mktemp -d`), removed when dropped unless kept.
pub struct Scratch {
    pub path: PathBuf,
    pub keep: bool,
}

impl Scratch {
    pub fn new(prefix: &str) -> Result<Scratch, String> {
        let base = env::temp_dir();
        for _ in 0..100 {
            let path = base.join(format!("{prefix}.{:06x}", random() & 0xff_ffff));
            match fs::create_dir(&path) {
                Ok(()) => return Ok(Scratch { path, keep: false }),
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(error) => return Err(format!("{}: {error}", path.display())),
            }
        }
        Err(format!("no free name for {prefix}.* in {}", base.display()))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if self.keep {
            eprintln!("kept {}", self.path.display());
        } else {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

pub fn create_dir(path: &Path) -> Result<(), String> {
    fs::create_dir_all(path).map_err(|error| format!("{}: {error}", path.display()))
}

pub fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|error| format!("{}: {error}", path.display()))
}

/// Removes a folder that may not be there (`rm -rf`).
pub fn remove_dir(path: &Path) -> Result<(), String> {
    match fs::remove_dir_all(path) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("{}: {error}", path.display()))
        }
        _ => Ok(()),
    }
}

/// A copy of a folder (`cp -R`): symbolic links stay links, files keep their modes.
pub fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    create_dir(to)?;
    let entries = fs::read_dir(from).map_err(|error| format!("{}: {error}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|error| format!("{}: {error}", from.display()))?;
        let kind = entry
            .file_type()
            .map_err(|error| format!("{}: {error}", entry.path().display()))?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            copy_entry(&entry.path(), &target)?;
        }
    }
    Ok(())
}

/// One file or symbolic link copied as itself.
pub fn copy_entry(from: &Path, to: &Path) -> Result<(), String> {
    let failed = |error: std::io::Error| format!("copying {}: {error}", from.display());
    let link = fs::symlink_metadata(from).map_err(failed)?.is_symlink();
    #[cfg(unix)]
    if link {
        let target = fs::read_link(from).map_err(failed)?;
        return std::os::unix::fs::symlink(target, to).map_err(failed);
    }
    let _ = link;
    fs::copy(from, to).map(drop).map_err(failed)
}

/// The interpreter a venv is made from: `PYTHON`, else python3.11 when there is one, else
/// python3 (CI pins 3.11; a machine without it still runs).
pub fn python() -> String {
    var("PYTHON").unwrap_or_else(|| {
        if on_path("python3.11") {
            "python3.11".to_owned()
        } else {
            "python3".to_owned()
        }
    })
}

/// `sys.version` of an interpreter: a new interpreter means a new venv.
pub fn python_version(python: &str) -> String {
    output(Command::new(python).args(["-c", "import sys; print(sys.version)"]))
}
