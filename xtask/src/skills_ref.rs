//! The `skills-ref` step: a differential check against skills-ref 0.1.1, the Agent Skills
//! reference validator, on our own fixtures and bundled skills. It fails when skill-lsp's verdict
//! (`--target agentskills`: any error rejects) differs from skills-ref's for a folder not listed,
//! with its reason, in `scripts/skills_ref_exceptions.txt`, or when a listed folder no longer
//! differs.
//!
//! `cargo xtask skills-ref` runs it alone, on `SKILL_LSP_BIN` when set, else on a fresh debug
//! build. skills-ref goes into `.bench/venv` (gitignored), shared with
//! `scripts/install_peers.sh`, and is installed again only when its version there is not the
//! pinned one. The comparison itself is Python (`scripts/differential.py`), because it calls the
//! reference validator in process.

use std::path::Path;
use std::process::Command;

use crate::support::{create_dir, is_executable, output};
use crate::{Context, status};

const VERSION: &str = "0.1.1";

pub fn run(context: &Context, bin: &Path) -> Result<(), String> {
    let venv = context.root.join(".bench/venv");
    let python = venv.join("bin/python");
    let installed = is_executable(&python)
        && output(Command::new(&python).args([
            "-c",
            "import importlib.metadata as m; print(m.version(\"skills-ref\"))",
        ])) == VERSION;
    if !installed {
        println!(
            "skills-ref: installing skills-ref=={VERSION} into {}",
            venv.display()
        );
        create_dir(&context.root.join(".bench"))?;
        if !is_executable(&python) {
            status(
                Command::new("python3").args(["-m", "venv"]).arg(&venv),
                "python3 -m venv",
            )?;
        }
        status(
            Command::new(venv.join("bin/pip")).args([
                "install",
                "--disable-pip-version-check",
                "-q",
                &format!("skills-ref=={VERSION}"),
            ]),
            "pip install skills-ref",
        )?;
    }
    status(
        Command::new(&python)
            .args([
                "scripts/differential.py",
                "tests/fixtures",
                "skills",
                "--bin",
            ])
            .arg(bin)
            .args([
                "--exceptions",
                "scripts/skills_ref_exceptions.txt",
                "--quiet",
            ]),
        "scripts/differential.py",
    )
}
