//! The `pytest-lsp` step: the independent-client LSP suite. pytest-lsp drives the skill-lsp
//! binary with the recorded capability sets of Neovim 0.11, VS Code 1.65.2 and Emacs 29.1
//! (`tests/pytest_lsp`).
//!
//! `cargo xtask pytest-lsp [PYTEST ARGS]` runs it alone, passing the arguments to pytest
//! (`-k hover`, `-x`, …). The knobs:
//!
//! - `SKILL_LSP_BIN` — the server when run alone (default: a fresh debug build);
//! - `PYTHON` — the interpreter for the venv (default: python3.11, else python3; >= 3.10);
//! - `PYTEST_LSP_VENV` — where the venv lives (default: `target/pytest-venv`).
//!
//! Needs only Python and PyPI. The venv is reused: pip runs again only when
//! `tests/pytest_lsp/requirements.txt` or the interpreter changes.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::support::{create_dir, is_executable, python, python_version, remove_dir, var, write};
use crate::{Context, status};

const REQUIREMENTS: &str = "tests/pytest_lsp/requirements.txt";

pub fn run(context: &Context, bin: &Path, pytest_args: &[String]) -> Result<(), String> {
    let venv = var("PYTEST_LSP_VENV")
        .map(|venv| context.path(&venv))
        .unwrap_or_else(|| context.root.join("target/pytest-venv"));
    let python = python();
    let recent = Command::new(&python)
        .args(["-c", "import sys; sys.exit(sys.version_info < (3, 10))"])
        .status()
        .is_ok_and(|status| status.success());
    if !recent {
        return Err(format!(
            "{python} is older than 3.10 (pytest-lsp needs >= 3.10)"
        ));
    }
    prepare_venv(&python, &venv, &context.root.join(REQUIREMENTS))?;
    eprintln!("pytest-lsp: {}", bin.display());
    status(
        Command::new(venv.join("bin/python"))
            .args(["-m", "pytest", "tests/pytest_lsp", "-q"])
            .args(pytest_args)
            .env("SKILL_LSP_BIN", bin)
            // No __pycache__ or .pytest_cache in the source tree (pytest.ini disables the
            // cache provider).
            .env("PYTHONDONTWRITEBYTECODE", "1"),
        "pytest tests/pytest_lsp",
    )
}

/// The venv with the requirements installed, made anew when the stamp (the interpreter's
/// version and the requirements) has changed.
fn prepare_venv(python: &str, venv: &Path, requirements: &Path) -> Result<(), String> {
    let listed =
        fs::read_to_string(requirements).map_err(|error| format!("{REQUIREMENTS}: {error}"))?;
    let want = format!("{}\n{listed}", python_version(python));
    let stamp = venv.join(".requirements-stamp");
    if is_executable(&venv.join("bin/python"))
        && fs::read_to_string(&stamp).is_ok_and(|have| have == want)
    {
        return Ok(());
    }
    remove_dir(venv)?;
    if let Some(parent) = venv.parent() {
        create_dir(parent)?;
    }
    let with_pip = Command::new(python)
        .args(["-m", "venv"])
        .arg(venv)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    let mut pip = if with_pip {
        let mut pip = Command::new(venv.join("bin/python"));
        pip.args(["-m", "pip"]);
        pip
    } else {
        // No ensurepip (Debian without python3-venv): an empty venv, filled by the outer pip.
        remove_dir(venv)?;
        status(
            Command::new(python)
                .args(["-m", "venv", "--without-pip"])
                .arg(venv),
            &format!("{python} -m venv --without-pip"),
        )?;
        let mut pip = Command::new(python);
        pip.args(["-m", "pip", "--python"])
            .arg(venv.join("bin/python"));
        pip
    };
    status(
        pip.args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
            REQUIREMENTS,
        ]),
        &format!("pip install -r {REQUIREMENTS}"),
    )?;
    write(&stamp, &want)
}
