//! Records the git commit the binary is built from, for `skill-lsp --version`.

use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=10", "HEAD"])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map(|text| text.trim().to_owned())
        .filter(|text| !text.is_empty())
        .unwrap_or_else(|| "unknown commit".to_owned());
    println!("cargo:rustc-env=SKILL_LSP_COMMIT={commit}");
    // Rebuild when HEAD moves, so the version names the commit really built.
    for path in [".git/HEAD", ".git/refs/heads"] {
        if std::path::Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
