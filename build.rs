//! Records the git commit the binary is built from, for `skill-lsp --version`.

use std::path::Path;
use std::process::Command;

/// The trimmed stdout of a successful `git ARGS`, if any.
fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map(|text| text.trim().to_owned())
        .filter(|text| !text.is_empty())
}

fn main() {
    let commit =
        git(&["rev-parse", "--short=10", "HEAD"]).unwrap_or_else(|| "unknown commit".to_owned());
    println!("cargo:rustc-env=SKILL_LSP_COMMIT={commit}");
    // With no rerun-if line at all, Cargo reruns this script, and so rebuilds the crate, whenever
    // any file of the package changes (a README, the editor extension, the npm launcher).
    println!("cargo:rerun-if-changed=build.rs");
    // Rebuild when HEAD moves, so the version names the commit really built: HEAD itself (a
    // checkout), the branch it points to (a commit) and packed-refs. git names the files, so
    // this also works in a worktree, where .git is a file and the refs live in the main repo.
    let mut watched = vec![git(&["rev-parse", "--git-path", "HEAD"])];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(git(&["rev-parse", "--git-path", &branch]));
    }
    watched.push(git(&["rev-parse", "--git-path", "packed-refs"]));
    for path in watched.into_iter().flatten() {
        if Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
